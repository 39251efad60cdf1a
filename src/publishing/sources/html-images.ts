// Raw HTML's images (a Markdown body's HTML, an HTML source) rewritten through htmlparser2's tokenizer: `<img
// src>`, and the candidates of `<img srcset>` and `<picture>`'s `<source srcset>`. Its positions let those
// values alone be replaced, so the rest of the HTML stays byte for byte as written. Apart from
// inline-images.ts so the tokenizer loads only for a text holding `<img`.
import { Tokenizer } from 'htmlparser2';
import { decodeEntities } from '../../lib/html-entities.js';
import { lineAt, type ResolveImage } from './inline-images.js';

/** The attributes naming images, by element. */
const IMAGE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  img: ['src', 'srcset'],
  source: ['srcset'],
};
const named = (tag: string, attr: string): boolean => IMAGE_ATTRIBUTES[tag]?.includes(attr) ?? false;

/**
 * A `srcset` value (as written, entities and all) with each local candidate URL replaced by what `resolve`
 * gives; undefined when none is. Read as HTML's own srcset parser reads it: a URL runs to the next white space
 * (commas ending it end its candidate), its descriptors to the next comma outside parentheses.
 */
function rewriteSrcset(raw: string, line: number, resolveRef: ResolveImage): string | undefined {
  const text = decodeEntities(raw);
  let out = '';
  let changed = false;
  let i = 0;
  while (i < text.length) {
    let j = i;
    while (j < text.length && /[\s,]/.test(text[j]!)) j++;
    out += text.slice(i, j);
    i = j;
    if (i >= text.length) break;
    while (j < text.length && !/\s/.test(text[j]!)) j++;
    let url = text.slice(i, j);
    const commas = /,+$/.exec(url)?.[0] ?? '';
    url = url.slice(0, url.length - commas.length);
    const replaced = url ? resolveRef(url, line) : undefined;
    if (replaced !== undefined) changed = true;
    out += (replaced ?? url) + commas;
    i = j;
    if (commas) continue;
    let depth = 0;
    while (j < text.length && !(text[j] === ',' && depth === 0)) {
      if (text[j] === '(') depth++;
      else if (text[j] === ')') depth = Math.max(0, depth - 1);
      j++;
    }
    out += text.slice(i, j);
    i = j;
  }
  // Written back escaped, so it stays one value whatever quotes hold it.
  return changed
    ? out.replace(/[&"']/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&#39;'))
    : undefined;
}

/**
 * Every image an HTML text names (`<img src>`, `srcset` candidates) with a local one replaced by what
 * `resolve` gives (undefined: left as written). `firstLine` is the line of the text's first character in its
 * file.
 */
export function rewriteHtmlImages(html: string, firstLine: number, resolveRef: ResolveImage): string {
  if (!/<img/i.test(html)) return html;
  const edits: { start: number; end: number; text: string }[] = [];
  let tag = '';
  let attr = '';
  let value: { start: number; end: number } | undefined;
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
      },
      onattribname(start, end) {
        attr = html.slice(start, end).toLowerCase();
        value = undefined;
      },
      onattribdata(start, end) {
        if (!named(tag, attr)) return;
        value = value ? { start: value.start, end } : { start, end };
      },
      onattribentity() {},
      onattribend() {
        if (named(tag, attr) && value && value.end > value.start) {
          const raw = html.slice(value.start, value.end);
          const line = lineAt(html, value.start, firstLine);
          const replaced =
            attr === 'srcset' ? rewriteSrcset(raw, line, resolveRef) : resolveRef(decodeEntities(raw), line);
          if (replaced !== undefined) edits.push({ ...value, text: replaced });
        }
        attr = '';
        value = undefined;
      },
      onopentagend() {
        tag = '';
      },
      onselfclosingtag() {
        tag = '';
      },
      oncdata() {},
      onclosetag() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += html.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + html.slice(at);
}
