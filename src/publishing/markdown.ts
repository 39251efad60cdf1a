// Markdown posts: YAML front matter (gray-matter) fills post fields, the body becomes HTML (marked, GitHub
// flavour). Pure: no IO — the caller reads the file and uploads `featured_image`.
import { dirname, isAbsolute, resolve } from 'node:path';
import matter from 'gray-matter';
import { Marked, type Token, type Tokens } from 'marked';
import { UsageError } from '../errors.js';
import { parseJsonText } from '../lib/json-text.js';
import {
  openClosed,
  postFormats,
  postStatuses,
  type PostFormat,
  type PostStatus,
} from '../schemas/wordpress.js';
import type { TermRef } from '../wordpress/terms.js';
import { frontMatterLines, frontMatterName } from './front-matter-lines.js';

/** What front matter may set. Names are WordPress's, except `featured_image` (a file to upload). */
export interface FrontMatterFields {
  title: string;
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
}

/** Front matter fields that name the post's source rather than set a post field. */
export const IDENTITY_FIELDS = ['key', 'blog_id'] as const;

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
}

const FIELD_NAMES = [
  'title',
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
] as const satisfies readonly (keyof FrontMatterFields)[];

export { isMarkdownPath } from './markdown-path.js';

/**
 * Parses a Markdown post. Front matter values are checked for type: every bad field is reported, each naming
 * the file and the field's line (`posts/a.md:3: status: …`), in one UsageError whose `inputs` lists them;
 * a missing `title` is taken from the first top-level `# heading`, which is then removed from the body.
 *
 * Dates: gray-matter's YAML parser turns an unquoted `2026-12-01T09:00:00+02:00` into a JavaScript Date,
 * losing the offset, and treats one without an offset as UTC — both would shift the time. So for `date` (and
 * any text field YAML read as a number, boolean or date, like `title: 1984` or `slug: 007`) the scalar is
 * taken as written from the front matter text; only if that fails is a Date turned back into an ISO string
 * with `Z` (the instant YAML parsed).
 *
 * Only YAML (`---`) and JSON (`---json`) front matter are read: gray-matter would `eval` a `---js` block.
 */
