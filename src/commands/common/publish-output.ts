// What a publish prints: one post as `key: value` rows (or JSON, or its link with -q); a batch as a table on a
// terminal, tab-separated rows when piped, or a JSON array; a dry run's plan the same way (publish-plan-output.ts). Notes and warnings
// go to stderr; the exit code is the worst outcome (and, with --exit-code, 8 when the site is not in step).
import { BlogctlError, ExitCode, OutOfStepError, type ExitCodeValue } from '../../errors.js';
import type { Deps } from '../../factory.js';
import type { JsonOutput } from '../../output/json.js';
import { groupedLines, groupMessages, itemMessage } from '../../output/group.js';
import type { Column } from '../../output/table.js';
import type { PublishOutcome } from '../../publishing/publish-outcome.js';
import { batchRow, publishView, type BatchRow, type PublishView } from './publish-rows.js';

/** Notes and warnings, to stderr: in a batch, each said once with the sources that share it. */
export function printNotes(
  io: Deps['io'],
  outcomes: Pick<PublishOutcome, 'source' | 'notes' | 'warnings'>[],
): void {
  type Said = (typeof outcomes)[number];
  const said = (pick: (o: Said) => string[]): string[] =>
    outcomes.length === 1
      ? pick(outcomes[0]!)
      : groupedLines(
          outcomes.flatMap((o) => pick(o).map((m) => itemMessage(o.source, m))),
          'source',
        );
  for (const note of said((o) => o.notes)) io.note(note);
  for (const warning of said((o) => o.warnings)) io.warn(warning);
}

export interface ExitOptions {
  exitCode: boolean;
  /** The rows went out another way (--markdown): only the notes, the summary line and the exit code. */
  rowsShown?: boolean;
}

/** A single publish: the rows (or JSON, or -q the link); a failure is thrown for the exit code. */
export function printSingle(
  deps: Pick<Deps, 'io' | 'globals'>,
  json: JsonOutput,
  outcome: PublishOutcome,
  title: string,
  options: ExitOptions = { exitCode: false },
): void {
  // A failure is the error alone (one line, and its JSON object on stderr with --json); stdout stays empty.
  if (outcome.error) throw outcome.error;
  const { io } = deps;
  // JSON is the batch's array whatever names the post (files, --content-file, flags): one shape to script.
  if (json.enabled) json.print(io, [batchRow(outcome)]);
  printNotes(io, [outcome]);
  const view = publishView(outcome);
  if (json.enabled) {
    // The row is printed above.
  } else if (deps.globals.quiet) {
    const short = view.link ?? view.id;
    if (short) io.out(short);
  } else {
    io.out(publishRows(view));
    const what = {
      created: `Published "${title}" as a new post`,
      updated: `Updated "${title}" in place (${view.fields?.length ? view.fields.join(', ') : 'its marker'})`,
      moved: `"${title}" took over post ${view.id ?? ''} of a source that is gone (same id and link)`,
      unchanged: `"${title}" is unchanged on the site: nothing sent`,
      changed: `"${title}" differs on the site (${view.fields?.join(', ') ?? ''}); left as it is (--no-update)`,
      trashed: `"${title}" has its post in the trash: left there`,
      orphaned: '',
      pruned: '',
      failed: '',
    }[outcome.state];
    if (['created', 'updated', 'moved', 'unchanged'].includes(outcome.state))
      io.success(`${what} (status ${view.status ?? 'unknown'})`);
    else io.note(what);
  }
  const left = outOfStep([{ action: outcome.state, edited: outcome.edited }], options, false);
  if (left) throw left;
}

/**
 * `action:`, `id:`, `link:`, `status:`, `type:` rows, as a person reads them. A post that is on the site but
 * whose status could not be learnt says `unknown` (JSON keeps `null`) rather than leave a blank.
 */
export function publishRows(view: PublishView): string {
  const known = (v: string | null): string | null => (v === null && view.published ? 'unknown' : v);
  const rows: [string, unknown][] = [
    ['action', view.action],
    ['id', view.id],
    ['link', view.link],
    ['status', known(view.status)],
    ['type', known(view.type)],
    ...(view.fields ? [['fields', view.fields.join(', ')] as [string, unknown]] : []),
    ...(view.edited ? [['edited', view.edited.join(', ')] as [string, unknown]] : []),
  ];
  return rows.map(([k, v]) => `${`${k}:`.padEnd(11)}${v === null ? '' : String(v)}`.trimEnd()).join('\n');
}

