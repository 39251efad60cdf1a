// `blog list`: GET get-all-blogs, then --search/--sort/--limit on the client; a table, TSV, ids or JSON.
import { UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import type { IO } from '../../../output/io.js';
import { BLOG_FIELDS } from '../../../blogs/fields.js';
import { jsonOutput } from '../../../output/json.js';
import type { Column } from '../../../output/table.js';
import {
  parsePositiveInt,
  parseSort,
  queryCollector,
  withIdAlias,
  type ListQuery,
  type QueryResult,
} from '../../../blogs/list-query.js';
import { BlogParamsError } from '../../../blogs/params-error.js';
import type { Blog } from '../../../schemas/blog.js';
import type { Input } from './command.js';

export async function action({ opts, globals, deps }: Input): Promise<void> {
  const json = jsonOutput(globals.json, BLOG_FIELDS);
  const query = parseListFlags(opts);
  const io = deps.io;
  // Each form keeps only what it prints of each blog (see queryCollector).
  if (json.enabled) {
    const result = await listRun(query, deps, (b) =>
      io.jsonElement(json.fields ? json.select(withIdAlias(b)) : b),
    );
    warnUnsorted(io, query, result, opts, true);
    json.warnUnseen(io);
    return io.jsonArray(result.rows);
  }
  if (globals.quiet) {
    const result = await listRun(query, deps, (b) => b._id);
    warnUnsorted(io, query, result, opts);
    if (result.rows.length) io.out(result.rows.join('\n'));
    return;
  }
  const result = await listRun(query, deps, tableRow);
  warnUnsorted(io, query, result, opts);
  const blogs = result.rows;
  if (!blogs.length) {
    // An empty list is a normal answer (exit 0); only a person at a terminal gets told so.
    if (io.stderrIsTTY)
      io.note(
        result.total === 0
          ? `No blogs yet. Create one: blogctl ${deps.settings().sandbox ? '--sandbox ' : ''}blog create`
          : 'No blogs match.',
      );
    return;
  }
  const { tableLines } = await import('../../../output/table.js');
  await io.outLines(tableLines(io, blogColumns(blogs, io.stdoutIsTTY), blogs));
}

/** As gh lists: the newest first, at most 30 unless --limit says otherwise (`--limit 0`: all of them). */
export const DEFAULT_LIST_LIMIT = 30;
const NEWEST_FIRST = { field: 'createdAt', descending: true };

function warnUnsorted(
  io: Pick<IO, 'warn' | 'note' | 'stdoutIsTTY'>,
  query: ListQuery,
  result: QueryResult<unknown>,
  opts: Input['opts'],
  json = false,
): void {
  if (opts.sort !== undefined && query.sort && result.total > 0 && !result.sortFieldSeen)
    io.warn(`--sort: no blog has a "${query.sort.field}" field; kept the service's order`);
  // Said on stderr: a note for a person reading the table, a warning (even with -q) for a script that may
  // have meant every blog.
  if (opts.limit === undefined && result.matched > DEFAULT_LIST_LIMIT) {
    const text = `showing the ${DEFAULT_LIST_LIMIT} newest of ${result.matched} blogs (--limit 0 for all)`;
    if (io.stdoutIsTTY && !json) io.note(`${text[0]!.toUpperCase()}${text.slice(1)}`);
    else io.warn(text);
  }
}

export function parseListFlags(opts: Input['opts']): ListQuery {
  try {
    const limit =
      opts.limit === undefined
        ? DEFAULT_LIST_LIMIT
        : opts.limit.trim() === '0'
          ? undefined
          : parsePositiveInt('--limit', opts.limit);
    return {
      ...(opts.search !== undefined && { search: opts.search }),
      sort: opts.sort !== undefined ? parseSort(opts.sort) : NEWEST_FIRST,
      ...(limit !== undefined && { limit }),
    };
  } catch (error) {
    if (error instanceof BlogParamsError) throw new UsageError(error.message);
    throw error;
  }
}

/** What `project` makes of each blog left after the query, and how many the service returned before it. */
export async function listRun<R>(
  query: ListQuery,
  deps: Pick<Deps, 'blogApi'>,
  project: (blog: Blog) => R,
): Promise<QueryResult<R>> {
  return (await deps.blogApi()).collectBlogs(() => queryCollector(query, project));
}

/** The cells a title keeps on a terminal before other columns give way. */
export const TITLE_CELLS = 30;

/** The fields blogColumns() reads: a table keeps only these of each blog, not its content. */
const TABLE_FIELDS = ['createdAt', 'status', 'wordCount'] as const;

export function tableRow(blog: Blog): Blog {
  const row: Blog = { _id: blog._id, title: blog.title };
  for (const field of TABLE_FIELDS) if (blog[field] !== undefined) row[field] = blog[field];
  return row;
}

/**
 * ID and TITLE always; CREATED, STATUS and WORDS when any blog carries them. On a terminal the id is never
 * cut (it is what a person copies into `blog show`), the title keeps 30 cells, and WORDS, then STATUS, then
 * CREATED are left out to make room for them.
 */
export function blogColumns(blogs: Blog[], forPerson: boolean): Column<Blog>[] {
  const has = (field: string): boolean => blogs.some((b) => b[field] !== undefined && b[field] !== null);
  const columns: Column<Blog>[] = [
    { header: 'ID', value: (b) => b._id, copy: true },
    { header: 'TITLE', value: (b) => b.title, flexible: true, min: TITLE_CELLS },
  ];
  if (has('createdAt'))
    columns.push({
      header: 'CREATED',
      value: (b) => (forPerson ? shortDate(b['createdAt']) : b['createdAt']),
      drop: 3,
    });
  if (has('status')) columns.push({ header: 'STATUS', value: (b) => b['status'], drop: 2 });
  if (has('wordCount')) columns.push({ header: 'WORDS', value: (b) => b['wordCount'], drop: 1 });
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
