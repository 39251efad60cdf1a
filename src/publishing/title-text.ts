// A post title is text unless the writer asks for HTML (front matter `title_html: true`): WordPress stores the
// title as HTML and prints it unescaped, so text must be escaped to stay text (`<script>` in a title would
// otherwise run on the page). The escaping is the least that keeps the text as it reads, so a title without
// markup characters is sent exactly as written: `<` and `>` always, `&` only where a browser would read a
// character reference (`&copy`, `&#60;`, `&amp;`), never the `&` of `Fish & Chips`.
import { decodeEntities as decodeHTML } from '../lib/html-entities.js';

/** The title text as the HTML WordPress stores: decodeHTML(titleTextToHtml(t)) === t for every t. */
export function titleTextToHtml(text: string): string {
  return text.replace(/[<>]|&(?=[#A-Za-z])/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
}

/**
 * A stored title as front matter text, when that text is sent back as exactly the same HTML; undefined when
 * it is not (it holds markup, or entities another way than titleTextToHtml writes them): then the file keeps
 * the HTML with `title_html: true`.
 */
export function titleHtmlToText(html: string): string | undefined {
  if (/<[A-Za-z!/?]/.test(html)) return undefined;
  const text = decodeHTML(html);
  return titleTextToHtml(text) === html ? text : undefined;
}