export function parseMarkdownPost(text: string, options: ParseMarkdownOptions): MarkdownPost {
  const label = options.path === '-' ? '<stdin>' : options.path;
  const baseDir =
    options.path === '-' ? (options.cwd ?? process.cwd()) : dirname(resolve(options.cwd ?? '', options.path));
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

  let parsed: { data: Record<string, unknown>; content: string; matter: string; language: string };
  try {
    // Passing options also keeps gray-matter from caching every document in a module-level map. The block
    // gray-matter hands the JSON engine starts with the rest of the `---json` line, so its lines are the file's.
    const file = matter(source, {
      engines: {
        js: refuseScript,
        javascript: refuseScript,
        json: (block: string) => parseJsonText(block, `${label}: the JSON front matter`) as object,
      },
    });
    parsed = {
      data: file.data,
      content: file.content,
      matter: file.matter ?? '',
      language: (file as { language?: string }).language ?? 'yaml',
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${label}: front matter could not be read: ${frontMatterProblem(error)}`);
  }
  if (typeof parsed.data !== 'object' || parsed.data === null || Array.isArray(parsed.data)) {
    throw new UsageError(`${label}: front matter must be a mapping of keys to values`);
  }

  const placed = frontMatterLines(parsed.matter, parsed.language);
  const lines: Record<string, number> = {};
  for (const key of Object.keys(parsed.data)) {
    const line = placed.get(key);
    if (line !== undefined) lines[key] = line;
  }
  const reader = new FieldReader(label, parsed.data, parsed.matter, baseDir, lines);
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

  const tokens = marked.lexer(parsed.content);
  if (fields.title === undefined) {
    const at = tokens.findIndex((t) => t.type === 'heading' && (t as Tokens.Heading).depth === 1);
    if (at >= 0) {
      const title = plainText((tokens[at] as Tokens.Heading).tokens)
        .replace(/\s+/g, ' ')
        .trim();
      if (title) {
        fields.title = title;
        tokens.splice(at, 1);
      }
    }
  }
  // `links` carries reference-style link definitions; splice keeps the array (and it) intact.
  const html = marked.parser(tokens);
  return { fields, html, ignoredKeys, lines };
}

// One instance for every post of a batch: each lexer() and parser() call starts from fresh state.
const marked = new Marked({ gfm: true });

/**
 * js-yaml's message ends with a snippet of the text, and some of its reasons quote it (`unknown tag !<…>`,
 * `unidentified alias "…"`): front matter may hold a secret, so only a reason that quotes nothing is kept.
 */
function frontMatterProblem(error: unknown): string {
  const yaml = error as { name?: unknown; reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (yaml?.name === 'YAMLException' && typeof yaml.mark?.line === 'number') {
    const reason =
      typeof yaml.reason === 'string' && /^[a-z][a-z ,()-]*$/i.test(yaml.reason)
        ? yaml.reason
        : 'a YAML syntax error';
    return `${reason} at line ${yaml.mark.line + 1}, column ${Number(yaml.mark.column) + 1}`;
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unreadable';
}

function refuseScript(): never {
  throw new Error('JavaScript front matter is not supported (use YAML)');
}

/** The text of inline tokens, without markup: `Hello *world*` → `Hello world`. */
function plainText(tokens: Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    if (token.type === 'html') continue;
    if (token.type === 'br') out += ' ';
    else if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length)
      out += plainText(token.tokens);
    else if ('text' in token && typeof token.text === 'string') out += token.text;
  }
  return out;
}

class FieldReader {
  constructor(
    private readonly label: string,
    private readonly data: Record<string, unknown>,
    private readonly rawMatter: string,
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
      case 'comment_status':
      case 'ping_status':
        return this.oneOf(name, openClosed);
      case 'categories':
      case 'tags':
        return this.termList(name);
      case 'featured_image':
        return this.filePath(name);
      case 'sticky':
        return this.boolean(name);
      case 'meta':
        return this.meta(name);
      case 'author':
        return this.id(name);
    }
  }

  private fail(name: string, problem: string): never {
    throw new UsageError(`${frontMatterName(this.label, name, this.lines[name])}: ${problem}`);
  }

  private text(name: string, { nonEmpty = false } = {}): string {
    const value = this.data[name];
    let text: string;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) {
      text = rawScalar(this.rawMatter, name) ?? (value instanceof Date ? dateToText(value) : String(value));
    } else this.fail(name, `expected text, got ${describe(value)}`);
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
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
      this.fail(name, `expected a mapping of meta keys to values, got ${describe(value)}`);
    }
    // JSON-ready: a YAML date inside meta travels as its ISO string.
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
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

/**
 * The scalar after `name:` on a top-level line of the front matter, unquoted and without a trailing comment;
 * undefined when the key is not written on one line that way (then the parsed value is used).
 */
function rawScalar(rawMatter: string, name: string): string | undefined {
  const key = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`^(?:${key}|"${key}"|'${key}')[ \\t]*:[ \\t]*(.*)$`, 'm').exec(rawMatter);
  if (!line) return undefined;
  let value = line[1]!.replace(/[ \t]+#.*$/, '').trim();
  const quoted = /^(["'])(.*)\1$/.exec(value);
  if (quoted) value = quoted[2]!;
  return value || undefined;
}

function dateToText(date: Date): string {
  return Number.isNaN(date.getTime()) ? String(date) : date.toISOString().replace('.000Z', 'Z');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${show(value)}`;
}

function show(value: unknown): string {
  // String() of a mapping calls its toString, which front matter can set (`status: {toString: ""}`).
  if (value instanceof Date) return dateToText(value);
  if (typeof value === 'object' && value !== null) return describe(value);
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
