// A source's `key:` when blogctl makes one up (`wp init --write-keys`, `blog create --save`): short, random,
// of an alphabet without look-alike characters.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A fresh key: 12 characters of a 32-letter alphabet (60 bits). */
export function randomKey(): string {
  let key = '';
  for (const byte of randomBytes(12)) key += ALPHABET[byte % ALPHABET.length];
  return key;
}
