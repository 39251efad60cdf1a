// Client-side --search, --sort and --limit for `blog list` (the service shows no filtering or paging), and
// the small number parsers the blog verbs share.
import type { ArrayCollector } from '../http/json-array.js';
import type { Blog } from '../schemas/blog.js';
import { BlogParamsError } from './params-error.js';
import { positiveInt } from '../lib/positive-int.js';

export interface ListQuery {
  search?: string;
  sort?: SortSpec;
  limit?: number;
}

export interface SortSpec {
  field: string;
  descending: boolean;
}

/** `createdAt` ascending, `-createdAt` descending; `id` is the blog's `_id`. */
export function parseSort(raw: string): SortSpec {
  const descending = raw.startsWith('-');
  const name = (descending || raw.startsWith('+') ? raw.slice(1) : raw).trim();
  if (!/^[A-Za-z_$][\w$.-]*$/.test(name)) {
    throw new BlogParamsError(`--sort: "${raw}" is not a field name (e.g. --sort title, --sort -createdAt)`);
  }
  return { field: name === 'id' ? '_id' : name, descending };
}

export function parsePositiveInt(flag: string, raw: string, max = Number.MAX_SAFE_INTEGER): number {
  return positiveInt(flag, raw, max, BlogParamsError);
}

export interface QueryResult<R> {
  /** What `project` made of each blog kept, in the order to show. */
  rows: R[];
  /** How many blogs the service returned, before --search. */
  total: number;
  /** How many matched --search (all of them without it), before --limit. */
  matched: number;
  /** With --sort: whether any blog kept has the field (undefined without --sort). */
  sortFieldSeen?: boolean;
}

/**
 * Search, then sort, then limit (`--limit 5 --sort -createdAt` gives the five newest), applied as the blogs
 * arrive: of each blog that matches only `project(blog)` (and its sort key) is kept, and without --sort only the
 * first `limit` of them, so a list of 20,000 full blogs never has to be held to print a few of their fields.
 */
export function queryCollector<R>(
  query: ListQuery,
  project: (blog: Blog) => R,
): ArrayCollector<Blog, QueryResult<R>> {
  const needle = query.search !== undefined ? fold(query.search) : undefined;
  const sort = query.sort;
  const kept: Keyed<R>[] = [];
  let total = 0;
  let matched = 0;
  return {
    add(blog) {
      const index = total++;
      if (needle !== undefined && !searchText(blog).includes(needle)) return;
      matched++;
      if (!sort && query.limit !== undefined && kept.length >= query.limit) return;
      kept.push({ row: project(blog), key: sort ? fieldValue(blog, sort.field) : undefined, index });
    },
    done() {
      let out = sort ? sortKeyed(kept, sort) : kept;
      if (query.limit !== undefined) out = out.slice(0, query.limit);
      return {
        rows: out.map((e) => e.row),
        total,
        matched,
        ...(sort && { sortFieldSeen: out.some((e) => e.key !== undefined) }),
      };
    },
  };
}

/** The same query over a list already in hand. */
export function queryBlogs(blogs: Blog[], query: ListQuery): Blog[] {
  const collector = queryCollector(query, (blog) => blog);
  for (const blog of blogs) collector.add(blog);
  return collector.done().rows;
}

interface Keyed<R> {
  row: R;
  key: unknown;
  /** Position in the service's list: ties keep it. */
  index: number;
}

/** What --search looks in: id, title, category and topic keywords; case-insensitive, NFKC-folded (ｆｕｌｌ → full). */
function searchText(blog: Blog): string {
  const parts: unknown[] = [blog._id, blog.title, blog['category'], blog['topicKeywords']];
  return fold(
    parts
      .flat()
      .filter((p): p is string => typeof p === 'string')
      .join('\n'),
  );
}

function fold(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase();
}

/** Stable; blogs without the field go last in either direction; numbers compare as numbers, text naturally. */
function sortKeyed<R>(entries: Keyed<R>[], sort: SortSpec): Keyed<R>[] {
  const sign = sort.descending ? -1 : 1;
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [...entries].sort((a, b) => {
    const aMissing = a.key === undefined || a.key === null;
    const bMissing = b.key === undefined || b.key === null;
    if (aMissing || bMissing) return aMissing === bMissing ? a.index - b.index : aMissing ? 1 : -1;
    const diff =
      typeof a.key === 'number' && typeof b.key === 'number'
        ? a.key - b.key
        : collator.compare(String(a.key), String(b.key));
    return diff !== 0 ? sign * diff : a.index - b.index;
  });
}

export function fieldValue(blog: Record<string, unknown>, path: string): unknown {
  if (path in blog) return blog[path];
  let cur: unknown = blog;
  for (const part of path.split('.')) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** For `--json id,title`: a blog's `_id` also answers to `id`, unless the blog has an `id` of its own. */
export function withIdAlias(blog: Blog): Record<string, unknown> {
  return { id: blog._id, ...blog };
}
