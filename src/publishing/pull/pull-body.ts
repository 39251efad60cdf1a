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

/** `markdown` is the stored HTML as Markdown (the pull converter's answer); `raw` the stored HTML. */
export function pulledBody(raw: string, markdown: string): PulledBody {
  if (!raw.trim()) return { text: '' };
  if (markdown.trim() && !/^\s*---/.test(markdown)) {
    const tokens = marked.lexer(`${markdown}\n`);
    const hasBlocks = /<!--\s+wp:/.test(raw);
    if (!hasBlocks && sameClassic(marked.parser(tokens), raw)) return { text: markdown };
    if (hasBlocks && new BlockWriter(marked).blocks(tokens) === raw)
      return { field: { name: 'editor', value: 'blocks' }, text: markdown };
  }
  return { field: { name: 'body', value: 'html' }, text: raw };
}
