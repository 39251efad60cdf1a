// Encryption at rest for WordPress Application Passwords: AES-256-GCM with a key from the caller, the
// environment, a key file beside the data file, or (memory-only sandboxes) a random key per process.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scryptSync } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** A password as it is stored: never the plaintext. */
export interface SealedSecret {
  iv: string;
  tag: string;
  data: string;
}

export interface Cipher {
  /** `aad` binds the ciphertext to its owner, so a record copied into another namespace fails to open. */
  seal(plain: string, aad: string): SealedSecret;
  open(sealed: SealedSecret, aad: string): string;
  /** A fingerprint of the key (not the key): tells at start-up whether a data file was written with it. */
  readonly keyCheck: string;
  /**
   * A keyed digest of `text` (HMAC-SHA-256, 128 bits, base64url): equal texts give equal values, and without
   * the key it tells nothing about the text — so a digest of a body holding a password cannot be used to
   * test guesses of it.
   */
  mac(text: string): string;
}

export interface KeySource {
  secret?: string;
  env?: NodeJS.ProcessEnv;
  dataFile?: string;
}

export const SECRET_ENV = 'BLOGCTL_SANDBOX_SECRET';
const KEY_BYTES = 32;

/** Picks the key: option, then BLOGCTL_SANDBOX_SECRET, then `<dataFile>.key`, then a random one. */
export function resolveCipher(source: KeySource): Cipher {
  const env = source.env ?? process.env;
  const given = source.secret ?? env[SECRET_ENV];
  if (given !== undefined && given !== '') {
    // A person may pass a passphrase rather than 32 random bytes: stretch it.
    return createCipher(scryptSync(given, 'blogctl-sandbox/v1', KEY_BYTES));
  }
  if (source.dataFile) return createCipher(loadOrCreateKeyFile(`${source.dataFile}.key`));
  return createCipher(randomBytes(KEY_BYTES));
}

export function createCipher(key: Buffer): Cipher {
  if (key.length !== KEY_BYTES) throw new Error(`AES-256 needs a ${KEY_BYTES}-byte key`);
  return {
    keyCheck: createHmac('sha256', key).update('blogctl-sandbox key check').digest('hex').slice(0, 16),
    // Its own prefix: no text gives the key check's input.
    mac: (text) =>
      createHmac('sha256', key)
        .update(`blogctl-sandbox mac\n${text}`)
        .digest()
        .subarray(0, 16)
        .toString('base64url'),
    seal(plain, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return {
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        data: data.toString('base64'),
      };
    },
    open(sealed, aad) {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * Reads the key file, or creates it. Creation writes a temporary file and hard-links it into place, so a
 * crash never leaves a half-written key and two processes starting together end up with the same key.
 */
function loadOrCreateKeyFile(path: string): Buffer {
  const existing = readKeyFile(path);
  if (existing) return existing;
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(KEY_BYTES).toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  const key = readKeyFile(path);
  if (!key) throw new Error(`could not create the sandbox key file ${path}`);
  return key;
}

function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new UsageError(
      `the sandbox key file ${path} is damaged (expected ${KEY_BYTES} base64-encoded bytes); restore it, or set ${SECRET_ENV}`,
    );
  }
  return key;
}
