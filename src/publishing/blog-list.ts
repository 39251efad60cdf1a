// Client-side --search, --sort and --limit for `blog list` (the service shows no filtering or paging), and
// the small number parsers the blog verbs share.
import type { Blog } from '../schemas/blog.js';
import { BlogParamsError } from './blog-params.js';

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
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new BlogParamsError(`${flag}: expected a whole number from 1 to ${max}, got "${raw}"`);
  }
  return n;
}

/** Search, then sort, then limit: `--limit 5 --sort -createdAt` gives the five newest. */
export function queryBlogs(blogs: Blog[], query: ListQuery): Blog[] {
  let out = blogs;
  if (query.search !== undefined) {
    const needle = fold(query.search);
    out = out.filter((b) => searchText(b).includes(needle));
  }
  if (query.sort) out = sortBlogs(out, query.sort);
  if (query.limit !== undefined) out = out.slice(0, query.limit);
  return out;
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
export function sortBlogs(blogs: Blog[], sort: SortSpec): Blog[] {
  const sign = sort.descending ? -1 : 1;
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return blogs
    .map((blog, index) => ({ blog, index, key: fieldValue(blog, sort.field) }))
    .sort((a, b) => {
      const aMissing = a.key === undefined || a.key === null;
      const bMissing = b.key === undefined || b.key === null;
      if (aMissing || bMissing) return aMissing === bMissing ? a.index - b.index : aMissing ? 1 : -1;
      const diff =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : collator.compare(String(a.key), String(b.key));
      return diff !== 0 ? sign * diff : a.index - b.index;
    })
    .map((e) => e.blog);
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
