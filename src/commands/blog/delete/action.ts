// `blog delete <id...>`: confirm (terminal) or --yes, then delete with bounded concurrency over one pool.
// Every id is attempted (unless the service refuses the key or cannot be reached); the exit code is the
// worst outcome among them.
import { AuthError, BlogctlError, ExitCode, UsageError, type ExitCodeValue } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { isUnreachable } from '../../../http/retry.js';
import { jsonOutput } from '../../../output/json.js';
import { parseConcurrency } from '../../concurrency.js';
import { confirmOrYes } from '../../confirm.js';
import type { Input } from './command.js';

export interface DeleteOptions {
  ids: string[];
  concurrency: number;
}

export interface DeleteOutcome {
  id: string;
  deleted: boolean;
  /** HTTP status of the answer, when there was one (200, 204, 404, …). */
  status?: number;
  error?: string;
  /** The exit code this id's failure maps to; not printed. */
  exitCode?: ExitCodeValue;
}

/** The fields of each `--json` element; also how `delete --json <id>` is told apart from `--json <fields>`. */
export const OUTPUT_FIELDS = ['id', 'deleted', 'status', 'error'] as const;

export async function action({ args, opts, globals, deps }: Input): Promise<void> {
  const { ids, json } = recoverIds(args[0], globals.json);
  if (!ids.length) throw new UsageError('blog delete: give at least one blog id (see `blogctl blog list`)');
  const output = jsonOutput(json, OUTPUT_FIELDS);
  const concurrency = parseConcurrency(opts.concurrency) ?? deps.settings().concurrency;
  const io = deps.io;

  let titles = new Map<string, string>();
  const count = ids.length === 1 ? 'it' : `these ${ids.length}`;
  await confirmOrYes(
    {
      yes: opts.yes,
      command: 'blog delete',
      action: 'delete',
      question: `Delete ${count}?`,
      untouched: 'nothing was deleted',
      beforeAsking: async () => {
        titles = await lookupTitles(deps, concurrency);
        io.stderr.write(`About to delete ${ids.length} blog post${ids.length === 1 ? '' : 's'}:\n`);
        for (const id of ids)
          io.stderr.write(`  ${id}  ${titles.get(id) ?? io.paintErr('dim', '(not in your list)')}\n`);
      },
    },
    deps,
  );

  const named = (id: string): string => `${id}${titles.has(id) ? ` ${titles.get(id)}` : ''}`;
  // Several ids on a terminal: a live count and each result as it comes (output/progress.ts).
  const { runBatch } = await import('../../../output/progress.js');
  let live = false;
  const outcomes = await runBatch(io, { verb: 'Deleting', labels: ids, signal: deps.signal }, (progress) => {
    live = progress.live;
    return deleteRun({ ids, concurrency }, deps, {
      onStart: (index) => progress.start(index),
      onOutcome: (o, index) =>
        progress.finish(index, {
          ok: o.deleted,
          line: o.deleted ? `Deleted ${named(o.id)}` : outcomeError(o),
        }),
    });
  });
  if (!live) for (const o of outcomes) if (o.deleted) io.success(`Deleted ${named(o.id)}`);
  if (output.enabled) {
    output.print(
      io,
      outcomes.map(({ exitCode: _code, ...o }) => o),
    );
  } else if (globals.quiet) {
    const deleted = outcomes.filter((o) => o.deleted).map((o) => o.id);
    if (deleted.length) io.out(deleted.join('\n'));
  }
  const failure = worstFailure(outcomes);
  if (failure) throw failure;
}

/**
 * The global `--json [fields]` takes an optional value, so in `blog delete --json id1 id2` commander hands
 * "id1" to --json. A value naming any of this command's output fields (id, deleted, status, error) is a field
 * list, so that `--json id,bogus` is refused for its unknown field; anything else was meant as an id and goes
 * back in front of the others. (`--json id` therefore means the field: put --json after the ids, or write
 * --json= , to be unambiguous.)
 */
export function recoverIds(
  ids: string[],
  json: boolean | string | undefined,
): { ids: string[]; json: boolean | string | undefined } {
  let all = ids;
  let outJson = json;
  if (
    typeof json === 'string' &&
    !json.split(',').some((f) => (OUTPUT_FIELDS as readonly string[]).includes(f.trim()))
  ) {
    all = [json, ...ids];
    outJson = true;
  }
  // The same id twice would delete once and then report a 404 for itself.
  return { ids: [...new Set(all.map((id) => id.trim()).filter(Boolean))], json: outJson };
}

/** Titles for the confirmation. Ids not in the list are still attempted, so the service answers 404 for them. */
async function lookupTitles(deps: Pick<Deps, 'blogApi'>, concurrency: number): Promise<Map<string, string>> {
  // The factory builds one client, sized by its first caller: size it for the deletes that follow.
  return (await deps.blogApi({ connections: concurrency })).blogTitles();
}

