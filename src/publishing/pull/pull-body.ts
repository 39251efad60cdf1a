// The body of a pulled post, written so that `wp publish` sends back exactly what the site stores: Markdown
// only when the Markdown turns back into the same HTML, else the HTML itself (front matter `body: html`).
// Rules that must stay true:
// - A body is written as Markdown when parseMarkdownPost of that Markdown gives the stored content: classic
//   HTML up to ASCII whitespace at either end (wpautop drops it: the page is the same), or with `editor: blocks`
//   the same serialized blocks byte for byte. Block content is rendered without wpautop, so a line break at
//   either end of it is on the page; Markdown cannot hold one (the block writer ends where the block editor
//   ends its content, at the last block's closing comment), so such a post is kept as HTML.
// - Anything else (a classic post's `wpautop` paragraphs, groups, columns, buttons, layout classes, captions,
//   entities written another way) is kept as the site's HTML, byte for byte: a one-word edit of the file then
//   changes that word only.
import { BlockWriter } from '../markdown-blocks.js';
import { wordpressMarked } from '../markdown-wp.js';

export interface PulledBody {
  /** Front matter that says how to read the body: `editor: "blocks"` or `body: "html"`; none for classic Markdown. */
  field?: { name: 'editor'; value: 'blocks' } | { name: 'body'; value: 'html' };
  /** The text after the front matter (without its final line break). */
  text: string;
}

const marked = wordpressMarked();
/**
 * Classic content read by wpautop: the same page when equal up to the ASCII whitespace at either end (what
 * wpautop's `\s` drops, PHP's regexes being byte-wise). A no-break, ideographic or other Unicode space there is
 * text on the page (`<p>\u00a0</p>`), which `String.prototype.trim` would wrongly drop.
 */
const sameClassic = (a: string, b: string): boolean => asciiTrim(a) === asciiTrim(b);

const isAsciiSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** `text` without the ASCII whitespace (space, tab, line feed, vertical tab, form feed, return) at its ends. */
function asciiTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * How long marked takes to read `markdown`, as a count of the steps of its two searches whose time grows
 * faster than the text (a 400 KB post shaped for either took 1–2 s to read back; each step about 0.3–5 ns):
 * - From each `[`, marked searches the rest of its text for a reference link, up to 999 bracketed or escaped
 *   pieces on: for each stretch of lines that marked may read inline as one text, its `[` times its length.
 *   A stretch ends at a blank line and before a bullet (`-`, `*` or `+` and a space, indented less than
 *   four): no paragraph, heading, list item's text or table cell runs past either.
 * - At each piece of text it reads, marked looks ahead through the run of characters an e-mail address may
 *   hold (letters, digits, `.!#$%&'*+/=?_\`{|}~-`) for an `@`: for each such run, the places a piece of text
 *   ends inside it (`*`, `_`, `` ` ``, `~`, `http`, `ftp:`, `www.`) times its length (`**a**b**a**b…`).
 * One pass; an estimate from above.
 */
export function readBackWork(markdown: string): number {
  let work = 0;
  let brackets = 0;
  let start = 0;
  let run = 0;
  let ends = 0;
  const close = (at: number): void => {
    work += brackets * (at - start);
    brackets = 0;
    start = at;
  };
  const endRun = (): void => {
    work += ends * run;
    run = 0;
    ends = 0;
  };
  for (let line = 0; line <= markdown.length;) {
    let end = markdown.indexOf('\n', line);
    if (end < 0) end = markdown.length;
    let indent = line;
    while (indent < end && indent - line < 4 && markdown.charCodeAt(indent) === 0x20) indent++;
    const c = markdown.charCodeAt(indent);
    const next = markdown.charCodeAt(indent + 1);
    if (indent - line < 4 && (c === 0x2d || c === 0x2a || c === 0x2b) && (next === 0x20 || next === 0x09))
      close(line);
    let blank = true;
    for (let i = line; i < end; i++) {
      const code = markdown.charCodeAt(i);
      if (code === 0x5b) brackets++;
      if (code !== 0x20 && code !== 0x09 && code !== 0x0d) blank = false;
      if (!inAddress(code)) {
        endRun();
        continue;
      }
      run++;
      if (code === 0x2a || code === 0x5f || code === 0x60 || code === 0x7e || startsLink(markdown, i)) ends++;
    }
    endRun();
    if (blank) close(end);
    line = end + 1;
  }
  close(markdown.length);
  return work;
}

/** What marked's e-mail look-ahead runs through: `[a-zA-Z0-9.!#$%&'*+/=?_\`{|}~-]`. */
function inAddress(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2e ||
    c === 0x21 ||
    (c >= 0x23 && c <= 0x27) ||
    c === 0x2a ||
    c === 0x2b ||
    c === 0x2f ||
    c === 0x3d ||
    c === 0x3f ||
    c === 0x5f ||
    c === 0x60 ||
    (c >= 0x7b && c <= 0x7e) ||
    c === 0x2d
  );
}

/** Whether `http`, `ftp:` or `www.` (any case) starts at `i`: where marked ends a piece of text. */
function startsLink(text: string, i: number): boolean {
  const c = text.charCodeAt(i) | 0x20;
  if (c !== 0x68 && c !== 0x66 && c !== 0x77) return false;
  const word = text.slice(i, i + 4).toLowerCase();
  return word === 'http' || word === 'ftp:' || word === 'www.';
}

/**
 * Markdown whose reading back would take more than this many steps (readBackWork) is not read back: the post
 * keeps its HTML. At the slowest step measured (5 ns, escaped brackets in paragraphs of 3 KB) that is a
 * quarter of a second. A long post a person wrote, a few links to a paragraph, counts a few million.
 */
export const MAX_READ_BACK_WORK = 50_000_000;

/**
 * `markdown` is the stored HTML as Markdown (the pull converter's answer, undefined when the content holds
 * more than it converts); `raw` the stored HTML.
 */
export function pulledBody(raw: string, markdown: string | undefined): PulledBody {
  if (!raw.trim()) return { text: '' };
  if (markdown?.trim() && !/^\s*---/.test(markdown) && readBackWork(markdown) <= MAX_READ_BACK_WORK) {
    const tokens = marked.lexer(`${markdown}\n`);
    const hasBlocks = /<!--\s+wp:/.test(raw);
    if (!hasBlocks && sameClassic(marked.parser(tokens), raw)) return { text: markdown };
    if (hasBlocks && new BlockWriter(marked).blocks(tokens) === raw)
      return { field: { name: 'editor', value: 'blocks' }, text: markdown };
  }
  return { field: { name: 'body', value: 'html' }, text: raw };
}
