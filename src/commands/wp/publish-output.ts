// What a publish prints: one post as `key: value` rows (or JSON, or its link with -q); a batch as a table on a
// terminal, tab-separated rows when piped, or a JSON array; a dry run's plan the same way. Notes and warnings
// go to stderr; the exit code is the worst outcome (and, with --exit-code, 8 when the site is not in step).
import { BlogctlError, ExitCode, OutOfStepError, type ExitCodeValue } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { fieldsOf, type JsonOutput } from '../../output/json.js';
import type { ItemResult } from '../../output/progress.js';
import type { Column } from '../../output/table.js';
import type { PlannedPost } from '../../publishing/publish-flow.js';
import type { PublishOutcome } from '../../publishing/publish-outcome.js';

/** One post's result. */
export interface PublishView {
  /** created, updated, unchanged, changed (left: --no-update), trashed (left in the trash), failed. */
  action: PublishOutcome['state'];
  /** The source's post is on the site (created, updated, unchanged, or changed and left). */
  published: boolean;
  id: string | null;
  link: string | null;
  /** The status WordPress gave the post. */
  status: string | null;
  type: string | null;
  /** The fields that differed (updated, changed). */
  fields?: string[];
  /** Only when WordPress gave another status than the one asked for. */
  requestedStatus?: string;
}

/** A batch row: the source and how it went, then the post. */
export interface BatchRow extends PublishView {
  source: string;
  error?: string;
  exitCode?: number;
}

/** A dry run's row: what a publish would do. */
export interface PlanRow {
  source: string;
  /** create, update, unchanged, changed (--no-update), trashed, conflict. */
  action: 'create' | 'update' | 'unchanged' | 'changed' | 'trashed' | 'conflict';
  id: string | null;
  link: string | null;
  status: string | null;
  fields?: string[];
  /** The post's fields as they would be sent (names of terms and image files as given). */
  post?: Record<string, unknown>;
}

const SINGLE_FIELD_SET: { [K in keyof PublishView]-?: true } = {
  action: true,
  published: true,
  id: true,
  link: true,
  status: true,
  type: true,
  fields: true,
  requestedStatus: true,
};
export const SINGLE_FIELDS = fieldsOf<PublishView>(SINGLE_FIELD_SET);

/** The fields of each row of a batch's JSON; also how `--json <file>` is told apart from `--json <fields>`. */
export const OUTPUT_FIELDS = fieldsOf<BatchRow>({
  source: true,
  ...SINGLE_FIELD_SET,
  error: true,
  exitCode: true,
});

export const PLAN_FIELDS = fieldsOf<PlanRow>({
  source: true,
  action: true,
  id: true,
  link: true,
  status: true,
  fields: true,
  post: true,
});

export function publishView(outcome: PublishOutcome): PublishView {
  const post = outcome.post;
  const status = post?.status ?? null;
  return {
    action: outcome.state,
    published: outcome.state !== 'failed' && outcome.state !== 'trashed',
    id: post?.id ?? null,
    link: post?.link ?? null,
    status,
    type: post?.type ?? null,
    ...(outcome.fields && { fields: outcome.fields }),
    ...((outcome.state === 'created' || outcome.state === 'updated') &&
      status !== null &&
      status !== outcome.requestedStatus && { requestedStatus: outcome.requestedStatus }),
  };
}

export function batchRow(outcome: PublishOutcome): BatchRow {
  return {
    source: outcome.source,
    ...publishView(outcome),
    ...(outcome.error && { error: outcome.error.message, exitCode: outcome.error.exitCode }),
  };
}

/** A source's result as the batch's progress prints it when it finishes: `posts/a.md  created  <link>`. */
export function batchResult(outcome: PublishOutcome): ItemResult {
  const row = batchRow(outcome);
  const notes = { notes: outcome.notes, warnings: outcome.warnings };
  if (row.error !== undefined) return { ok: false, line: `${row.source}: ${row.error}`, ...notes };
  return {
    ok: true,
    line: [row.source, row.action, row.link ?? row.id ?? ''].join('  ').trimEnd(),
    ...notes,
  };
}

/** Notes and warnings, to stderr. */
export function printNotes(io: Deps['io'], outcomes: PublishOutcome[]): void {
  for (const o of outcomes) {
    for (const note of o.notes) io.note(note);
    for (const warning of o.warnings) io.warn(warning);
  }
}

