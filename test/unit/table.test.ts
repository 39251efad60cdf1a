// cellWidth's shortcut for printable ASCII must measure exactly what string-width measures.
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { blogColumns, TITLE_CELLS } from '../../src/commands/blog/list/action.js';
import { cellWidth, fit, fitMiddle, layout, tableLines, type Column } from '../../src/output/table.js';
import { BATCH_TABLE_COLUMNS } from '../../src/commands/common/publish-output.js';
import type { BatchRow } from '../../src/commands/common/publish-rows.js';
import type { Blog } from '../../src/schemas/blog.js';

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

describe('tables that fit (gh-like: empty columns hidden, less important columns give way, copied values whole)', () => {
  const tty = (columns: number) => ({
    stdoutIsTTY: true,
    columns,
    paint: (_style: never, text: string) => text,
  });
  const blogs: Blog[] = Array.from({ length: 5 }, (_, i) => ({
    _id: `6650c0ffee0000000000abc${i}`,
    title: `5 Things I Wish I Knew Before Buying My First Espresso Machine, part ${i}`,
    createdAt: '2026-03-01T14:05:00.000Z',
    status: 'generated',
    wordCount: 1200 + i,
  }));

  it('blog list at 80 columns: every title keeps at least 30 cells, every id whole', () => {
    const lines = [...tableLines(tty(80), blogColumns(blogs, true), blogs)];
    for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(80);
    for (const [i, blog] of blogs.entries()) {
      const line = lines[i + 1]!;
      expect(line.startsWith(`${blog._id}  `)).toBe(true);
      const title = line.slice(blog._id.length + 2).split(/ {2,}/)[0]!;
      expect(cellWidth(title)).toBeGreaterThanOrEqual(TITLE_CELLS);
    }
    // WORDS and STATUS gave way; CREATED fits.
    expect(lines[0]!.split(/ {2,}/)).toEqual(['ID', 'TITLE', 'CREATED']);
  });

  it('blog list at 40 columns: one line per blog, no line wider than the terminal, ids whole', () => {
    const lines = [...tableLines(tty(40), blogColumns(blogs, true), blogs)];
    expect(lines).toHaveLength(blogs.length + 1);
    for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(40);
    for (const [i, blog] of blogs.entries()) expect(lines[i + 1]).toContain(blog._id);
  });

  it('piped: every column, tab-separated, nothing cut, empty columns kept', () => {
    const io = { stdoutIsTTY: false, columns: 40, paint: (_style: never, text: string) => text };
    const columns: Column<Blog>[] = [...blogColumns(blogs, false), { header: 'EMPTY', value: () => null }];
    const lines = [...tableLines(io, columns, blogs)];
    expect(lines[0]).toBe(
      `${blogs[0]!._id}\t${blogs[0]!.title}\t2026-03-01T14:05:00.000Z\tgenerated\t1200\t`,
    );
  });

  interface Row {
    source: string;
    action: string;
    id: string;
    link: string;
    error: string;
  }
  const batch: Column<Row>[] = [
    { header: 'SOURCE', value: (r) => r.source, flexible: true, min: 20 },
    { header: 'ACTION', value: (r) => r.action },
    { header: 'ID', value: (r) => r.id, copy: true, drop: 1 },
    { header: 'LINK', value: (r) => r.link, copy: true },
    { header: 'ERROR', value: (r) => r.error, wrap: true, min: 24 },
  ];
  const link = 'https://blog.example.com/2026/03/01/five-things-i-wish-i-knew/';
  const row = (n: number, error = ''): Row => ({
    source: `posts/2026/five-things-i-wish-i-knew-${n}.md`,
    action: error ? 'failed' : 'created',
    id: error ? '' : String(100 + n),
    link: error ? '' : `${link}?p=${n}`,
    error,
  });

  it('an empty column is not shown; a link is never cut, at any width', () => {
    const rows = [row(1), row(2)];
    for (let width = 30; width <= 160; width++) {
      const text = [...tableLines(tty(width), batch, rows)].join('\n');
      expect(text).not.toContain('ERROR');
      for (const r of rows) expect(text).toContain(r.link);
    }
  });

  it('a link that cannot fit beside the rest goes whole under its row', () => {
    const lines = [...tableLines(tty(40), batch, [row(1)])];
    expect(lines).toEqual([
      'SOURCE                           ACTION',
      'posts/2026/five-things-i-wish-…  created',
      `  ${link}?p=1`,
    ]);
  });

  it('an error wraps between words rather than losing its end', () => {
    const error = 'WordPress answered 403: the Application Password may not publish posts on this site';
    const lines = [...tableLines(tty(100), batch, [row(1), row(2, error)])];
    for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(100);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(error.split(' ').slice(-4).join(' '));
    expect(lines.some((l) => l.includes(`${link}?p=1`))).toBe(true);
  });

  it('layout: droppable columns go least important first, only when the others cannot give way enough', () => {
    const sized = [
      { header: 'ID', natural: 24, copy: true },
      { header: 'TITLE', natural: 60, flexible: true, min: 30 },
      { header: 'CREATED', natural: 16, drop: 3 },
      { header: 'STATUS', natural: 9, drop: 2 },
      { header: 'WORDS', natural: 5, drop: 1 },
    ];
    expect(layout(sized, [0, 1, 2, 3, 4], 200).shown).toEqual([0, 1, 2, 3, 4]);
    expect(layout(sized, [0, 1, 2, 3, 4], 100).shown).toEqual([0, 1, 2, 3, 4]);
    expect(layout(sized, [0, 1, 2, 3, 4], 80)).toEqual({ shown: [0, 1, 2], widths: [24, 36, 16], under: [] });
    expect(layout(sized, [0, 1, 2, 3, 4], 60)).toEqual({ shown: [0, 1], widths: [24, 34], under: [] });
  });
});

