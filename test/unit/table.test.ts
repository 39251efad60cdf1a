// cellWidth's shortcut for printable ASCII must measure exactly what string-width measures.
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cellWidth, fit } from '../../src/output/table.js';

describe('cellWidth', () => {
  it('equals string-width for any string', () => {
    const ascii = fc.string({
      unit: fc.oneof(
        fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
        fc.constantFrom('…', '\u0301', '\u200d', '\ufe0f', '\u20e3'),
      ),
    });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (text) => {
        expect(cellWidth(text)).toBe(stringWidth(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('every printable ASCII character is one cell', () => {
    for (let c = 0x20; c <= 0x7e; c++) expect(stringWidth(String.fromCharCode(c))).toBe(1);
    expect(cellWidth('#')).toBe(1);
  });

  it('fit cuts wide characters whole', () => {
    expect(fit('Home espresso, part 1', 10)).toBe('Home espr…');
    expect(fit('日本語のタイトル', 7)).toBe('日本語…');
  });
});