interface ExitOptions {
  exitCode: boolean;
  /** The notes and warnings were printed with each result as it finished (a batch's progress). */
  notesShown?: boolean;
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
      updated: `Updated "${title}" in place (${view.fields?.join(', ') ?? ''})`,
      unchanged: `"${title}" is unchanged on the site: nothing sent`,
      changed: `"${title}" differs on the site (${view.fields?.join(', ') ?? ''}); left as it is (--no-update)`,
      trashed: `"${title}" has its post in the trash: left there`,
      failed: '',
    }[outcome.state];
    if (outcome.state === 'created' || outcome.state === 'updated' || outcome.state === 'unchanged')
      io.success(`${what} (status ${view.status ?? 'unknown'})`);
    else io.note(what);
  }
  const left = outOfStep([outcome.state], options, false);
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
  ];
  return rows.map(([k, v]) => `${`${k}:`.padEnd(11)}${v === null ? '' : String(v)}`.trimEnd()).join('\n');
}

async function printRows<R extends object>(io: Deps['io'], columns: Column<R>[], rows: R[]): Promise<void> {
  // Piped: TSV without loading the terminal table's width measuring (see output/tsv.ts).
  if (io.stdoutIsTTY) (await import('../../output/table.js')).printTable(io, columns, rows);
  else (await import('../../output/tsv.js')).printTsv(io, columns, rows);
}

/**
 * ACTION is what blogctl did with the source; WP STATUS is the status WordPress gave the post (future,
 * publish, draft…), which may differ from the one asked for. On a terminal LINK and ID are never cut (they are
 * what a person copies; ID gives way first, LINK holds it too), ERROR wraps rather than losing its end, and
 * an ERROR column with nothing in it is not shown. Piped: all six, tab-separated, as they always were.
 */
export const BATCH_COLUMNS: Column<BatchRow>[] = [
  { header: 'SOURCE', value: (r) => r.source, flexible: true, min: 20 },
  { header: 'ACTION', value: (r) => r.action },
  { header: 'WP STATUS', value: (r) => r.status ?? (r.published ? 'unknown' : null), drop: 2 },
  { header: 'ID', value: (r) => r.id, copy: true, drop: 1 },
  { header: 'LINK', value: (r) => r.link, copy: true },
  { header: 'ERROR', value: (r) => r.error ?? (r.fields ? r.fields.join(',') : null), wrap: true, min: 24 },
];

/** A batch: every source's row, then the worst failure thrown (exit code of the worst outcome). */
export async function printBatch(
  deps: Pick<Deps, 'io' | 'globals'>,
  json: JsonOutput,
  outcomes: PublishOutcome[],
  options: ExitOptions = { exitCode: false },
): Promise<void> {
  const { io } = deps;
  if (!options.notesShown) printNotes(io, outcomes);
  const rows = outcomes.map(batchRow);
  if (json.enabled) {
    json.print(io, rows);
  } else if (deps.globals.quiet) {
    const links = rows.filter((r) => r.published).map((r) => r.link ?? r.id ?? '');
    if (links.length) io.out(links.join('\n'));
  } else {
    await printRows(io, BATCH_COLUMNS, rows);
  }
  const failure = worstFailure(outcomes);
  if (failure) throw failure;
  const count = (state: PublishOutcome['state']): number => outcomes.filter((o) => o.state === state).length;
  const parts = [
    [count('created'), 'created'],
    [count('updated'), 'updated'],
    [count('unchanged'), 'unchanged'],
    [count('changed'), 'changed and left'],
    [count('trashed'), 'in the trash'],
  ].filter(([n]) => n) as [number, string][];
  io.success(
    `${outcomes.length} post${outcomes.length === 1 ? '' : 's'}: ${parts.map(([n, what]) => `${n} ${what}`).join(', ')}`,
  );
  const left = outOfStep(
    outcomes.map((o) => o.state),
    options,
    false,
  );
  if (left) throw left;
}