export async function printRows<R extends object>(
  io: Deps['io'],
  columns: Column<R>[],
  rows: R[],
  table: Column<R>[] = columns,
): Promise<void> {
  // Piped: TSV without loading the terminal table's width measuring (see output/tsv.ts).
  if (io.stdoutIsTTY) (await import('../../output/table.js')).printTable(io, table, rows);
  else (await import('../../output/tsv.js')).printTsv(io, columns, rows);
}

/**
 * ACTION is what blogctl did with the source; WP STATUS is the status WordPress gave the post (future,
 * publish, draft…), which may differ from the one asked for. Piped: these six, tab-separated, the last one the
 * error or else the fields that changed.
 */
export const BATCH_COLUMNS: Column<BatchRow>[] = [
  { header: 'SOURCE', value: (r) => r.source, flexible: true, min: 20 },
  { header: 'ACTION', value: (r) => r.action },
  { header: 'WP STATUS', value: (r) => r.status ?? (r.published ? 'unknown' : null), drop: 2 },
  { header: 'ID', value: (r) => r.id, copy: true, drop: 1 },
  { header: 'LINK', value: (r) => r.link, copy: true },
  { header: 'ERROR', value: (r) => r.error ?? fieldsText(r), wrap: true, min: 24 },
];

/** The fields a row sent or would send, and those edited on the site: `title,content; edited on site: excerpt`. */
function fieldsText(r: { fields?: string[]; edited?: string[] }): string | null {
  const parts = [
    ...(r.fields?.length ? [r.fields.join(',')] : []),
    ...(r.edited?.length ? [`edited on site: ${r.edited.join(', ')}`] : []),
  ];
  return parts.length ? parts.join('; ') : null;
}

/**
 * The batch on a terminal: SOURCE cut in the middle (file names tell sources apart); LINK and ID never cut
 * (they are what a person copies; ID gives way first, LINK holds it too); the fields that changed under
 * FIELDS and a failure under ERROR, which wraps rather than losing its end; a column with nothing in it is
 * not shown.
 */
export const BATCH_TABLE_COLUMNS: Column<BatchRow>[] = [
  { ...BATCH_COLUMNS[0]!, cut: 'middle' },
  ...BATCH_COLUMNS.slice(1, 5),
  { header: 'FIELDS', value: (r) => (r.error === undefined ? fieldsText(r) : null), flexible: true },
  { header: 'ERROR', value: (r) => r.error, wrap: true, min: 24 },
];

/** A batch: every source's row, then the worst failure thrown (exit code of the worst outcome). */
export async function printBatch(
  deps: Pick<Deps, 'io' | 'globals'>,
  json: JsonOutput,
  outcomes: PublishOutcome[],
  options: ExitOptions = { exitCode: false },
): Promise<void> {
  const { io } = deps;
  printNotes(io, outcomes);
  const rows = outcomes.map(batchRow);
  if (options.rowsShown) {
    // Printed already.
  } else if (json.enabled) {
    json.print(io, rows);
  } else if (deps.globals.quiet) {
    const links = rows.filter((r) => r.published).map((r) => r.link ?? r.id ?? '');
    if (links.length) io.out(links.join('\n'));
  } else {
    await printRows(io, BATCH_COLUMNS, io.stdoutIsTTY ? sharedErrorsOnce(rows) : rows, BATCH_TABLE_COLUMNS);
  }
  const failure = worstFailure(outcomes);
  if (failure) throw failure;
  const count = (state: PublishOutcome['state']): number => outcomes.filter((o) => o.state === state).length;
  const parts = [
    [count('created'), 'created'],
    [count('updated'), 'updated'],
    [count('moved'), 'moved'],
    [count('unchanged'), 'unchanged'],
    [count('changed'), 'changed and left'],
    [count('trashed'), 'in the trash'],
    [outcomes.filter((o) => o.edited).length, 'edited on the site'],
    [count('orphaned'), 'orphaned (source gone)'],
    [count('pruned'), 'pruned to the trash'],
  ].filter(([n]) => n) as [number, string][];
  const posts = outcomes.length - count('orphaned') - count('pruned');
  io.success(
    `${posts} post${posts === 1 ? '' : 's'}: ${parts.map(([n, what]) => `${n} ${what}`).join(', ')}`,
  );
  const left = outOfStep(
    outcomes.map((o) => ({ action: o.state, edited: o.edited })),
    options,
    false,
  );
  if (left) throw left;
}

