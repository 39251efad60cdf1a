// The one HTML → Markdown converter: `wp pull` writes a post's body with it and `blog show --markdown` (and
// `blog create --save`) a generated blog's, so one HTML reads as one Markdown file whichever command wrote
// it, and `wp publish` reads it back to what a reader saw. turndown (with its DOM) loads only here.
import TurndownService from 'turndown';
import { textSafe } from './markdown-text.js';

let converter: TurndownService | undefined;

/**
 * Content nested deeper than this many elements is not converted (lib/html-depth.ts finds it in one pass):
 * the converter works once per level on everything inside (time grows with depth × size), and a few
 * thousand levels exhaust the stack. Posts a person wrote nest a dozen or so (lists in groups in columns).
 */
export const MAX_NESTING = 40;

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
    }).keep([
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
    ]),
  );
  return converter.turndown(html).trim();
}