describe('a middle cut (paths): the file name stays', () => {
  it('keeps the last path segment whole when it fits, the start as far as there is room', () => {
    expect(fitMiddle('posts/2026/november/audit-ux-batch-07.md', 30)).toBe('posts/20…/audit-ux-batch-07.md');
    expect(fitMiddle('posts/2026/november/audit-ux-batch-07.md', 23)).toBe('p…/audit-ux-batch-07.md');
    // No room for the name and a cell of the start: a third of the start, the rest from the end.
    expect(fitMiddle('posts/2026/november/audit-ux-batch-07.md', 22)).toBe('posts/2…ux-batch-07.md');
    expect(fitMiddle('posts/a.md', 20)).toBe('posts/a.md');
    // A file name wider than the room: its start and, mostly, its end.
    expect(fitMiddle('a-very-long-file-name-number-42.md', 12)).toBe('a-v…er-42.md');
    expect(fitMiddle('日本語のファイル名/とても長い名前です.md', 12)).toMatch(/…/);
  });

  it('any text, any width: at most `width` cells, the text itself when it fits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 60 }), (text, width) => {
        const cut = fitMiddle(text, width);
        expect(cellWidth(cut)).toBeLessThanOrEqual(Math.max(width, cellWidth('…')));
        if (cellWidth(text) <= width) expect(cut).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('wp publish of 40 files at 80 columns: every SOURCE is told apart, by its file name', () => {
    const rows: BatchRow[] = Array.from({ length: 40 }, (_, i) => ({
      source: `content/posts/2026/audit-ux-review-of-the-checkout-flow-part-${String(i + 1).padStart(2, '0')}.md`,
      action: 'created',
      published: true,
      id: String(1000 + i),
      link: `https://blog.example.com/?p=${1000 + i}`,
      status: 'draft',
      type: 'post',
    }));
    const tty = { stdoutIsTTY: true, columns: 80, paint: (_style: never, text: string) => text };
    const lines = [...tableLines(tty, BATCH_TABLE_COLUMNS, rows)];
    expect(lines).toHaveLength(41);
    for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(80);
    const sources = lines.slice(1).map((l) => l.split(/\s{2,}/)[0]!);
    expect(new Set(sources).size).toBe(40);
    sources.forEach((s, i) => expect(s).toMatch(new RegExp(`part-${String(i + 1).padStart(2, '0')}\\.md$`)));
  });

  it('the batch table heads changed fields FIELDS and errors ERROR, each shown only when it has something', () => {
    const base = {
      published: true,
      id: '7',
      link: 'https://blog.example.com/?p=7',
      status: 'draft',
      type: 'post',
    };
    const tty = { stdoutIsTTY: true, columns: 120, paint: (_style: never, text: string) => text };
    const updated = [
      ...tableLines(tty, BATCH_TABLE_COLUMNS, [
        { ...base, source: 'a.md', action: 'updated', fields: ['title', 'content'] } as BatchRow,
      ]),
    ];
    expect(updated[0]).toMatch(/FIELDS$/);
    expect(updated[1]).toMatch(/title,content$/);
    const failed = [
      ...tableLines(tty, BATCH_TABLE_COLUMNS, [
        {
          ...base,
          source: 'b.md',
          action: 'failed',
          published: false,
          id: null,
          link: null,
          status: null,
          error: 'WordPress answered 403',
        } as BatchRow,
      ]),
    ];
    expect(failed[0]).toMatch(/ERROR$/);
    expect(failed[0]).not.toContain('FIELDS');
  });
});
