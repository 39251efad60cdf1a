// A WordPress post as a Markdown file that `wp publish` reads back (`wp pull`): front matter with the post's
// fields as publish reads them (title, slug, status, date in the site's time zone, excerpt, categories and
// tags by name, featured image, format, sticky, template, author, key), then the body converted to Markdown.
//
// Block editor content: the comments that wrap a block's saved HTML (`<!-- wp:paragraph -->…<!-- /wp:paragraph -->`)
// only tell the editor where blocks start and end; the page shows the HTML between them, which the Markdown
// keeps. A block saved as a comment alone (`<!-- wp:latest-posts {"postsToShow":3} /-->`) is rendered by
// WordPress from that comment: it is kept as written, on a line of its own, which Markdown passes through as
// HTML. So publishing the file back changes nothing a reader sees.
import { htmlToMarkdown } from '../../lib/html-to-markdown.js';
import type { WpPostDetail } from '../../wordpress/posts.js';

/** What the file needs besides the post: names for its term ids, its image, its key. */
export interface PullContext {
  categories: Map<number, string>;
  tags: Map<number, string>;
  /** The featured image: a path relative to the file (downloaded, --media), else the media id and its URL. */
  image?: { file: string } | { id: number; url?: string };
  key: string;
  /**
   * Fields the project's defaults set (blogctl.yml `defaults`): written even at WordPress's own default
   * (`tags: []`, `sticky: false`), so the project's default does not stand in for the post's value.
   */
  stated?: ReadonlySet<string>;
}

/**
 * A block that is a comment alone (WordPress renders it on the server from its name and attributes), and the
 * classic `<!--more-->`, `<!--nextpage-->`, `<!--noteaser-->`, which WordPress reads from the content.
 */
const SELF_CLOSING_BLOCK =
  /<!--\s+wp:[a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?\s(?:(?:(?!-->)[\s\S])*?\s)?\/-->|<!--(?:more(?:[ \t][^\n>]*?)?|nextpage|noteaser)-->/g;
/** The comments around a block's saved HTML: opening (with attributes) and closing. */
const BLOCK_DELIMITER =
  /<!--\s+\/?wp:[a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?\s(?:(?:(?!-->)[\s\S])*?\s)?-->/g;

/** The body as Markdown: block delimiters dropped, blocks that are comments alone kept on their own lines. */
export function contentToMarkdown(html: string): string {
  const parts: string[] = [];
  let at = 0;
  for (const m of html.matchAll(SELF_CLOSING_BLOCK)) {
    parts.push(htmlPart(html.slice(at, m.index)));
    parts.push(m[0]);
    at = m.index + m[0].length;
  }
  parts.push(htmlPart(html.slice(at)));
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}

function htmlPart(html: string): string {
  const bare = html.replace(BLOCK_DELIMITER, '');
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
  add('title', post.title?.raw ?? '');
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
  add('key', ctx.key);
  const body = contentToMarkdown(post.content?.raw ?? '');
  return `---\n${front.join('\n')}\n---\n\n${body}${body ? '\n' : ''}`;
}

/** A file name for a post: its slug, else `post-<id>`; only characters safe on every file system. */
export function fileNameFor(post: Pick<WpPostDetail, 'id' | 'slug'>): string {
  const slug = (post.slug ?? '')
    .normalize('NFC')
    .replace(/%[0-9a-f]{2}/gi, '-')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return `${slug || `post-${post.id}`}.md`;
}
