// `blog list`: GET get-all-blogs, then --search/--sort/--limit on the client; a table, TSV, ids or JSON.
import { UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { jsonFields, pick, wantsJson } from '../../output/json.js';
import type { Column } from '../../output/table.js';
import {
  fieldValue,
  parsePositiveInt,
  parseSort,
  queryBlogs,
  withIdAlias,
  type ListQuery,
} from '../../publishing/blog-list.js';
import { BlogParamsError } from '../../publishing/blog-params.js';
import type { Blog } from '../../schemas/blog.js';
import type { ActionInput } from '../define.js';

export interface ListFlags {
  search?: string;
  limit?: string;
  sort?: string;
}

export async function action({ opts, globals, deps }: ActionInput<ListFlags>): Promise<void> {
  const fields = jsonFields(globals.json);
  const query = parseListFlags(opts);
  const { blogs, total } = await listRun(query, deps);
  const io = deps.io;
  if (query.sort && total > 0 && !blogs.some((b) => fieldValue(b, query.sort!.field) !== undefined)) {
    io.warn(`--sort: no blog has a "${query.sort.field}" field; kept the service's order`);
  }
  if (wantsJson(globals.json))
    return io.json(fields ? blogs.map((b) => pick(withIdAlias(b), fields)) : blogs);
  if (globals.quiet) {
    if (blogs.length) io.out(blogs.map((b) => b._id).join('\n'));
    return;
  }
  if (!blogs.length) {
    // An empty list is a normal answer (exit 0); only a person at a terminal gets told so.
    if (io.stderrIsTTY)
      io.note(total === 0 ? 'No blogs yet. Create one: blogctl blog create' : 'No blogs match.');
    return;
  }
  const { printTable } = await import('../../output/table.js');
  printTable(io, blogColumns(blogs, io.stdoutIsTTY), blogs);
}

export function parseListFlags(opts: ListFlags): ListQuery {
  try {
    return {
      ...(opts.search !== undefined && { search: opts.search }),
      ...(opts.sort !== undefined && { sort: parseSort(opts.sort) }),
      ...(opts.limit !== undefined && { limit: parsePositiveInt('--limit', opts.limit) }),
    };
  } catch (error) {
    if (error instanceof BlogParamsError) throw new UsageError(error.message);
    throw error;
  }
}

/** The blogs after the query, and how many the service returned before it. */
export async function listRun(
  query: ListQuery,
  deps: Pick<Deps, 'blogApi'>,
): Promise<{ blogs: Blog[]; total: number }> {
  const all = await (await deps.blogApi()).listBlogs();
  return { blogs: queryBlogs(all, query), total: all.length };
}

/** ID and TITLE always; CREATED, STATUS and WORDS when any blog carries them. */
export function blogColumns(blogs: Blog[], forPerson: boolean): Column<Blog>[] {
  const has = (field: string): boolean => blogs.some((b) => b[field] !== undefined && b[field] !== null);
  const columns: Column<Blog>[] = [
    { header: 'ID', value: (b) => b._id },
    { header: 'TITLE', value: (b) => b.title, flexible: true },
  ];
  if (has('createdAt'))
    columns.push({
      header: 'CREATED',
      value: (b) => (forPerson ? shortDate(b['createdAt']) : b['createdAt']),
    });
  if (has('status')) columns.push({ header: 'STATUS', value: (b) => b['status'] });
  if (has('wordCount')) columns.push({ header: 'WORDS', value: (b) => b['wordCount'] });
  return columns;
}

/** `2026-03-01 14:05` in local time for a person; the raw value when it is not a date. Piped output keeps ISO. */
function shortDate(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
