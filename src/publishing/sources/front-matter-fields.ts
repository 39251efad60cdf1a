// The fields front matter may set, and each one's value checked for type as WordPress takes it; a problem
// names the file and the field's line (`posts/a.md:3: status: …`).
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import {
  openClosed,
  postFormats,
  postStatuses,
  type PostFormat,
  type PostStatus,
} from '../../schemas/wordpress.js';
import type { TermRef } from '../../wordpress/terms.js';
import { checkSeo, SEO_FIELDS, type SeoFields } from '../../wordpress/seo.js';
import { frontMatterName } from './front-matter-lines.js';

/** What front matter may set. Names are WordPress's, except `featured_image` (a file to upload). */
export interface FrontMatterFields {
  /** Text, escaped when sent (title-text.ts); HTML as written with `title_html: true`. */
  title: string;
  /** The title (front matter's, or the `# heading`'s inline Markdown) is HTML, sent as it is. */
  title_html: boolean;
  /** The body as serialized core blocks (`blocks`, markdown-blocks.ts) or classic HTML (`classic`, the default). */
  editor: (typeof EDITORS)[number];
  /** `html`: the body is the post's HTML, sent exactly as written (no Markdown); `markdown` is the default. */
  body: (typeof BODIES)[number];
  slug: string;
  status: PostStatus;
  /** As written (see parseMarkdownPost); schedule.ts interprets it. */
  date: string;
  excerpt: string;
  /** Names, slugs or ids, unresolved. */
  categories: TermRef[];
  tags: TermRef[];
  /** Absolute path: relative paths are taken from the Markdown file's directory. */
  featured_image: string;
  format: PostFormat;
  sticky: boolean;
  template: string;
  meta: Record<string, unknown>;
  comment_status: (typeof openClosed)[number];
  ping_status: (typeof openClosed)[number];
  author: number;
  /** UTC, as written (schedule.ts interprets it). */
  date_gmt: string;
  /** The post's password (WordPress's `password`). */
  password: string;
  /** A media id already in the site's library (instead of `featured_image`). */
  featured_media: number;
  /** The post's identity on the site, when the file's path should not be it (identity.ts). */
  key: string;
  /** The generated blog this file was written from (`blog show --markdown`): its identity is the blog's. */
  blog_id: string;
  /** SEO title, meta description, focus keyword, canonical URL, noindex: sent to the site's SEO plugin. */
  seo: SeoFields;
  /** The post type's slug (`page`, a custom type's `recipe`); default `post` (post-kinds.ts). */
  type: string;
  /** A post id, another source's key, or its file (post-kinds.ts parentRef); hierarchical types only. */
  parent: string | number;
  /** The page's order among its siblings; hierarchical types only. */
  menu_order: number;
  /** Terms of a custom taxonomy by its REST base (`cuisines: [Italian]`): names, slugs or ids, unresolved. */
  terms: Record<string, TermRef[]>;
}

/** What the body is sent as: classic editor HTML, or block editor blocks. */
const EDITORS = ['classic', 'blocks'] as const;
/** What the body is written in. */
const BODIES = ['markdown', 'html'] as const;

export const FIELD_NAMES = [
  'title',
  'title_html',
  'editor',
  'body',
  'slug',
  'status',
  'date',
  'excerpt',
  'categories',
  'tags',
  'featured_image',
  'format',
  'sticky',
  'template',
  'meta',
  'comment_status',
  'ping_status',
  'author',
  'date_gmt',
  'password',
  'featured_media',
  'key',
  'blog_id',
  'seo',
  'type',
  'parent',
  'menu_order',
  'terms',
] as const satisfies readonly (keyof FrontMatterFields)[];

export class FieldReader {
  constructor(
    private readonly label: string,
    private readonly data: Record<string, unknown>,
    /** The source text of a top-level plain scalar (`007` of `slug: 007`), when the key has one. */
    private readonly plainScalar: (key: string) => string | undefined,
    private readonly baseDir: string,
    private readonly lines: Record<string, number>,
  ) {}

  read(name: (typeof FIELD_NAMES)[number]): unknown {
    switch (name) {
      case 'title':
      case 'slug':
      case 'excerpt':
      case 'template':
      case 'password':
        return this.text(name);
      case 'date':
      case 'date_gmt':
        return this.text(name, { nonEmpty: true });
      case 'key':
      case 'blog_id':
        return this.identity(name);
      case 'featured_media':
        return this.id(name, 'a media id');
      case 'status':
        return this.oneOf(name, postStatuses);
      case 'format':
        return this.oneOf(name, postFormats);
      case 'editor':
        return this.oneOf(name, EDITORS);
      case 'body':
        return this.oneOf(name, BODIES);
      case 'comment_status':
      case 'ping_status':
        return this.oneOf(name, openClosed);
      case 'categories':
      case 'tags':
        return this.termList(name);
      case 'featured_image':
        return this.filePath(name);
      case 'sticky':
      case 'title_html':
        return this.boolean(name);
      case 'meta':
        return this.meta(name);
      case 'author':
        return this.id(name);
      case 'seo':
        return this.seo(name);
      case 'type':
        return this.postType(name);
      case 'parent':
        return this.parent(name);
      case 'menu_order':
        return this.integer(name);
      case 'terms':
        return this.taxonomyTerms(name);
    }
  }

  /** `seo:` as a mapping of the five fields, each checked and named at its own line (`a.md:5: seo.title`). */
  private seo(name: string): SeoFields {
    const value = this.data[name];
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(name, `expected a mapping of ${SEO_FIELDS.join(', ')}, got ${describe(value)}`);
    return checkSeo(value as Record<string, unknown>, (field, problem) =>
      this.fail(`${name}.${field}`, problem),
    );
  }

