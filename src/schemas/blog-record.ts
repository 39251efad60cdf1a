// The Blog record (spec 2.5) as the CLI checks it, apart from blog.ts: listing, showing and deleting blogs
// validate only this. Checked by hand rather than with zod: these commands would load zod for two string
// fields, and zod's module cost them more than the rest of their validation (test/bench/RESULTS.md). The
// checks answer as zod's `z.looseObject({ _id: z.string(), title: z.string() })` and `z.array(…)` of it do
// (blog.ts keeps those, tested against these): the same issues (so the same messages, validate.ts), and a
// record copied with `_id` and `title` first, the other fields after them as sent, an own `__proto__` key
// left out.
import type { ArraySchema, Schema } from './validate.js';

/** A blog: `_id` and `title` at least; every other field is kept as the service sent it. */
export interface Blog {
  _id: string;
  title: string;
  [field: string]: unknown;
}

type Issue = Parameters<typeof import('./validate.js').fieldIssues>[0]['issues'][number];
type Result<T> = ReturnType<Schema<T>['safeParse']>;

const REQUIRED = ['_id', 'title'] as const;

function checkBlog(input: unknown, path: PropertyKey[], issues: Issue[]): Blog | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    issues.push({ code: 'invalid_type', expected: 'object', path, input, message: 'Invalid input' });
    return undefined;
  }
  const record = input as Record<string, unknown>;
  let valid = true;
  for (const key of REQUIRED) {
    if (typeof record[key] === 'string') continue;
    valid = false;
    issues.push({
      code: 'invalid_type',
      expected: 'string',
      path: [...path, key],
      input: record[key],
      message: 'Invalid input',
    });
  }
  if (!valid) return undefined;
  const blog: Blog = { _id: record['_id'] as string, title: record['title'] as string };
  for (const key of Object.keys(record)) {
    if (key === '_id' || key === 'title' || key === '__proto__' || record[key] === undefined) continue;
    blog[key] = record[key];
  }
  return blog;
}

function outcome<T>(value: T, issues: Issue[]): Result<T> {
  return issues.length ? { success: false, error: { issues } } : { success: true, data: value };
}

export const blog: Schema<Blog> = {
  safeParse(input) {
    const issues: Issue[] = [];
    return outcome(checkBlog(input, [], issues) as Blog, issues);
  },
};

export const blogList: ArraySchema<typeof blog> = {
  def: { element: blog },
  safeParse(input) {
    if (!Array.isArray(input))
      return outcome(
        [],
        [{ code: 'invalid_type', expected: 'array', path: [], input, message: 'Invalid input' }],
      );
    const issues: Issue[] = [];
    const blogs = input.map((item, index) => checkBlog(item, [index], issues) as Blog);
    return outcome(blogs, issues);
  },
};
