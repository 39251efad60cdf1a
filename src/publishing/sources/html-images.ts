// Raw HTML's `<img src>` (a Markdown body's HTML, an HTML source) rewritten through htmlparser2's tokenizer:
// its positions let the `src` value alone be replaced, so the rest of the HTML stays byte for byte as written.
// Apart from inline-images.ts so the tokenizer loads only for a text holding `<img`.
import { Tokenizer } from 'htmlparser2';
import { decodeEntities } from '../../lib/html-entities.js';
import { lineAt, type ResolveImage } from './inline-images.js';

/**
 * Every `<img src>` of an HTML text with a local `src` replaced by what `resolve` gives (undefined: left as
 * written). `firstLine` is the line of the text's first character in its file.
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
        if (tag !== 'img' || attr !== 'src') return;
        value = value ? { start: value.start, end } : { start, end };
      },
      onattribentity() {},
      onattribend() {
        if (tag === 'img' && attr === 'src' && value && value.end > value.start) {
          const src = decodeEntities(html.slice(value.start, value.end));
          const replaced = resolveRef(src, lineAt(html, value.start, firstLine));
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
