// Markdown posts: YAML front matter (front-matter.ts) fills post fields, the body becomes HTML (marked, GitHub
// flavour, extended for WordPress in markdown-wp.ts). Pure: no IO — the caller reads the file and uploads
// `featured_image`. Each field's value is checked in front-matter-fields.ts.
import { dirname, resolve } from 'node:path';
import { decodeEntities as decodeHTML } from '../../lib/html-entities.js';
import type { Token, Tokens } from 'marked';
import { UsageError } from '../../errors.js';
import { FIELD_NAMES, FieldReader, type FrontMatterFields } from './front-matter-fields.js';
import { readFrontMatter } from './front-matter.js';
import { BlockWriter } from '../markdown-blocks.js';
import { wordpressMarked } from '../markdown-wp.js';
import { rewriteMarkdownImages, type ResolveImage, type RewriteHtml } from './inline-images.js';
import { rewriteHtmlLinks, rewriteMarkdownLinks, type ResolveLink } from './source-links.js';

export interface MarkdownPost {
  fields: Partial<FrontMatterFields>;
  /** The body as HTML (without the `# heading` taken as the title). */
  html: string;
  /** Front matter keys blogctl does not use (Jekyll's `layout`, Hugo's `draft`, …): the caller may warn. */
  ignoredKeys: string[];
  /** The line in the file of each front matter key that could be placed (the opening `---` is line 1). */
  lines: Record<string, number>;
}

export interface ParseMarkdownOptions {
  /** The file's path, for messages and for `featured_image`; `-` means stdin. */
  path: string;
  /** Where a relative `featured_image` of stdin is taken from; default process.cwd(). */
  cwd?: string;
  /** The editor when the front matter names none (a project's `defaults.editor`); default `classic`. */
  editor?: 'classic' | 'blocks';
  /**
   * Each image `src` of the body with its file line: what to write instead (inline-images.ts), or undefined
   * to leave it as written. Without it, images are left as written.
   */
  images?: ResolveImage;
  /** html-images.ts's rewriter, for `<img>` in raw HTML (loaded by the caller when the text holds one). */
  rewriteHtml?: RewriteHtml;
  /**
   * Each link `href` of the body with its file line: what to write instead (source-links.ts: a link to
   * another source), or undefined to leave it as written. Without it, links are left as written.
   */
  links?: ResolveLink;
}

/**
 * Parses a Markdown post. Front matter values are checked for type: every bad field is reported, each naming
 * the file and the field's line (`posts/a.md:3: status: …`), in one UsageError whose `inputs` lists them;
 * a missing `title` is taken from the first top-level `# heading`, which is then removed from the body.
 *
 * Dates: YAML is read with its 1.2 core schema, which has no timestamps, so `date: 2026-12-01T09:00:00+02:00`
 * is the text as written (a YAML 1.1 reader would make it a Date, losing the offset, or read one without an
 * offset as UTC). A text field YAML reads as a number or boolean (`title: 1984`, `slug: 007`) is taken as
 * written in the file.
 *
 * Only YAML (`---`) and JSON (`---json`) front matter are read; a `---js` block is refused.
 */
export function parseMarkdownPost(text: string, options: ParseMarkdownOptions): MarkdownPost {
  const label = options.path === '-' ? '<stdin>' : options.path;
  const baseDir =
    options.path === '-' ? (options.cwd ?? process.cwd()) : dirname(resolve(options.cwd ?? '', options.path));
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

  const parsed = readFrontMatter(source, label);
  const lines = parsed.lines;
  const reader = new FieldReader(label, parsed.data, parsed.plainScalar, baseDir, lines);
  const fields: Partial<FrontMatterFields> = {};
  const problems: string[] = [];
  for (const name of FIELD_NAMES) {
    if (parsed.data[name] === undefined || parsed.data[name] === null) continue;
    try {
      (fields as Record<string, unknown>)[name] = reader.read(name);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length)
    throw new UsageError(problems.length === 1 ? problems[0]! : problems.join('; '), { inputs: problems });
  const ignoredKeys = Object.keys(parsed.data).filter((k) => !(FIELD_NAMES as readonly string[]).includes(k));

  // The file line of the body's first character.
  const bodyLine = lineCount(source.slice(0, source.length - parsed.content.length));
  // `body: html`: the HTML between the blank line after the front matter and the file's last line break.
  if (fields.body === 'html') {
    const tail = originalTail(text, parsed.content.length);
    let html = tail.replace(/^\n/, '').replace(/\n$/, '');
    if (options.images && options.rewriteHtml)
      html = options.rewriteHtml(html, bodyLine + (tail.startsWith('\n') ? 1 : 0), options.images);
    if (options.links)
      html = rewriteHtmlLinks(html, bodyLine + (tail.startsWith('\n') ? 1 : 0), options.links);
    return { fields, html, ignoredKeys, lines };
  }
  const tokens = marked.lexer(parsed.content);
  if (options.images) rewriteMarkdownImages(marked, tokens, bodyLine, options.images, options.rewriteHtml);
  if (options.links) rewriteMarkdownLinks(marked, tokens, bodyLine, options.links);
  if (fields.title === undefined) {
    const at = tokens.findIndex((t) => t.type === 'heading' && (t as Tokens.Heading).depth === 1);
    if (at >= 0) {
      const heading = (tokens[at] as Tokens.Heading).tokens;
      const title = (
        fields.title_html ? marked.Parser.parseInline(heading, marked.defaults) : plainText(heading)
      )
        .replace(/\s+/g, ' ')
        .trim();
      if (title) {
        fields.title = title;
        tokens.splice(at, 1);
      }
    }
  }
  // `links` carries reference-style link definitions; splice keeps the array (and it) intact.
  const html =
    (fields.editor ?? options.editor) === 'blocks'
      ? new BlockWriter(marked).blocks(tokens)
      : marked.parser(tokens);
  return { fields, html, ignoredKeys, lines };
}

/** 1 + the line breaks of `text`. */
const lineCount = (text: string): number => text.split('\n').length;

// One instance for every post of a batch: each lexer() and parser() call starts from fresh state.
const marked = wordpressMarked();

/**
 * The end of the file as written that reads as the last `length` characters once line breaks are made `\n`:
 * an HTML body keeps its `\r\n` (the classic editor stores them), which the Markdown reading drops.
 */
function originalTail(text: string, length: number): string {
  let at = text.length;
  for (let n = 0; n < length && at > 0; n++) at -= text[at - 1] === '\n' && text[at - 2] === '\r' ? 2 : 1;
  return text.slice(at);
}

/**
 * The text a reader sees of inline tokens, without markup: `Hello *world*` → `Hello world`, `&lt;b&gt;` →
 * `<b>` (an entity is the character it stands for; a code span is its literal text).
 */
function plainText(tokens: Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    if (token.type === 'html') continue;
    if (token.type === 'br') out += ' ';
    else if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length)
      out += plainText(token.tokens);
    else if (token.type === 'text' && !(token as Tokens.Text).escaped) out += decodeHTML(token.raw);
    else if ('text' in token && typeof token.text === 'string') out += token.text;
  }
  return out;
}
