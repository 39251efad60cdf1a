// Text files and stdin as UTF-8, strictly. Buffer's own decoding turns bytes that are not UTF-8 into U+FFFD
// without a word, so a Latin-1 file would be published with "�" in place of every accented letter; a file
// that is not UTF-8 is refused instead (exit 2: nothing was sent), naming where the first bad byte is.
import { isUtf8 } from 'node:buffer';
import { UsageError } from '../errors.js';

/** `bytes` as text; a UsageError naming `source` and the first byte that is not UTF-8 when they are not. */
export function decodeUtf8(bytes: Buffer, source: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  throw new UsageError(
    `${source} is not valid UTF-8 (byte offset ${firstInvalidUtf8Byte(bytes)}); save it as UTF-8`,
  );
}

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (the Unicode standard's
 * table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or -1 when every byte does.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The length of the sequence and the range its second byte must fall in.
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}
