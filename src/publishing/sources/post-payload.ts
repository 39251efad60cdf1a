// Flags, payload files and generated blogs → one validated PostContent (spec 2.3), and the publish answer →
// the summary the CLI prints. Pure functions: no IO; Markdown front matter and batch publishing add one more
// layer each (publish-draft.ts) instead of another code path.
import { UsageError } from '../../errors.js';
import { parseMetaPair } from '../../lib/meta-value.js';
import { check } from '../../schemas/validate.js';
import { postContent, postContentFields, type PostContent } from '../../schemas/wordpress.js';
import type { PublishResult } from '../../schemas/wordpress-publish.js';

/** The `wp publish` flags that become content fields, as commander hands them over (strings, arrays, booleans). */
export interface PostFlags {
  title?: string;
  /** The HTML, from --content or the text of --content-file. */
  content?: string;
  status?: string;
  date?: string;
  dateGmt?: string;
  slug?: string;
  excerpt?: string;
  author?: string;
  featuredMedia?: string;
  commentStatus?: string;
  pingStatus?: string;
  format?: string;
  meta?: string[];
  sticky?: boolean;
  template?: string;
  category?: string[];
  tag?: string[];
  postPassword?: string;
}

/**
 * One source of content fields. `names` maps a field to how the person set it (a flag, or a path in a file),
 * so a validation error names what to fix rather than the wire name.
 */
export interface ContentLayer {
  values: Record<string, unknown>;
  names: Partial<Record<string, string>>;
}

/** The flag that sets each content field; also the name used in errors. */
export const FIELD_FLAGS: Record<keyof PostContent, string> = {
  title: '--title',
  content: '--content',
  status: '--status',
  date: '--date',
  date_gmt: '--date-gmt',
  slug: '--slug',
  password: '--post-password',
  author: '--author',
  excerpt: '--excerpt',
  featured_media: '--featured-media',
  comment_status: '--comment-status',
  ping_status: '--ping-status',
  format: '--format',
  meta: '--meta',
  sticky: '--sticky',
  template: '--template',
  categories: '--category',
  tags: '--tag',
};

/** A WordPress object id (author, media, term): a whole number ≥ 0. */
export function parseId(value: string, flag: string): number {
  const v = value.trim();
  if (!/^\d{1,15}$/.test(v)) throw new UsageError(`${flag}: expected a numeric id, got "${value}"`);
  return Number(v);
}

