// Turns zod issues into one-line, field-named messages ("blogParams.blogLength.value: must be one of
// Short, Medium, Long") that the CLI prints and the sandbox returns as its 400 `message`.
import type * as z from 'zod/mini';

export interface FieldIssue {
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;

/**
 * What check() and the HTTP client use of a schema: zod's safeParse. Every zod/mini schema is one; so are the
 * hand-written Blog record checks (blog-record.ts), which spare `blog list`, `show` and `delete` loading zod.
 */
export interface Schema<T = unknown> {
  safeParse(
    input: unknown,
    params?: { reportInput?: boolean },
  ): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}
/** What a schema's successful parse gives. */
export type Infer<S> = S extends Schema<infer T> ? T : never;
/** An array schema: zod's `z.array(element)` exposes its element as `def.element`. */
export interface ArraySchema<E extends Schema> extends Schema<Infer<E>[]> {
  def: { element: E };
}

function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `expected ${issue.expected}, got ${typeOf(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'url'
        ? 'must be an http(s) URL'
        : `must be a valid ${describeFormat(issue.format)}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `needs at least ${String(issue.minimum)} item${issue.minimum === 1 ? '' : 's'}`
        : issue.origin === 'string'
          ? 'must not be empty'
          : `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return issue.message && issue.message !== 'Invalid input' ? issue.message : 'has an invalid shape';
    default:
      return issue.message || 'is invalid';
  }
}

function describeFormat(format: string): string {
  if (format === 'datetime') return 'ISO 8601 date-time (e.g. 2026-12-01T09:00:00Z)';
  return format;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  const parts = prefix ? [prefix] : [];
  for (const key of path) {
    if (typeof key === 'number') parts.push(`[${key}]`);
    else parts.push(`${parts.length ? '.' : ''}${String(key)}`);
  }
  return parts.join('').replace(/^\./, '') || '(body)';
}

export function fieldIssues(error: { issues: readonly Issue[] }, prefix = ''): FieldIssue[] {
  return error.issues.map((issue) => {
    const custom = issue.message && !issue.message.startsWith('Invalid') ? issue.message : undefined;
    return { path: joinPath(prefix, issue.path), message: custom ?? describeIssue(issue) };
  });
}

export function formatIssues(issues: FieldIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('; ');
}

export type SafeResult<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/** Parses without throwing; the caller decides which error (usage, 400, invalid response) fits. */
export function check<S extends Schema>(schema: S, input: unknown, prefix = ''): SafeResult<Infer<S>> {
  // reportInput: without it zod leaves issue.input out and a wrong type reads as "is required".
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return { ok: true, value: result.data as Infer<S> };
  return { ok: false, issues: fieldIssues(result.error, prefix) };
}