/**
 * For the table on a terminal: an error several rows share is written out once, at its first row with how
 * many sources share it (`[1] message (12 sources)`); the other rows point to it (`[1]`).
 */
function sharedErrorsOnce(rows: BatchRow[]): BatchRow[] {
  const shared = groupMessages(
    rows.flatMap((r) => (r.error === undefined ? [] : [itemMessage(r.source, r.error)])),
  ).filter((g) => g.items.length > 1);
  if (!shared.length) return rows;
  const written = new Set<number>();
  return rows.map((r) => {
    if (r.error === undefined) return r;
    const message = itemMessage(r.source, r.error)[1];
    const n = shared.findIndex((g) => g.message === message);
    if (n < 0) return r;
    const mark = `[${n + 1}]`;
    if (written.has(n)) return { ...r, error: mark };
    written.add(n);
    return { ...r, error: `${mark} ${message} (${shared[n]!.items.length} sources)` };
  });
}

/** What a dry run counts for --exit-code: whatever a run would send, and what it would leave out of step. */
const PENDING_PLAN = ['create', 'update', 'move', 'changed', 'trashed', 'orphaned', 'prune'];
/**
 * What a run counts for --exit-code: what it left out of step that another run could settle (a post left
 * `changed` by --no-update, one in the trash, an orphan left without --prune). A field an editor changed on
 * the site is not among them: a run keeps it by design and reports it, so counting it would fail every
 * publish after an edit (docs/publishing.md, docs/sync-safety.md).
 */
const PENDING_RUN = ['changed', 'trashed', 'orphaned'];

/**
 * `--exit-code`: exit 8 when the site is not in step with the sources. A dry run: a post to send, left
 * differing, an orphan, or a field edited on the site. A run: what it left out of step (PENDING_RUN).
 */
export function outOfStep(
  rows: { action: string; edited?: string[] | undefined }[],
  options: ExitOptions,
  dryRun: boolean,
): OutOfStepError | undefined {
  if (!options.exitCode) return undefined;
  const actions = rows.map((r) => r.action);
  const pending = rows.filter((r) =>
    dryRun ? PENDING_PLAN.includes(r.action) || Boolean(r.edited?.length) : PENDING_RUN.includes(r.action),
  ).length;
  if (!pending) return undefined;
  return new OutOfStepError(
    dryRun
      ? `${pending} of ${actions.length} post${actions.length === 1 ? '' : 's'} would change on the site (--exit-code)`
      : `${pending} of ${actions.length} post${actions.length === 1 ? '' : 's'} still differ${pending === 1 ? 's' : ''} on the site (--exit-code)`,
  );
}

/**
 * One error for a batch: the highest exit code among the failures, the line ending with the failure that set
 * it (all a script reading stderr gets), each failure as a hint (on a terminal, or in --json).
 */
function worstFailure(outcomes: PublishOutcome[]): BlogctlError | undefined {
  const failed = outcomes.filter((o) => o.error);
  if (!failed.length) return undefined;
  if (outcomes.length === 1) return failed[0]!.error;
  const code = Math.max(...failed.map((o) => o.error!.exitCode)) as ExitCodeValue;
  const kind =
    { 2: 'usage', 4: 'auth', 5: 'not_found', 6: 'rejected', 7: 'unavailable', 130: 'interrupted' }[
      code as 2 | 4 | 5 | 6 | 7 | 130
    ] ?? 'unexpected';
  const ok = outcomes.length - failed.length;
  const worst = failed.find((o) => o.error!.exitCode === code)!;
  const names =
    failed
      .slice(0, 10)
      .map((o) => o.source)
      .join(', ') + (failed.length > 10 ? ', …' : '');
  // One detail per distinct failure, with the sources that share it.
  const details = groupedLines(
    failed.map((o) => itemMessage(o.source, o.error!.message)),
    'source',
  );
  return new BlogctlError(
    kind,
    code === ExitCode.ok ? ExitCode.unexpected : code,
    `${failed.length} of ${outcomes.length} posts not published (${names})${ok ? `; ${ok} in step or left as reported` : ''}: ${worst.source}: ${worst.error!.message}`,
    { details: details.slice(0, 10) },
  );
}