/**
 * Deletes with at most `concurrency` requests in flight, all over one BlogApi (one connection pool). Both
 * 200-with-JSON and 204 are success. Once the service rejects the API key, or cannot be reached at all
 * (after the retries), the ids not yet started are skipped: every one of them would be rejected the same
 * way, or wait through the same retries for the same answer.
 */
export interface DeleteEvents {
  /** An id is being deleted (what is in flight). */
  onStart?: (index: number) => void;
  /** An id's outcome, as each finishes. */
  onOutcome?: (outcome: DeleteOutcome, index: number) => void;
}

export async function deleteRun(
  options: DeleteOptions,
  deps: Pick<Deps, 'blogApi' | 'signal'>,
  events: DeleteEvents = {},
): Promise<DeleteOutcome[]> {
  const api = await deps.blogApi({ connections: options.concurrency });
  const outcomes: DeleteOutcome[] = new Array(options.ids.length);
  let next = 0;
  let authFailure: AuthError | undefined;
  let unreachable: BlogctlError | undefined;
  const settle = (index: number, outcome: DeleteOutcome): void => {
    outcomes[index] = outcome;
    events.onOutcome?.(outcome, index);
  };
  const worker = async (): Promise<void> => {
    // After Ctrl-C no other id is started: the run is ending with exit 130.
    while (next < options.ids.length && !deps.signal.aborted) {
      const index = next++;
      const id = options.ids[index]!;
      if (authFailure) {
        settle(index, {
          id,
          deleted: false,
          error: `${id}: not attempted: the service rejected the API key`,
          exitCode: ExitCode.auth,
        });
        continue;
      }
      if (unreachable) {
        settle(index, {
          id,
          deleted: false,
          error: `${id}: not attempted: ${unreachable.message}`,
          exitCode: ExitCode.unavailable,
        });
        continue;
      }
      events.onStart?.(index);
      try {
        const result = await api.deleteBlog(id);
        settle(index, { id, deleted: true, status: result.status });
      } catch (error) {
        // Ctrl-C ends the whole command (exit 130), not one id.
        if (
          deps.signal.aborted ||
          !(error instanceof BlogctlError) ||
          error.exitCode === ExitCode.interrupted
        )
          throw error;
        if (error instanceof AuthError) authFailure = error;
        if (isUnreachable(error)) unreachable ??= error;
        settle(index, {
          id,
          deleted: false,
          ...(error.context.status !== undefined && { status: error.context.status }),
          error: error.message,
          exitCode: error.exitCode,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, options.ids.length) }, worker));
  // Interrupted between two ids: the ids left have no outcome, and the run ends with exit 130.
  if (deps.signal.aborted) throw deps.signal.reason;
  return outcomes;
}

/** An id's failure as one line, naming the id once. */
function outcomeError(o: DeleteOutcome): string {
  const error = o.error ?? 'not deleted';
  return error.includes(o.id) ? error : `${o.id}: ${error}`;
}

/** One error for the run: the highest exit code among the failures (7 unavailable > 6 > 5 not found > 4). */
export function worstFailure(outcomes: DeleteOutcome[]): BlogctlError | undefined {
  const failed = outcomes.filter((o) => !o.deleted);
  if (!failed.length) return undefined;
  const code = Math.max(...failed.map((o) => o.exitCode ?? ExitCode.unexpected)) as ExitCodeValue;
  const kind =
    { 4: 'auth', 5: 'not_found', 6: 'rejected', 7: 'unavailable' }[code as 4 | 5 | 6 | 7] ?? 'unexpected';
  const deleted = outcomes.length - failed.length;
  const shown =
    failed
      .slice(0, 10)
      .map((o) => o.id)
      .join(', ') + (failed.length > 10 ? `, … ${failed.length - 10} more` : '');
  // One id: its own error is the whole story. Several: one summary line ending with the failure that set the
  // exit code (all a script reading stderr gets), each failure as a hint (on a terminal, or in --json).
  const only = outcomes.length === 1 ? failed[0] : undefined;
  if (only) {
    return new BlogctlError(kind, code, only.error ?? `could not delete ${only.id}`, {
      ...(only.status !== undefined && { status: only.status }),
    });
  }
  const worst = failed.find((o) => (o.exitCode ?? ExitCode.unexpected) === code)!;
  return new BlogctlError(
    kind,
    code,
    `${failed.length} of ${outcomes.length} blog posts not deleted (${shown})${deleted ? `; ${deleted} deleted` : ''}: ${worst.error ?? `${worst.id}: not deleted`}`,
    { details: failed.slice(0, 10).map((o) => o.error ?? `${o.id}: not deleted`) },
  );
}
