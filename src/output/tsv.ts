// The piped form of a table (see table.ts): one tab-separated line per row, nothing cut, no colour. Kept apart
// from table.ts so that a command writing to a pipe does not load string-width, whose Unicode tables and
// emoji pattern take about 40 ms to build: a tenth of a 500-post `wp publish` batch, for nothing.
import type { IO } from './io.js';
import type { Column } from './table.js';

/** Lines go out in writes of about 64 KB: a write(2) per row cost 500 system calls for a 500-post batch. */
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
