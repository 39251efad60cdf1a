// A WordPress post as a Markdown file that `wp publish` reads back (`wp pull`): front matter with the post's
// fields as publish reads them (title, slug, status, date in the site's time zone, excerpt, categories and
// tags by name, featured image, format, sticky, template, type, parent, menu_order, author, SEO fields, key), then the body: Markdown when it reads
// back as the same HTML, else the site's HTML (pull-body.ts).
//
// Block editor content: the comments that wrap a block's saved HTML (`<!-- wp:paragraph -->…<!-- /wp:paragraph -->`)
// only tell the editor where blocks start and end; the page shows the HTML between them, which the Markdown
// keeps. A block saved as a comment alone (`<!-- wp:latest-posts {"postsToShow":3} /-->`) is rendered by
// WordPress from that comment: it is kept as written, on a line of its own, which Markdown passes through as
// HTML. So publishing the file back changes nothing a reader sees.
import { CONVERT_LIMITS, htmlToMarkdown } from '../../lib/html-to-markdown.js';
import { measureHtml } from '../../lib/html-depth.js';
import { portableStem } from '../../lib/portable-name.js';
import { findComments, withoutRanges } from '../block-comments.js';
import type { WpPostDetail } from '../../wordpress/posts.js';
import { SEO_FIELDS, type SeoFields } from '../../wordpress/seo.js';
import { titleHtmlToText } from '../title-text.js';
import { pulledBody } from './pull-body.js';

/** What the file needs besides the post: names for its term ids, its image, its key. */
export interface PullContext {
  categories: Map<number, string>;
  tags: Map<number, string>;
  /** The featured image: a path relative to the file (downloaded, --media), else the media id and its URL. */
  image?: { file: string } | { id: number; url?: string };
  key: string;
  /** The SEO fields the site's SEO plugin stores for the post, written as `seo:`. */
  seo?: SeoFields;
  /**
   * Fields the project's defaults set (blogctl.yml `defaults`): written even at WordPress's own default
   * (`tags: []`, `sticky: false`), so the project's default does not stand in for the post's value.
   */
  stated?: ReadonlySet<string>;
}

/**
 * The body as Markdown: block delimiters dropped, blocks that are comments alone kept on their own lines;
 * undefined when it nests deeper, holds more elements or longer blank stretches than blogctl converts
 * (CONVERT_LIMITS, measured in one pass before converting): the post then keeps its HTML (`body: html`).
 */
export function contentToMarkdown(html: string): string | undefined {
  if (measureHtml(html, CONVERT_LIMITS) !== undefined) return undefined;
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of findComments(html, 'self-closing')) {
    parts.push(htmlPart(html.slice(at, start)));
    parts.push(html.slice(start, end));
    at = end;
  }
  parts.push(htmlPart(html.slice(at)));
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}

function htmlPart(html: string): string {
  const bare = withoutRanges(html, findComments(html, 'delimiter'));
  return bare.trim() ? htmlToMarkdown(bare) : '';
}

/** A YAML double-quoted scalar (JSON's string syntax is a subset of YAML's). */
const scalar = (value: string): string => JSON.stringify(value);

/**
 * The date as front matter: the site's local time as WordPress stores it, without an offset (publish reads a
 * date without one as the site's local time). A draft that was never given a date has none.
 */
function localDate(post: WpPostDetail): string | undefined {
  if (!post.date) return undefined;
  // WordPress answers a computed `date_gmt` for an undated draft, whose date follows each save: it is
  // told by a date equal to the last change (or none at all).
  const modified = (post as { modified?: unknown }).modified;
  if (
    (post.status === 'draft' || post.status === 'pending') &&
    (!post.date_gmt || (typeof modified === 'string' && modified === post.date))
  )
    return undefined;
  return post.date;
}

const names = (ids: number[] | undefined, known: Map<number, string>): string[] =>
  (ids ?? []).map((id) => known.get(id) ?? String(id));

/** The Markdown file of a post. */
export function postToMarkdown(post: WpPostDetail, ctx: PullContext): string {
  const front: string[] = [];
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (typeof value === 'string') front.push(`${name}: ${scalar(value)}`);
    else front.push(`${name}: ${JSON.stringify(value)}`);
  };
  // The title as text when it reads back as the same HTML, else as HTML said to be one (title-text.ts).
  const title = post.title?.raw ?? '';
  const titleText = titleHtmlToText(title);
  add('title', titleText ?? title);
  if (titleText === undefined) add('title_html', true);
  if (post.slug) add('slug', post.slug);
  add('status', post.status);
  add('date', localDate(post));
  const excerpt = post.excerpt?.raw ?? '';
  if (excerpt.trim()) add('excerpt', excerpt);
  const categories = names(post.categories, ctx.categories);
  if (categories.length) add('categories', categories);
  const tags = names(post.tags, ctx.tags);
  if (tags.length) add('tags', tags);
  const stated = ctx.stated ?? new Set<string>();
  if (!tags.length && stated.has('tags')) add('tags', []);
  if (!categories.length && stated.has('categories')) add('categories', []);
  if (ctx.image && 'file' in ctx.image) add('featured_image', ctx.image.file);
  else if (ctx.image) {
    // The image's address as a comment: YAML reads only the id, which publish sends back unchanged.
    const url = ctx.image.url?.replace(/[\r\n]/g, '');
    front.push(`featured_media: ${ctx.image.id}${url ? ` # ${url}` : ''}`);
  }
  if (post.format && (post.format !== 'standard' || stated.has('format'))) add('format', post.format);
  if (post.sticky || stated.has('sticky')) add('sticky', Boolean(post.sticky));
  if (post.template || stated.has('template')) add('template', post.template ?? '');
  // A page or a custom type's post says so; its parent by id (the page it hangs under on the site).
  if (post.type && post.type !== 'post') add('type', post.type);
  if (post.parent) add('parent', post.parent);
  if (post.menu_order) add('menu_order', post.menu_order);
  for (const field of ['comment_status', 'ping_status'] as const)
    if (stated.has(field) && post[field]) add(field, post[field]);
  if (post.author) add('author', post.author);
  const seo = SEO_FIELDS.flatMap((f) => (ctx.seo?.[f] === undefined ? [] : [[f, ctx.seo[f]] as const]));
  if (seo.length) {
    front.push('seo:');
    for (const [field, value] of seo)
      front.push(`  ${field}: ${typeof value === 'string' ? scalar(value) : JSON.stringify(value)}`);
  }
  // Markdown when it publishes back as the same HTML, else the site's HTML as it is (pull-body.ts).
  const raw = post.content?.raw ?? '';
  const body = pulledBody(raw, contentToMarkdown(raw));
  if (body.field) add(body.field.name, body.field.value);
  // A project whose default is `editor: blocks` would read a classic Markdown body as blocks.
  else if (body.text && stated.has('editor')) add('editor', 'classic');
  add('key', ctx.key);
  return `---\n${front.join('\n')}\n---\n\n${body.text}${body.text ? '\n' : ''}`;
}

/**
 * A file name for a post: its slug, else `post-<id>`, as a portable name (lib/portable-name.ts): only
 * letters, digits, `_` and `-`, never a device name, the same from pull to pull.
 */
export function fileNameFor(post: Pick<WpPostDetail, 'id' | 'slug'>): string {
  const slug = (post.slug ?? '').replace(/%[0-9a-f]{2}/gi, '-');
  return `${portableStem(slug, `post-${post.id}`)}.md`;
}