/** `--exit-code`: exit 8 when the site is still not in step with the sources after this run. */
function outOfStep(actions: string[], options: ExitOptions, dryRun: boolean): OutOfStepError | undefined {
  if (!options.exitCode) return undefined;
  const pending = actions.filter((a) =>
    dryRun
      ? a === 'create' || a === 'update' || a === 'changed' || a === 'trashed'
      : a === 'changed' || a === 'trashed',
  ).length;
  if (!pending) return undefined;
  return new OutOfStepError(
    dryRun
      ? `${pending} of ${actions.length} post${actions.length === 1 ? '' : 's'} would change on the site (--exit-code)`
      : `${pending} of ${actions.length} post${actions.length === 1 ? '' : 's'} still differ${pending === 1 ? 's' : ''} on the site (--exit-code)`,
  );
}

/** The plan's rows: what would happen to each source. */
export function planRows(plan: PlannedPost[], update: boolean): PlanRow[] {
  return plan.map(({ job, action }) => {
    const post = 'post' in action ? action.post : undefined;
    const kind = action.kind === 'update' && !update ? 'changed' : action.kind;
    const body: Record<string, unknown> = { ...job.draft.content };
    if (job.draft.categories) body['categories'] = job.draft.categories;
    if (job.draft.tags) body['tags'] = job.draft.tags;
    if (job.featuredImage) body['featured_image'] = job.featuredImage.path;
    return {
      source: job.name,
      action: kind,
      id: post ? String(post.id) : null,
      link: post?.link ?? null,
      status: post?.status ?? null,
      ...(action.kind === 'update' && { fields: action.fields }),
      ...((kind === 'create' || kind === 'update') && { post: body }),
    };
  });
}

/** A plan's row in a run's columns: the action it would take, the post it would touch. */
function planBatchRow(row: PlanRow): BatchRow {
  return {
    source: row.source,
    action: row.action as BatchRow['action'],
    published: row.id !== null,
    id: row.id,
    link: row.link,
    status: row.status,
    type: null,
    ...(row.fields && { fields: row.fields }),
  };
}

/** A dry run: the plan as a table (TSV when piped) or JSON; a conflict fails as the real run would. */
export async function printPlan(
  deps: Pick<Deps, 'io' | 'globals'>,
  json: JsonOutput,
  plan: PlannedPost[],
  options: ExitOptions & { update: boolean },
): Promise<void> {
  const { io } = deps;
  const rows = planRows(plan, options.update);
  if (json.enabled) json.print(io, rows);
  else if (deps.globals.quiet) {
    const pending = rows.filter((r) => r.action !== 'unchanged').map((r) => r.source);
    if (pending.length) io.out(pending.join('\n'));
  } else
    // The columns of a real run, so a script reads a plan and a run alike.
    await printRows(io, BATCH_COLUMNS, rows.map(planBatchRow));
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.action, (counts.get(r.action) ?? 0) + 1);
  io.note(`dry run: nothing was sent (${[...counts].map(([a, n]) => `${n} ${a}`).join(', ')})`);
  const conflicts = plan.filter((p) => p.action.kind === 'conflict');
  if (conflicts.length) {
    const first = conflicts[0]!;
    const post = (first.action as { post: { id: number; slug: string } }).post;
    throw new BlogctlError(
      'rejected',
      ExitCode.rejected,
      `${conflicts.length} source${conflicts.length === 1 ? '' : 's'} ask${conflicts.length === 1 ? 's' : ''} for a slug another post holds (first: ${first.job.name}: "${post.slug}" is post ${post.id}); a publish would not send ${conflicts.length === 1 ? 'it' : 'them'}`,
    );
  }
  const left = outOfStep(
    rows.map((r) => r.action),
    options,
    true,
  );
  if (left) throw left;
}

/**
 * One error for a batch: the highest exit code among the failures, the line ending with the failure that set
 * it (all a script reading stderr gets), each failure as a hint (on a terminal, or in --json).
 */
export function worstFailure(outcomes: PublishOutcome[]): BlogctlError | undefined {
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
  return new BlogctlError(
    kind,
    code === ExitCode.ok ? ExitCode.unexpected : code,
    `${failed.length} of ${outcomes.length} posts not published (${names})${ok ? `; ${ok} in step or left as reported` : ''}: ${worst.source}: ${worst.error!.message}`,
    { details: failed.slice(0, 10).map((o) => `${o.source}: ${o.error!.message}`) },
  );
}
