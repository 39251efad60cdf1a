// Text from HTML written as Markdown (turndown's text escaping, then this): what reads as text on the page
// must read back as text, never as markup. turndown escapes Markdown's own syntax but not HTML's, so a page
// showing `<script>` (stored `&lt;script&gt;`) would come back as a live element: `<` before what could start
// a tag and `&` before what could start an entity are written as entities. A shortcode in the text
// (`[gallery ids="1"]`, which turndown writes `\[gallery ids="1"\]`) is written as it was, since the Markdown
// reading copies shortcodes as written. A text starting like a heading or a list item (`#`, `+`, `1.`, `1)`
// alone, which turndown leaves) is escaped too.

import type TurndownService from 'turndown';

const SHORTCODE = /\\\[(\/?[A-Za-z_][A-Za-z0-9_\\-]*(?:\s[^[\]\n]*?)?)\\\]/g;

/** `escaped` is turndown's escape() of a text node. */
function markdownText(escaped: string): string {
  return escaped
    .replace(/^(#{1,6})(?=\s|$)/, '\\$1')
    .replace(/^(\+|\d+[.)])(?=\s|$)/, (m) => `${m.slice(0, -1)}\\${m.slice(-1)}`)
    .replace(/&(?=[#A-Za-z])/g, '&amp;')
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;')
    .replace(SHORTCODE, (_, inner: string) => `[${inner.replace(/\\([\\_*`-])/g, '$1')}]`);
}

/** The converter with its text escaped by markdownText as well (once: call it on a new converter). */
export function textSafe(converter: TurndownService): TurndownService {
  const escape = converter.escape.bind(converter);
  converter.escape = (text: string) => markdownText(escape(text));
  return converter;
}
