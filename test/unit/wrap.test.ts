// Help text that fits: wrapText/formatRows/prose (src/output/wrap.ts) keep every line within the width,
// break only between words, and keep rows aligned and examples runnable.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayWidth, formatRows, prose, wrapText } from '../../src/output/wrap.js';

const words = (text: string): string[] => text.split(/\s+/).filter((w) => w && w !== '\\');

describe('wrapText', () => {
  it('any prose: no line wider than the width, the same words in the same order', () => {
    const word = fc.string({
      unit: fc.constantFrom('a', 'b', 'é', '-', '.', '(', '…'),
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 20, max: 120 }),
        (list, indent, width) => {
          const line = ' '.repeat(indent) + list.join(' ');
          const out = wrapText(line, width);
          for (const l of out.split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(width);
          expect(words(out)).toEqual(words(line));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves a line that fits exactly as it is', () => {
    const text = '  --site <id>      site profile\n\nplain  text   with  spaces';
    expect(wrapText(text, 80)).toBe(text);
  });

  it('continues prose under its own indent, and a bullet under its text', () => {
    expect(wrapText('  one two three four five six', 14)).toBe('  one two\n  three four\n  five six');
    expect(wrapText('- one two three four', 12)).toBe('- one two\n  three four');
  });

  it('continues a row under its description, or stacks it when the description would be narrow', () => {
    const row = '  --tone Friendly    sends the name and the value of the tone';
    expect(wrapText(row, 50)).toBe(
      ['  --tone Friendly    sends the name and the value', '                     of the tone'].join('\n'),
    );
    expect(wrapText(row, 40)).toBe(
      ['  --tone Friendly', '      sends the name and the value of', '      the tone'].join('\n'),
    );
  });

  it('continues Usage: under the command', () => {
    expect(wrapText('Usage: blogctl wp publish [options] [files...]', 30)).toBe(
      'Usage: blogctl wp publish\n       [options] [files...]',
    );
  });

  it('wraps an example with ` \\` between shell words, keeping quotes, options with their values, and comments whole', () => {
    const example =
      '  $ blogctl wp publish --site myblog --title "Hello there world" --status publish --dry-run # CI: fail when behind';
    const out = wrapText(example, 40).split('\n');
    for (const l of out) expect(displayWidth(l)).toBeLessThanOrEqual(40);
    expect(out).toEqual([
      '  $ blogctl wp publish --site myblog \\',
      '      --title "Hello there world" \\',
      '      --status publish --dry-run \\',
      '      # CI: fail when behind',
    ]);
    // The shell joins the lines again into the same words.
    expect(words(out.join('\n'))).toEqual(words(example));
  });

  it('cuts only a word wider than the whole line', () => {
    expect(wrapText('a 0123456789abcdef', 10)).toBe('a\n0123456789\nabcdef');
  });
});

describe('formatRows', () => {
  const rows = [
    ['NO_COLOR', 'disable colour (any non-empty value)'],
    ['BLOGCTL_CONFIG_DIR', 'where config.json and credentials.json live'],
  ] as const;

  it('aligns descriptions in one column and wraps each under itself', () => {
    expect(formatRows(rows, 50)).toEqual([
      '  NO_COLOR            disable colour (any',
      '                      non-empty value)',
      '  BLOGCTL_CONFIG_DIR  where config.json and',
      '                      credentials.json live',
    ]);
  });

  it('stacks every description under its term when the terms leave too little room', () => {
    const out = formatRows(rows, 30);
    expect(out).toEqual([
      '  NO_COLOR',
      '      disable colour (any',
      '      non-empty value)',
      '  BLOGCTL_CONFIG_DIR',
      '      where config.json and',
      '      credentials.json live',
    ]);
  });
});

describe('prose', () => {
  it('joins the lines of a paragraph, keeps rows, and continues a row from a line at its description column', () => {
    const text = [
      'First paragraph that goes on',
      'over two lines.',
      '  --tone x    sends this',
      '              and that',
      '  --meta y    other',
      'Next paragraph',
      '',
      'After a blank line.',
    ].join('\n');
    expect(prose(text)).toBe(
      [
        'First paragraph that goes on over two lines.',
        '  --tone x    sends this and that',
        '  --meta y    other',
        'Next paragraph',
        '',
        'After a blank line.',
      ].join('\n'),
    );
  });
});
