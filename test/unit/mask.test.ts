// A key's mask never shows more than 4 of its characters.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { maskSecret } from '../../src/output/redact.js';

it('shows at most the last 4 characters, and none of a short key', () => {
  expect(maskSecret('sk_live_abcdefghijklmnopwxyz')).toBe('…wxyz');
  expect(maskSecret('short-key')).toBe('****');
  expect(maskSecret(undefined)).toBe('(none)');
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 200 }), (key) => {
      const shown = maskSecret(key).replace(/^…/, '');
      expect(shown === '****' || (shown.length <= 4 && key.endsWith(shown))).toBe(true);
    }),
  );
});
