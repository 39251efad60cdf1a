// The one HTML → Markdown converter: `wp pull` writes a post's body with it and `blog show --markdown` (and
// `blog create --save`) a generated blog's, so one HTML reads as one Markdown file whichever command wrote
// it, and `wp publish` reads it back to what a reader saw. turndown (with its DOM) loads only here.
import TurndownService from 'turndown';
import type { HtmlLimits } from './html-depth.js';
import { textSafe } from './markdown-text.js';

let converter: TurndownService | undefined;

/**
 * Content nested deeper than this many elements is not converted (lib/html-depth.ts finds it in one pass):
 * the converter works once per level on everything inside (time grows with depth × size), and a few
 * thousand levels exhaust the stack. Posts a person wrote nest a dozen or so (lists in groups in columns).
 */
const MAX_NESTING = 40;

/**
 * What Markdown cannot say without losing what a reader sees (tables, figures with captions, embeds, media,
 * layout wrappers): kept as HTML, which Markdown passes through.
 */
const KEPT: ReadonlySet<string> = new Set([
  'table',
  'figure',
  'iframe',
  'video',
  'audio',
  'embed',
  'object',
  'div',
  'details',
  'sup',
  'sub',
]);

/**
 * Content holding more elements than this is not converted either (lib/html-depth.ts counts them in the same
 * pass): turndown's DOM takes 10–20 µs per element whatever the element, so a 400 KB post of empty or
 * unclosed elements (`<p>` × 130,000) took 1–2 s. A long post a person wrote holds a few thousand; one over
 * the limit keeps its HTML (`body: html`), which publishes back as it is.
 */
export const MAX_ELEMENTS = 10_000;

/**
 * Nor is content with a longer stretch that shows nothing (lib/html-depth.ts measures it: white space,
 * character references, tags): turndown's last step trims its output with `/[\t\r\n\s]+$/`, which is tried
 * from each white space character to the end of its run, so its time grows with the square of the longest
 * run inside the output. 40,000 no-break spaces, or a `<pre>` of spaces, before a word took over a second.
 * Text a person wrote has runs of a few dozen (indented code, `&nbsp;` padding).
 */
export const MAX_BLANK_RUN = 512;

/** What htmlToMarkdown converts: content measuring more (lib/html-depth.ts measureHtml) keeps its HTML. */
export const CONVERT_LIMITS: HtmlLimits = {
  depth: MAX_NESTING,
  elements: MAX_ELEMENTS,
  blankRun: MAX_BLANK_RUN,
  kept: KEPT,
};

/**
 * HTML as Markdown: ATX headings, fenced code, `-` bullets (what marked reads back alike), except what
 * Markdown cannot say without losing what a reader sees (tables, figures with captions, embeds, media,
 * layout wrappers): those stay HTML, which Markdown passes through.
 */
export function htmlToMarkdown(html: string): string {
  // Text stays text: what a page shows as `<script>` is written `&lt;script>` (markdown-text.ts).
  converter ??= textSafe(
    new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
      emDelimiter: '*',
    }).keep([...KEPT]),
  );
  return converter.turndown(html).trim();
}
