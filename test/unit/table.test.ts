// cellWidth's shortcut for printable ASCII must measure exactly what string-width measures.
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cellWidth, fit, tableLines, type Column } from '../../src/output/table.js';

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

  it('fit keeps every emoji grapheme whole and never exceeds the width', () => {
    expect(fit('❤️✈️ Love travel', 6)).toBe('❤️✈️ …');
    expect(fit('ab👨‍👩‍👧 Family', 6)).toBe('ab👨‍👩‍👧 …');
    expect(fit('ab👨‍👩‍👧 Family', 4)).toBe('ab…');
    expect(fit('🇯🇵🇫🇷 Travel', 4)).toBe('🇯🇵…');
    expect(fit('x👩🏽‍💻 coding', 5)).toBe('x👩🏽‍💻 …');
    expect(fit('x👩🏽‍💻 coding', 4)).toBe('x👩🏽‍💻…');
  });

  it('fit: any text, any width: at most `width` cells, a prefix of whole graphemes plus "…"', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const emoji = fc.constantFrom('❤️', '✈️', '👨‍👩‍👧', '🇯🇵', '👩🏽‍💻', '日', '语', 'é', 'a', ' ', '1️⃣');
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.array(emoji, { maxLength: 20 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 30 }), (t, width) => {
        const out = fit(t, width);
        expect(cellWidth(out)).toBeLessThanOrEqual(width);
        if (out === t) return;
        expect(out.endsWith('…')).toBe(true);
        const kept = [...segmenter.segment(out.slice(0, -1))].map((s) => s.segment);
        const whole = [...segmenter.segment(t)].map((s) => s.segment);
        expect(whole.slice(0, kept.length)).toEqual(kept);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('tableLines on a terminal', () => {
  it('emoji and CJK titles: no line wider than the terminal, columns aligned, at every width', () => {
    interface Row {
      id: string;
      title: string;
      words: number;
    }
    const rows: Row[] = [
      { id: '6650c0ffee0000000000abcd', title: 'Weekend ❤️✈️ Love Travel tips for families', words: 800 },
      { id: '6650c0ffee0000000000abce', title: '日本語 ❤️ のタイトル 👨‍👩‍👧 family 🇯🇵🇫🇷', words: 1500 },
      { id: '6650c0ffee0000000000abcf', title: 'Plain ASCII title that is fairly long indeed', words: 300 },
    ];
    const columns: Column<Row>[] = [
      { header: 'ID', value: (r) => r.id },
      { header: 'TITLE', value: (r) => r.title, flexible: true },
      { header: 'WORDS', value: (r) => r.words },
    ];
    for (let width = 40; width <= 140; width++) {
      const io = { stdoutIsTTY: true, columns: width, paint: (_style: never, text: string) => text };
      const lines = [...tableLines(io, columns, rows)];
      expect(lines).toHaveLength(rows.length + 1);
      for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(width);
      // WORDS starts at the same cell on every line.
      const starts = lines.map((l) => cellWidth(l.slice(0, l.lastIndexOf('  ') + 2)));
      expect(new Set(starts).size).toBe(1);
    }
  });
});
