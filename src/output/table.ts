// Tables for people, TSV for programs. On a terminal: aligned columns measured with string-width (CJK and
// emoji take two cells), the widest flexible column cut with "…" to fit the width. Piped: tab-separated,
// nothing cut, no colour.
import stringWidth from 'string-width';
import type { IO } from './io.js';

/**
 * Terminal cells of a string. string-width segments every string into graphemes and tests each against emoji and
 * width tables (1.3 s for a 20,000-row table); printable ASCII, most of what a list holds, is one cell per
 * character, which is what string-width gives for it (test/unit/table.test.ts).
 */
export function cellWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  // What fit() leaves of a long ASCII cell: the ellipsis is a grapheme of its own.
  if (text.endsWith('…') && PRINTABLE_ASCII.test(text.slice(0, -1))) return text.length - 1 + ELLIPSIS_WIDTH;
  return stringWidth(text);
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ELLIPSIS_WIDTH = stringWidth('…');

export interface Column<R> {
  header: string;
  value: (row: R) => unknown;
  /** Shrinks (with an ellipsis) when the table is wider than the terminal. */
  flexible?: boolean;
}

export function printTable<R>(
  io: Pick<IO, 'stdoutIsTTY' | 'columns' | 'out' | 'paint'>,
  columns: Column<R>[],
  rows: R[],
): void {
  for (const line of tableLines(io, columns, rows)) io.out(line);
}

/** The lines printTable() prints, one by one (for IO.outLines, which batches them for a long list). */
export function* tableLines<R>(
  io: Pick<IO, 'stdoutIsTTY' | 'columns' | 'paint'>,
  columns: Column<R>[],
  rows: R[],
): Generator<string> {
  const cells = rows.map((row) => columns.map((c) => cellText(c.value(row))));
  if (!io.stdoutIsTTY) {
    for (const line of cells) yield line.map((c) => c.replace(/[\t\n\r]+/g, ' ')).join('\t');
    return;
  }
  const widths = columns.map((c, i) =>
    // A loop, not Math.max(...all): spreading a very long list overflows the call stack.
    cells.reduce((widest, r) => Math.max(widest, cellWidth(r[i]!)), cellWidth(c.header)),
  );
  const gap = 2;
  const total = () => widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1);
  const flexible = columns.map((c, i) => (c.flexible ? i : -1)).filter((i) => i >= 0);
  while (total() > io.columns && flexible.length) {
    const widest = flexible.reduce((a, b) => (widths[b]! > widths[a]! ? b : a));
    const excess = total() - io.columns;
    // Down to its header's width on a narrow terminal: a short title beats a table that wraps.
    const floor = cellWidth(columns[widest]!.header);
    const next = Math.max(floor, widths[widest]! - excess);
    if (next === widths[widest]) break;
    widths[widest] = next;
  }
  const line = (values: string[], header = false): string =>
    values
      .map((v, i) => {
        const fitted = fit(v, widths[i]!);
        const padded =
          i === values.length - 1 ? fitted : fitted + ' '.repeat(Math.max(0, widths[i]! - cellWidth(fitted)));
        return header ? io.paint('bold', padded) : padded;
      })
      .join(' '.repeat(gap))
      .trimEnd();
  yield line(
    columns.map((c) => c.header),
    true,
  );
  for (const r of cells) yield line(r);
}

function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Cuts to `width` terminal cells, ending with "…". It cuts between graphemes, never inside one: an emoji
 * with a variation selector (❤️), a skin tone (👩🏽‍💻), a ZWJ family (👨‍👩‍👧) or a flag (🇯🇵) is kept whole or
 * dropped whole, and each is measured whole (❤ and U+FE0F measured apart add up to one cell, ❤️ is two).
 */
export function fit(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  const room = Math.max(0, width - ELLIPSIS_WIDTH);
  if (PRINTABLE_ASCII.test(text)) return `${text.slice(0, room)}…`;
  let out = '';
  let used = 0;
  for (const { segment } of graphemes().segment(text)) {
    const w = cellWidth(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

let segmenter: Intl.Segmenter | undefined;
function graphemes(): Intl.Segmenter {
  return (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
}
