// The piped form of a table (see table.ts): one tab-separated line per row, nothing cut, no colour. Kept apart
// from table.ts so that a command writing to a pipe does not load string-width, whose Unicode tables and
// emoji pattern are built as it loads: a piped batch would pay for them and never measure a cell.
import type { IO } from './io.js';
import type { Column } from './table.js';

/** Lines go out in writes of about 64 KB, never one write(2) per row. */
export function printTsv<R>(io: Pick<IO, 'out'>, columns: Column<R>[], rows: R[]): void {
  let text = '';
  for (const row of rows) {
    text += `${columns.map((c) => cellText(c.value(row)).replace(/[\t\n\r]+/g, ' ')).join('\t')}\n`;
    if (text.length >= 65_536) {
      io.out(text);
      text = '';
    }
  }
  if (text) io.out(text);
}

/** As table.ts spells a cell: JSON for objects, whitespace runs as one space. */
function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.replace(/\s+/g, ' ').trim();
}
