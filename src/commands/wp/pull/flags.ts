// `wp pull`'s flags read: the site to read, and the filters (--status, --since, --author), checked.
import { UsageError } from '../../../errors.js';
import type { Project } from '../../../project/project-file.js';
import type { Deps } from '../../../factory.js';
import { siteOfProject } from '../../../publishing/sources/read-sources.js';
import type { Input } from './command.js';

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** The flags' site, else the project's, found as `wp publish` finds it (a stored profile of its URL first). */
export function siteOf(
  project: Project,
  opts: Input['opts'],
  deps: Pick<Deps, 'store'>,
): { site?: string; url?: string; username?: string } {
  if (opts.site !== undefined || opts.url !== undefined || opts.username !== undefined)
    return {
      ...(opts.site !== undefined && { site: opts.site }),
      ...(opts.url !== undefined && { url: opts.url }),
      ...(opts.username !== undefined && { username: opts.username }),
    };
  return siteOfProject(project, deps);
}

/** --type: post type names (WordPress's: `post`, `page`, `recipe`), checked against the site by the pull. */
/** --type's names (WordPress's `page` or the REST base `pages`); undefined: every type the site offers. */
export function parseTypes(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const bad = list.find((t) => !/^[a-z0-9_-]{1,20}$/.test(t));
  if (!list.length || bad !== undefined)
    throw new UsageError(`--type: expected post type names like post,page (got "${bad ?? value}")`);
  return list;
}

export function parseStatuses(value: string | undefined): string[] {
  if (value === undefined) return STATUSES;
  const list = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.filter((s) => !STATUSES.includes(s));
  if (!list.length || bad.length)
    throw new UsageError(
      `--status: expected some of ${STATUSES.join(', ')}${bad.length ? ` (got "${bad[0]!}")` : ''}`,
    );
  return list;
}

/** --since: a date (`2026-01-31`) or a date and time, with or without an offset (the site's time without one). */
export function parseSince(value: string): string {
  const v = value.trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(v);
  if (!m || Number.isNaN(new Date(`${m[1]!}T00:00:00Z`).getTime()))
    throw new UsageError(`--since: expected a date like 2026-01-31 or 2026-01-31T09:00 (got "${value}")`);
  const time = m[2] ? (m[2].length === 5 ? `${m[2]}:00` : m[2]) : '00:00:00';
  return `${m[1]!}T${time}${m[3] ?? ''}`;
}

export function parseAuthor(value: string): number {
  if (!/^\d{1,15}$/.test(value.trim()) || Number(value) <= 0)
    throw new UsageError(`--author: expected a user id (a whole number), got "${value}"`);
  return Number(value);
}