/** Repeatable and comma-separated: `--tag 1 --tag 2,3` → ["1", "2", "3"]. */
export function splitList(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Numeric term ids only (a `-f` payload's shape); names and slugs go through parseTermRefs. */
export function parseTermIds(values: string[] | undefined, flag: string): number[] | undefined {
  if (values === undefined) return undefined;
  const items = splitList(values);
  if (!items.length) throw new UsageError(`${flag}: give a numeric id`);
  return items.map((v) => parseId(v, flag));
}

/**
 * `--category News --category 3,tips` → ["News", 3, "tips"]: digits are ids, anything else a name or slug that
 * resolveTermIds looks up on the site. A name holding a comma cannot be given this way: use its slug or id.
 */
export function parseTermRefs(values: string[] | undefined, flag: string): (string | number)[] | undefined {
  if (values === undefined) return undefined;
  const items = splitList(values);
  if (!items.length) throw new UsageError(`${flag}: give a name, slug or id`);
  return items.map((v) => (/^\d+$/.test(v) ? parseId(v, flag) : v));
}

/**
 * The flags as a layer. Malformed numbers and key=value pairs fail here, naming the flag; `flagNames` renames
 * a field's flag where a command spells it differently (blog create's --wp-category and --post-meta).
 */
export function contentFromFlags(
  flags: PostFlags,
  contentName = '--content',
  flagNames: Partial<Record<keyof PostContent, string>> = {},
): ContentLayer {
  const names: Record<string, string> = { ...FIELD_FLAGS, content: contentName, ...flagNames };
  const values: Record<string, unknown> = {};
  const set = (field: keyof PostContent, value: unknown): void => {
    if (value !== undefined) values[field] = value;
  };
  set('title', flags.title);
  set('content', flags.content);
  set('status', flags.status);
  set('date', flags.date);
  set('date_gmt', flags.dateGmt);
  set('slug', flags.slug);
  set('excerpt', flags.excerpt);
  set('author', flags.author === undefined ? undefined : parseId(flags.author, '--author'));
  set(
    'featured_media',
    flags.featuredMedia === undefined ? undefined : parseId(flags.featuredMedia, '--featured-media'),
  );
  set('comment_status', flags.commentStatus);
  set('ping_status', flags.pingStatus);
  set('format', flags.format);
  if (flags.meta?.length)
    set('meta', Object.fromEntries(flags.meta.map((m) => parseMetaPair(m, names['meta']!, UsageError))));
  set('sticky', flags.sticky);
  set('template', flags.template);
  set('categories', parseTermRefs(flags.category, names['categories']!));
  set('tags', parseTermRefs(flags.tag, '--tag'));
  set('password', flags.postPassword);
  return { values, names };
}

/** A layer from a file's content object; errors name `file: content.field`. */
export function contentFromObject(values: Record<string, unknown>, source: string): ContentLayer {
  const names: Record<string, string> = {};
  for (const key of Object.keys(values)) names[key] = `${source}: content.${key}`;
  return { values, names };
}

export interface PublishFile {
  credentials?: Record<string, unknown>;
  content?: Record<string, unknown>;
}

/**
 * `-f payload.json`: `{content}` or `{credentials, content}` as documented. A bare content object (with `title`
 * and an HTML `content` string) is accepted too, since that is what a person copies out of WordPress.
 */
export function parsePublishFile(raw: unknown, source: string): PublishFile {
  if (!isRecord(raw))
    throw new UsageError(`${source}: expected a JSON object with "content" (and optionally "credentials")`);
  const wrapped = 'credentials' in raw || isRecord(raw['content']);
  if (!wrapped) return { content: raw };
  const extra = Object.keys(raw).filter((k) => k !== 'credentials' && k !== 'content');
  if (extra.length)
    throw new UsageError(
      `${source}: unknown field${extra.length > 1 ? 's' : ''} ${extra.join(', ')} (expected content and credentials)`,
    );
  const out: PublishFile = {};
  if (raw['credentials'] !== undefined) {
    if (!isRecord(raw['credentials'])) throw new UsageError(`${source}: credentials must be an object`);
    out.credentials = raw['credentials'];
  }
  if (raw['content'] !== undefined) {
    if (!isRecord(raw['content'])) throw new UsageError(`${source}: content must be an object`);
    out.content = raw['content'];
  }
  return out;
}

/**
 * Merges the layers (later ones win; `meta` and `seo` merge key by key), applies the defaults and validates against
 * the schema. Errors name the flag or file field that supplied the bad value.
 */
export function buildPostContent(
  layers: ContentLayer[],
  defaults: Partial<PostContent> = { status: 'draft' },
): PostContent {
  const { merged, origin } = mergeLayers(layers, defaults);
  return validateMerged(merged, origin);
}

/** The merged values (later layers win; `meta` and `seo` merge key by key) and, per field, the name of its source. */
export function mergeLayers(
  layers: ContentLayer[],
  defaults: Partial<PostContent> = { status: 'draft' },
): { merged: Record<string, unknown>; origin: Record<string, string> } {
  const merged: Record<string, unknown> = { ...defaults };
  const origin: Record<string, string> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.values)) {
      if (value === undefined) continue;
      merged[key] =
        (key === 'meta' || key === 'seo') && isRecord(merged[key]) && isRecord(value)
          ? { ...merged[key], ...value }
          : value;
      origin[key] = layer.names[key] ?? `content.${key}`;
    }
  }
  return { merged, origin };
}

/** Validates merged values against the schema; errors name the flag or file field that supplied each value. */
export function validateMerged(merged: Record<string, unknown>, origin: Record<string, string>): PostContent {
  const unknown = Object.keys(merged).filter((k) => !(postContentFields as string[]).includes(k));
  if (unknown.length) {
    throw new UsageError(
      `invalid post: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => origin[k] ?? k).join(', ')} (known: ${postContentFields.join(', ')})`,
    );
  }
  // Spec 2.3 requires both. WordPress refuses a post whose title, content and excerpt are all empty, and takes
  // one with an empty title or body, which is never what was meant. Whitespace only counts as empty (it shows
  // as nothing); markup such as `<p></p>` is left alone: what it shows is the person's business.
  const empty = (['title', 'content'] as const)
    .filter((field) => typeof merged[field] === 'string' && !(merged[field] as string).trim())
    .map(
      (field) =>
        `${origin[field] ?? FIELD_FLAGS[field]}: the ${field === 'title' ? 'title' : 'post body'} is empty`,
    );
  const result = check(postContent, merged);
  if (result.ok && !empty.length) return result.value;
  const messages = (result.ok ? [] : result.issues).map((issue) => {
    const field = issue.path.split(/[.[]/)[0]!;
    if (issue.path === '(body)') return `content: ${issue.message}`;
    const name = origin[field] ?? FIELD_FLAGS[field as keyof PostContent] ?? `content.${field}`;
    const detail = issue.path === field ? '' : ` (${issue.path})`;
    if (issue.message === 'is required') return `${name} is required`;
    return `${name}${detail}: ${issue.message}`;
  });
  const problems = [...empty, ...messages];
  // Each problem on its own as well: a batch reports them one a line, each naming its file and line.
  throw new UsageError(`invalid post: ${problems.join('; ')}`, { inputs: problems });
}

/** What `wp publish` prints, the same whichever response shape the service used. */
export interface PublishSummary {
  published: boolean;
  id: string | null;
  link: string | null;
  status: string | null;
  type: string | null;
}

export function publishSummary(result: PublishResult): PublishSummary {
  return {
    published: result.published,
    id: result.id ?? null,
    link: result.link ?? null,
    status: result.status ?? null,
    type: result.type ?? null,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
