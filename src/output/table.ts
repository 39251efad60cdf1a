// Tables for people, TSV for programs. On a terminal: aligned columns measured with string-width (CJK and
// emoji take two cells), fitted to the width the way gh fits its tables: empty columns are not shown, the
// columns that matter less give way first (cut with "…", wrapped, then left out), and nothing a person
// copies (an id, a link, a URL) is ever cut. Piped: every column, tab-separated, nothing cut, no colour.
import stringWidth from 'string-width';
import type { IO } from './io.js';
import { visible } from './terminal-text.js';

/**
 * Terminal cells of a string. string-width segments every string into graphemes and tests each against emoji and
 * width tables, which is slow for long lists; printable ASCII, most of what a list holds, is one cell per
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
  /** Shrinks (with an ellipsis) when the table is wider than the terminal, first down to `min` cells. */
  flexible?: boolean;
  /** Wraps between words onto further lines, rather than being cut, when the table is too wide (prose). */
  wrap?: boolean;
  /**
   * The cells a flexible or wrapping column keeps before any column is dropped (default: its header's
   * width). A blog title keeps 30: a table of ids with unreadable titles helps no one.
   */
  min?: number;
  /**
   * Never cut: what a person copies (an id, a link, a URL). When it cannot fit beside the others even
   * after every column that can give way has, it goes on a line of its own under its row, whole.
   */
  copy?: boolean;
  /** May be left out when the table does not fit: the lowest number goes first. */
  drop?: number;
  /**
   * Where a cut value loses its text: at the end (the default) or in the middle, keeping its end whole where
   * it can — for paths, whose file names tell rows apart (`posts/2026/…/audit-ux-07.md`).
   */
  cut?: 'end' | 'middle';
}

export function printTable<R>(
  io: Pick<IO, 'stdoutIsTTY' | 'columns' | 'out' | 'paint'>,
  columns: Column<R>[],
  rows: R[],
): void {
  for (const line of tableLines(io, columns, rows)) io.out(line);
}

const GAP = 2;
const GAP_TEXT = ' '.repeat(GAP);
/** How far a copy column put under its row is indented. */
const UNDER = '  ';

/**
 * The lines printTable() prints, one by one (for IO.outLines, which batches them for a long list).
 * Piped: every column, tab-separated, nothing cut. On a terminal, to fit its width, in this order: columns
 * with nothing in them are not shown; flexible and wrapping columns give way down to their `min`; then
 * droppable columns are left out, least important first; then flexible and wrapping columns give way down
 * to their header's width; and last, copy columns that still do not fit go whole on lines under their row.
 */
export function* tableLines<R>(
  io: Pick<IO, 'stdoutIsTTY' | 'columns' | 'paint'>,
  columns: Column<R>[],
  rows: R[],
): Generator<string> {
  // On a terminal a value's control characters are shown, not obeyed; piped, the data stays as it is.
  const asShown = io.stdoutIsTTY ? visible : (text: string) => text;
  const cells = rows.map((row) => columns.map((c) => asShown(cellText(c.value(row)))));
  if (!io.stdoutIsTTY) {
    for (const line of cells) yield line.map((c) => c.replace(/[\t\n\r]+/g, ' ')).join('\t');
    return;
  }
  const natural = columns.map((c, i) =>
    // A loop, not Math.max(...all): spreading a very long list overflows the call stack.
    cells.reduce((widest, r) => Math.max(widest, cellWidth(r[i]!)), cellWidth(c.header)),
  );
  const empty = columns.map((_, i) => cells.every((r) => r[i] === ''));
  const { shown, widths, under } = layout(
    columns.map((c, i) => ({ ...c, natural: natural[i]! })),
    columns.map((_, i) => i).filter((i) => !empty[i] || !rows.length),
    io.columns,
  );
  const pad = (text: string, k: number): string =>
    k === shown.length - 1 ? text : text + ' '.repeat(Math.max(0, widths[k]! - cellWidth(text)));
  const cell = (i: number, value: string, width: number): string =>
    // A copy column is never cut, even in the last resort where it is wider than the terminal.
    columns[i]!.copy ? value : columns[i]!.cut === 'middle' ? fitMiddle(value, width) : fit(value, width);
  const wraps = shown.some((i) => columns[i]!.wrap);
  const line = (values: string[], header = false): string[] => {
    // One line per row unless a column wraps: the common case, kept cheap for long lists.
    if (!wraps || header) {
      let text = '';
      for (let k = 0; k < shown.length; k++) {
        const padded = pad(cell(shown[k]!, values[shown[k]!]!, widths[k]!), k);
        text += (k ? GAP_TEXT : '') + (header ? io.paint('bold', padded) : padded);
      }
      return [text.trimEnd()];
    }
    const parts = shown.map((i, k) => {
      return columns[i]!.wrap ? wrapCell(values[i]!, widths[k]!) : [cell(i, values[i]!, widths[k]!)];
    });
    const height = Math.max(...parts.map((p) => p.length));
    const out: string[] = [];
    for (let n = 0; n < height; n++) {
      out.push(
        parts
          .map((p, k) => pad(p[n] ?? '', k))
          .join(GAP_TEXT)
          .trimEnd(),
      );
    }
    return out;
  };
  yield* line(
    columns.map((c) => c.header),
    true,
  );
  for (const r of cells) {
    yield* line(r);
    for (const i of under) if (r[i]) yield `${UNDER}${r[i]}`;
  }
}

