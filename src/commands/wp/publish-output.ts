// What a publish prints: one post as `key: value` rows (or JSON, or its link with -q); a batch as a table on a
// terminal, tab-separated rows when piped, or a JSON array. Notes and warnings go to stderr; the exit code is
// the worst outcome.
import { BlogctlError, ExitCode, type ExitCodeValue } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { fieldsOf, type JsonOutput } from '../../output/json.js';
import type { Column } from '../../output/table.js';
import type { PublishOutcome } from '../../publishing/publish-outcome.js';

/** One post's result, whichever way it was reached (sent, found in the journal, found on the site). */
export interface PublishView {
  published: boolean;
  alreadyPublished: boolean;
  id: string | null;
  link: string | null;
  /** The status WordPress gave the post. */
  status: string | null;
  type: string | null;
  /** Only when WordPress gave another status than the one asked for. */
  requestedStatus?: string;
  /** Found on the site after an ambiguous failure. */
  recovered?: true;
  /** When the journal recorded it (already published). */
  publishedAt?: string;
}

/** A batch row: the file and how it went, then the post. */
export interface BatchRow extends PublishView {
  file: string;
  outcome: PublishOutcome['state'];
  error?: string;
  exitCode?: number;
}

/** The fields of a single publish's JSON (as an object, so the batch's list can extend it). */
const SINGLE_FIELD_SET: { [K in keyof PublishView]-?: true } = {
  published: true,
  alreadyPublished: true,
  id: true,
  link: true,
  status: true,
  type: true,
  requestedStatus: true,
  recovered: true,
  publishedAt: true,
};
export const SINGLE_FIELDS = fieldsOf<PublishView>(SINGLE_FIELD_SET);

/** The fields of each row of a batch's JSON; also how `--json <file>` is told apart from `--json <fields>`. */
export const OUTPUT_FIELDS = fieldsOf<BatchRow>({
  file: true,
  outcome: true,
  ...SINGLE_FIELD_SET,
  error: true,
  exitCode: true,
});

export function publishView(outcome: PublishOutcome): PublishView {
  const post = outcome.post;
  const status = post?.status ?? null;
  return {
    published: outcome.state !== 'failed',
    alreadyPublished: outcome.state === 'already published',
    id: post?.id ?? null,
    link: post?.link ?? null,
    status,
    type: post?.type ?? null,
    ...(outcome.state === 'published' &&
      status !== null &&
      status !== outcome.requestedStatus && { requestedStatus: outcome.requestedStatus }),
    ...(outcome.recovered && { recovered: true as const }),
    ...(outcome.state === 'already published' && outcome.entry && { publishedAt: outcome.entry.publishedAt }),
  };
}

export function batchRow(outcome: PublishOutcome): BatchRow {
  return {
    file: outcome.source,
    outcome: outcome.state,
    ...publishView(outcome),
    ...(outcome.error && { error: outcome.error.message, exitCode: outcome.error.exitCode }),
  };
}

/** Notes (already published, found after a lost answer) and warnings, to stderr. */
export function printNotes(io: Deps['io'], outcomes: PublishOutcome[]): void {
  for (const o of outcomes) {
    for (const note of o.notes) io.note(note);
    for (const warning of o.warnings) io.warn(warning);
  }
}

/** A single publish: the rows (or JSON, or -q the link); a failure is thrown for the exit code. */
export function printSingle(
  deps: Pick<Deps, 'io' | 'globals'>,
  json: JsonOutput,
  outcome: PublishOutcome,
  title: string,
): void {
  if (outcome.error) throw outcome.error;
  const { io } = deps;
  printNotes(io, [outcome]);
  const view = publishView(outcome);
  if (json.enabled) return json.print(io, view);
  if (deps.globals.quiet) {
    const short = view.link ?? view.id;
    if (short) io.out(short);
    return;
  }
  io.out(publishRows(view));
  if (outcome.state === 'published')
    io.success(`Sent "${title}" to WordPress (status ${view.status ?? 'unknown'})`);
}

/**
 * `published:`, `id:`, `link:`, `status:`, `type:` rows, as a person reads them. A post that is on the site
 * but whose status could not be learnt says `unknown` (JSON keeps `null`) rather than leave a blank that
 * reads like "none".
 */
export function publishRows(view: PublishView): string {
  const known = (v: string | null): string | null => (v === null && view.published ? 'unknown' : v);
  const rows: [string, unknown][] = [
    ['published', view.published],
    ['id', view.id],
    ['link', view.link],
    ['status', known(view.status)],
    ['type', known(view.type)],
  ];
  return rows.map(([k, v]) => `${`${k}:`.padEnd(11)}${v === null ? '' : String(v)}`.trimEnd()).join('\n');
}

/** A batch: every file's row, then the worst failure thrown (exit code of the worst outcome). */
export async function printBatch(
  deps: Pick<Deps, 'io' | 'globals'>,
  json: JsonOutput,
  outcomes: PublishOutcome[],
): Promise<void> {
  const { io } = deps;
  printNotes(io, outcomes);
  const rows = outcomes.map(batchRow);
  if (json.enabled) {
    json.print(io, rows);
  } else if (deps.globals.quiet) {
    const links = rows.filter((r) => r.published).map((r) => r.link ?? r.id ?? '');
    if (links.length) io.out(links.join('\n'));
  } else {
    // OUTCOME is what blogctl did with the file; WP STATUS is the status WordPress gave the post (future,
    // publish, draft…), which may differ from the one asked for.
    const columns: Column<BatchRow>[] = [
      { header: 'FILE', value: (r) => r.file, flexible: true },
      { header: 'OUTCOME', value: (r) => r.outcome },
      { header: 'WP STATUS', value: (r) => r.status ?? (r.published ? 'unknown' : null) },
      { header: 'ID', value: (r) => r.id },
      { header: 'LINK', value: (r) => r.link, flexible: true },
      { header: 'ERROR', value: (r) => r.error, flexible: true },
    ];
    // Piped: TSV without loading the terminal table's width measuring (see output/tsv.ts).
    if (io.stdoutIsTTY) (await import('../../output/table.js')).printTable(io, columns, rows);
    else (await import('../../output/tsv.js')).printTsv(io, columns, rows);
  }
  const failure = worstFailure(outcomes);
  if (failure) throw failure;
  const sent = outcomes.filter((o) => o.state === 'published').length;
  io.success(
    `Published ${sent} of ${outcomes.length} post${outcomes.length === 1 ? '' : 's'}${sent < outcomes.length ? ` (${outcomes.length - sent} already published)` : ''}`,
  );
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
    `${failed.length} of ${outcomes.length} posts not published (${names})${ok ? `; ${ok} published or already published` : ''}: ${worst.source}: ${worst.error!.message}`,
    { details: failed.slice(0, 10).map((o) => `${o.source}: ${o.error!.message}`) },
  );
}
