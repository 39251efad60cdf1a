// A secret cut short with "…" (a peer's message, a table cell) never keeps its start; text that merely
// ends like one is left alone.
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/output/table.js';
import { basicAuthorization, redact, registerSecret } from '../../src/output/redact.js';

const KEY = 'sk_live_Cut7Short9Key4Test';
registerSecret(KEY);

describe('redact and cuts', () => {
  it('hides every start of a secret (4 characters or more) that ends at a cut', () => {
    for (let k = 4; k < KEY.length; k++) {
      const text = `key: ${KEY.slice(0, k)}… more`;
      expect(redact(text)).toBe('key: ***… more');
    }
    expect(redact(`key: ${KEY.slice(0, 3)}…`)).toBe(`key: ${KEY.slice(0, 3)}…`);
    expect(redact('Generating blog post…')).toBe('Generating blog post…');
    expect(redact(`a ${KEY} b ${KEY.slice(0, 9)}…`)).toBe('a *** b ***…');
  });

  it('any cut form a peer uses: a start, an end, or both around the middle, with "..." or "…"', () => {
    const key = 'sk_live_0123456789abcdefABCDEF0123456789xy'; // 40 characters
    registerSecret(key);
    for (const cut of ['...', '…', ' ...', '[...]', ' (…) ', '....']) {
      for (let k = 4; k < key.length; k++) {
        const shown = redact(`key ${key.slice(0, k)}${cut} rejected`);
        expect(shown, shown).not.toContain(key.slice(0, 4));
      }
      for (let k = 5; k < key.length; k++) {
        const shown = redact(`key ${cut}${key.slice(-k)} rejected`);
        expect(shown, shown).not.toContain(key.slice(-5));
      }
      // The middle elided: what is left on each side is at most 3 (start) and 4 (end) characters.
      for (let a = 1; a < 30; a++)
        for (let b = 1; a + b < key.length; b += 3) {
          const shown = redact(`{"message":"key ${key.slice(0, a)}${cut}${key.slice(-b)} rejected"}`);
          const left = shown.slice(shown.indexOf('key ') + 4);
          expect(left.startsWith(key.slice(0, Math.min(a, 4))), shown).toBe(a < 4);
          if (b >= 5) expect(shown, shown).not.toContain(key.slice(-b));
        }
    }
    // The 4 characters blogctl shows of a key itself, and ordinary dots, stay.
    expect(redact(`key …${key.slice(-4)}`)).toBe(`key …${key.slice(-4)}`);
    expect(redact('Loading... done')).toBe('Loading... done');
  });

  it('a table cell cut at any width keeps none of the secret', () => {
    const cell = `title with ${KEY} in it`;
    for (let width = 12; width < cell.length; width++) {
      const shown = redact(fit(cell, width));
      for (let k = 4; k <= KEY.length; k++) expect(shown).not.toContain(KEY.slice(0, k));
    }
  });

  it('the whole Basic header value, for a username of any length', () => {
    for (const user of ['a', 'ab', 'abc', 'abcd']) {
      const header = basicAuthorization(user, 'pass word here 1234');
      expect(redact(`sent ${header} x`)).toBe('sent *** x');
      expect(redact(`sent ${header.slice(6)} x`)).toBe('sent *** x');
    }
  });
});