interface Sized {
  header: string;
  natural: number;
  flexible?: boolean;
  wrap?: boolean;
  min?: number;
  copy?: boolean;
  drop?: number;
}

/** Which columns are shown on the row's line (and how wide), and which go under the row. Exported for tests. */
export function layout(
  columns: Sized[],
  visible: number[],
  width: number,
): { shown: number[]; widths: number[]; under: number[] } {
  const headerWidth = (i: number): number => cellWidth(columns[i]!.header);
  const gives = (i: number): boolean => Boolean(columns[i]!.flexible || columns[i]!.wrap);
  const floor = (i: number): number =>
    Math.min(columns[i]!.natural, Math.max(headerWidth(i), columns[i]!.min ?? 0));
  const total = (ws: number[]): number => ws.reduce((a, b) => a + b, 0) + GAP * Math.max(0, ws.length - 1);
  /** Widths for `shown`, each giving way down to `floorOf`; undefined when they cannot fit. */
  const fitTo = (shown: number[], floorOf: (i: number) => number): number[] | undefined => {
    const ws = shown.map((i) => columns[i]!.natural);
    let excess = total(ws) - width;
    // The widest column that can give way gives first, a cell at a time down to the next widest.
    while (excess > 0) {
      let widest = -1;
      for (let k = 0; k < shown.length; k++)
        if (gives(shown[k]!) && ws[k]! > floorOf(shown[k]!) && (widest < 0 || ws[k]! > ws[widest]!))
          widest = k;
      if (widest < 0) return undefined;
      ws[widest]! -= 1;
      excess -= 1;
    }
    return ws;
  };
  let shown = [...visible];
  for (;;) {
    const ws = fitTo(shown, floor);
    if (ws) return { shown, widths: ws, under: [] };
    const droppable = shown.filter((i) => columns[i]!.drop !== undefined);
    if (!droppable.length) break;
    const least = droppable.reduce((a, b) => (columns[b]!.drop! < columns[a]!.drop! ? b : a));
    shown = shown.filter((i) => i !== least);
  }
  const narrow = fitTo(shown, headerWidth);
  if (narrow) return { shown, widths: narrow, under: [] };
  // Copy columns that still do not fit go under the row, the rightmost first.
  const under: number[] = [];
  for (let k = shown.length - 1; k >= 0; k--) {
    const i = shown[k]!;
    if (!columns[i]!.copy || shown.length - under.length <= 1) continue;
    under.unshift(i);
    const rest = shown.filter((j) => !under.includes(j));
    const ws = fitTo(rest, headerWidth);
    if (ws) return { shown: rest, widths: ws, under };
  }
  // Nothing else can give way: the terminal wraps what is left.
  const rest = shown.filter((j) => !under.includes(j));
  return {
    shown: rest,
    widths: rest.map((i) => Math.max(headerWidth(i), Math.min(columns[i]!.natural, width))),
    under,
  };
}

/** Lines of at most `width` cells, broken between words (a word wider than that is cut with "…"). */
function wrapCell(text: string, width: number): string[] {
  if (cellWidth(text) <= width) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const next = current ? `${current} ${word}` : word;
    if (cellWidth(next) <= width) current = next;
    else {
      if (current) lines.push(current);
      current = cellWidth(word) <= width ? word : fit(word, width);
    }
  }
  if (current) lines.push(current);
  return lines;
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

/**
 * Cuts to `width` terminal cells with "…" in the middle, keeping the end: the last path segment (a file name)
 * whole when it fits with at least one cell of the start, else the start's first third and the rest from the
 * end. Cuts between graphemes, as fit() does.
 */
export function fitMiddle(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  const room = Math.max(0, width - ELLIPSIS_WIDTH);
  if (room === 0) return fit(text, width);
  const parts = PRINTABLE_ASCII.test(text) ? [...text] : [...graphemes().segment(text)].map((s) => s.segment);
  const slash = text.lastIndexOf('/');
  const name = slash > 0 ? cellWidth(text.slice(slash)) : Infinity;
  const tail = name < room ? name : room - Math.floor(room / 3);
  let end = '';
  let used = 0;
  for (let k = parts.length - 1; k >= 0; k--) {
    const w = cellWidth(parts[k]!);
    if (used + w > tail) break;
    end = parts[k]! + end;
    used += w;
  }
  let start = '';
  for (const part of parts) {
    const w = cellWidth(part);
    if (used + w > room) break;
    start += part;
    used += w;
  }
  return `${start}…${end}`;
}

let segmenter: Intl.Segmenter | undefined;
function graphemes(): Intl.Segmenter {
  return (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
}
