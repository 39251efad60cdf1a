// The six styles blogctl paints with, as chalk 5 paints them at level 1 (basic ANSI colours). chalk itself
// is not used: importing it runs supports-color's terminal detection (node:tty, node:os, the environment)
// for its default instances, on every start, --help included, although IO decides about colour itself and
// only ever asked chalk to paint. What chalk does beyond wrapping is kept, so output is byte-for-byte the
// same: a close code inside the text re-opens the style after it (nested colours keep their colour), and
// a style is closed before each line break and re-opened after it (no bleed into the next line).
export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

const CODES: Record<Style, readonly [open: number, close: number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

export function paintAnsi(style: Style, text: string): string {
  if (!text) return text;
  const [openCode, closeCode] = CODES[style];
  const open = `\u001B[${openCode}m`;
  const close = `\u001B[${closeCode}m`;
  let out = text.includes('\u001B') ? text.replaceAll(close, close + open) : text;
  if (out.includes('\n')) out = out.replace(/\r?\n/g, (lineBreak) => close + lineBreak + open);
  return open + out + close;
}