  private fail(name: string, problem: string): never {
    throw new UsageError(`${frontMatterName(this.label, name, this.lines[name])}: ${problem}`);
  }

  private text(name: string, { nonEmpty = false } = {}): string {
    const value = this.data[name];
    let text: string;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'number' || typeof value === 'boolean')
      // As written: `slug: 007` is the slug "007", not 7.
      text = this.plainScalar(name) ?? String(value);
    else this.fail(name, `expected text, got ${describe(value)}`);
    if (nonEmpty && !text.trim()) this.fail(name, 'must not be empty');
    return name === 'date' || name === 'date_gmt' ? text.trim() : text;
  }

  private identity(name: string): string {
    const text = this.text(name).trim();
    if (!text || text.length > 500 || /[\r\n]/.test(text))
      this.fail(name, 'expected a non-empty text on one line (at most 500 characters)');
    return text;
  }

  private oneOf<T extends string>(name: string, allowed: readonly T[]): T {
    const value = this.data[name];
    const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    if (text === undefined || !(allowed as readonly string[]).includes(text)) {
      this.fail(
        name,
        `must be one of ${allowed.join(', ')}${value === undefined ? '' : ` (got ${show(value)})`}`,
      );
    }
    return text as T;
  }

  private termList(name: string): TermRef[] {
    const value = this.data[name];
    const items: unknown[] =
      typeof value === 'string'
        ? value.split(',')
        : Array.isArray(value)
          ? value
          : typeof value === 'number'
            ? [value]
            : [];
    if (!Array.isArray(value) && typeof value !== 'string' && typeof value !== 'number') {
      this.fail(name, `expected a list or a comma-separated string, got ${describe(value)}`);
    }
    const refs: TermRef[] = [];
    for (const item of items) {
      if (typeof item === 'number' && Number.isSafeInteger(item) && item > 0) refs.push(item);
      else if (typeof item === 'string') {
        if (item.trim()) refs.push(item.trim());
      } else this.fail(name, `each item must be a name, slug or id, got ${describe(item)}`);
    }
    return refs;
  }

  private filePath(name: string): string {
    const value = this.data[name];
    if (typeof value !== 'string' || !value.trim()) this.fail(name, 'expected the path of an image file');
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) {
      this.fail(name, 'expected a file path (URLs are not downloaded: save the image next to the post)');
    }
    const p = value.trim();
    return isAbsolute(p) ? p : resolve(this.baseDir, p);
  }

  private boolean(name: string): boolean {
    const value = this.data[name];
    if (typeof value !== 'boolean') this.fail(name, `expected true or false, got ${show(value)}`);
    return value;
  }

  private meta(name: string): Record<string, unknown> {
    const value = this.data[name];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail(name, `expected a mapping of meta keys to values, got ${describe(value)}`);
    }
    // A copy of plain JSON values (YAML front matter holds nothing else: its reader makes no dates or tags).
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  }

  private postType(name: string): string {
    const value = this.data[name];
    const text = typeof value === 'string' ? value.trim() : undefined;
    if (text === undefined || !/^[a-z0-9_-]{1,20}$/.test(text))
      this.fail(
        name,
        `expected a post type's name (page, or a custom type's: lower-case letters, digits, _ and -), got ${show(value)}`,
      );
    return text;
  }

  private parent(name: string): string | number {
    const value = this.data[name];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
    if (typeof value === 'string' && value.trim() && value.length <= 500 && !/[\r\n]/.test(value))
      return value.trim();
    this.fail(name, `expected a post id, another source's key or the path of its file, got ${show(value)}`);
  }

  private taxonomyTerms(name: string): Record<string, TermRef[]> {
    const value = this.data[name];
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date)
      this.fail(name, `expected a mapping of taxonomies (by REST base) to terms, got ${describe(value)}`);
    const out: Record<string, TermRef[]> = {};
    for (const [base, items] of Object.entries(value as Record<string, unknown>)) {
      if (!/^[a-z0-9_-]{1,40}$/.test(base)) this.fail(name, `"${base}" is no taxonomy's REST base`);
      const list = typeof items === 'string' ? items.split(',') : Array.isArray(items) ? items : [items];
      out[base] = list.flatMap((item): TermRef[] => {
        if (typeof item === 'number' && Number.isSafeInteger(item) && item > 0) return [item];
        if (typeof item === 'string') return item.trim() ? [item.trim()] : [];
        this.fail(name, `${base}: each item must be a name, slug or id, got ${describe(item)}`);
      });
    }
    return out;
  }

  private integer(name: string): number {
    const value = this.data[name];
    const n =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && /^\s*-?\d{1,9}\s*$/.test(value)
          ? Number(value)
          : NaN;
    if (!Number.isSafeInteger(n) || Math.abs(n) > 2_147_483_647)
      this.fail(name, `expected a whole number, got ${show(value)}`);
    return n;
  }

  private id(name: string, what = 'a user id'): number {
    const value = this.data[name];
    const n =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)
          ? Number(value)
          : NaN;
    if (!Number.isSafeInteger(n) || n <= 0)
      this.fail(name, `expected ${what} (a whole number), got ${show(value)}`);
    return n;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${show(value)}`;
}

function show(value: unknown): string {
  // String() of a mapping calls its toString, which front matter can set (`status: {toString: ""}`).
  if (typeof value === 'object' && value !== null) return describe(value);
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
