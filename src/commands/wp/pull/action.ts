// `wp pull`: the flags read, the site's posts pulled into the project (publishing/pull/pull.ts), and one row
// per post printed (a table on a terminal, else tab-separated; --json rows; -q the files), then the notes and
// a one-line count on stderr.
import { resolve, relative } from 'node:path';
import { UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../output/json.js';
import type { Column } from '../../../output/table.js';
import { findProject } from '../../../project/project-file.js';
import { outputFolder } from '../../../publishing/pull/files.js';
import { pull, type PullRow } from '../../../publishing/pull/pull.js';
import { resolveCredentials } from '../../../sites/profiles.js';
import type { Input } from './command.js';
import { parseAuthor, parseSince, parseStatuses, parseTypes, siteOf } from './flags.js';

export const PULL_FIELDS = fieldsOf<PullRow>({
  file: true,
  action: true,
  id: true,
  link: true,
  status: true,
  adopted: true,
  note: true,
});

export async function action({ args, opts, globals, deps }: Input): Promise<void> {
  const json = jsonOutput(globals.json, PULL_FIELDS);
  // The project around the folder the files go to (as `wp publish` finds it around its sources), else
  // around the folder blogctl runs in.
  const given = args[0];
  const project = findProject(given === undefined ? process.cwd() : resolve(given));
  if (!project)
    throw new UsageError('wp pull works inside a project: no blogctl.yml there or in any folder above', {
      hints: ['create one with `blogctl wp init --site <profile or URL>`'],
    });
  const target = outputFolder(project, args[0]);
  const statuses = parseStatuses(opts.status);
  const types = parseTypes(opts.type);
  const since = opts.since === undefined ? undefined : parseSince(opts.since);
  const author = opts.author === undefined ? undefined : parseAuthor(opts.author);

  const site = siteOf(project, opts, deps);
  const { credentials } = await resolveCredentials(
    { ...site, passwordStdin: Boolean(opts.passwordStdin) },
    deps,
  );
  const { rows, otherSources, seoUnread } = await pull(
    { client: await deps.wordpress(credentials), credentials },
    { project, target },
    {
      statuses,
      ...(types && { types }),
      ...(since !== undefined && { since }),
      ...(author !== undefined && { author }),
      ...(opts.category?.length && {
        categories: opts.category
          .flatMap((c) => c.split(','))
          .map((c) => c.trim())
          .filter(Boolean),
      }),
      media: Boolean(opts.media),
      force: Boolean(opts.force),
      adopt: Boolean(opts.adopt),
      mediaTimeoutMs: deps.httpOptions().timeoutMs,
    },
    deps,
  );

  if (json.enabled) json.print(deps.io, rows);
  else if (globals.quiet) {
    if (rows.length) deps.io.out(rows.map((r) => r.file).join('\n'));
  } else if (rows.length) await printRows(deps.io, rows);
  for (const r of rows) if (r.note) deps.io.note(`${r.file}: ${r.note}`);
  if (seoUnread) deps.io.note(seoUnread);
  if (otherSources)
    deps.io.note(
      `${otherSources} post${otherSources === 1 ? '' : 's'} left out: published by blogctl from another source (this project's files or another project's)`,
    );
  const count = (a: PullRow['action']): number => rows.filter((r) => r.action === a).length;
  const parts = (
    [
      [count('created'), 'new files'],
      [count('updated'), 'overwritten (--force)'],
      [count('unchanged'), 'unchanged'],
      [count('differs'), 'differ and left'],
    ] as [number, string][]
  ).filter(([n]) => n);
  deps.io.success(
    `${rows.length} post${rows.length === 1 ? '' : 's'} pulled into ${relative(process.cwd(), target) || '.'}${parts.length ? `: ${parts.map(([n, w]) => `${n} ${w}`).join(', ')}` : ''}${opts.adopt ? `; ${rows.filter((r) => r.adopted).length} adopted` : ''}`,
  );
}

const COLUMNS: Column<PullRow>[] = [
  { header: 'FILE', value: (r) => r.file, flexible: true, min: 20 },
  { header: 'ACTION', value: (r) => r.action },
  { header: 'WP STATUS', value: (r) => r.status },
  { header: 'ID', value: (r) => r.id, copy: true },
  { header: 'LINK', value: (r) => r.link, copy: true },
];

async function printRows(io: Deps['io'], rows: PullRow[]): Promise<void> {
  if (io.stdoutIsTTY) (await import('../../../output/table.js')).printTable(io, COLUMNS, rows);
  else (await import('../../../output/tsv.js')).printTsv(io, COLUMNS, rows);
}
