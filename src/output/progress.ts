// Progress through a batch (`wp publish` of several sources, `blog delete` of several ids). On a terminal
// (stderr a TTY, no --quiet): a live line on stderr with the count, what is in flight and the elapsed time
// (ora, loaded only then), and each item's result line printed above it as the item finishes. Off a terminal:
// nothing at all, so CI logs and piped output are as they were. Either way it keeps track of which items were
// done, are in flight and were not started, for what an interrupted run says (interruptedLines()).
import type { IO, Style } from './io.js';
import { redact } from './redact.js';
import { terminalSafe, visible } from './terminal-text.js';
import { usableWidth } from './terminal-width.js';

export interface BatchProgressOptions {
  /** What the live line says is happening: "Publishing", "Deleting". */
  verb: string;
  /** One label per item, in the batch's order (a source, an id). */
  labels: readonly string[];
  /** The run's signal: an item started after Ctrl-C was never sent, so it is not counted as in flight. */
  signal?: AbortSignal;
}

export interface ItemResult {
  ok: boolean;
  /** Printed as the item finishes, on a terminal; without one, the item is only counted. */
  line?: string;
  notes?: readonly string[];
  warnings?: readonly string[];
}

export interface BatchProgress {
  /** Whether a live line is shown and each result printed as it finishes (a terminal, not --quiet, 2 items or more). */
  readonly live: boolean;
  /** Item `index` is being sent. */
  start(index: number): void;
  /**
   * Item `index` is finished; on a terminal `line` (its result) is printed as it finishes, followed by its
   * `notes` and `warnings`, if any.
   */
  finish(index: number, result: ItemResult): void;
  /** Ends the live line (idempotent). */
  stop(): void;
  /**
   * What a run interrupted now had done, had in flight (and may have happened: the answer never came) and had
   * not attempted, as lines for stderr.
   */
  interruptedLines(): string[];
}

/** Items listed per group by interruptedLines(); the rest are counted. */
const LISTED = 10;

export async function batchProgress(
  io: Pick<IO, 'stderr' | 'stderrIsTTY' | 'quiet' | 'colorErr' | 'paintErr'>,
  options: BatchProgressOptions,
): Promise<BatchProgress> {
  const { labels, verb } = options;
  const done = new Set<number>();
  const inFlight = new Set<number>();
  const tracker = {
    start(index: number) {
      if (!options.signal?.aborted) inFlight.add(index);
    },
    finish(index: number) {
      inFlight.delete(index);
      done.add(index);
    },
    interruptedLines(): string[] {
      const group = (title: string, indices: number[]): string[] => {
        if (!indices.length) return [];
        const shown = indices.slice(0, LISTED).map((i) => `  ${labels[i]}`);
        if (indices.length > LISTED) shown.push(`  … and ${indices.length - LISTED} more`);
        return [`${title} (${indices.length}):`, ...shown];
      };
      const all = labels.map((_, i) => i);
      const lines = [
        ...group(
          'Done',
          [...done].sort((a, b) => a - b),
        ),
        ...group(
          'In flight, may have happened',
          [...inFlight].sort((a, b) => a - b),
        ),
        ...group(
          'Not attempted',
          all.filter((i) => !done.has(i) && !inFlight.has(i)),
        ),
      ];
      return lines;
    },
  };
  // A live line is redrawn in place: it needs a terminal's cursor control (a stream that only says isTTY,
  // as a test's stand-in may, gets the results at the end instead) and a usable width (live-line.ts).
  const redraws = typeof (io.stderr as { cursorTo?: unknown }).cursorTo === 'function';
  const off = { ...tracker, live: false, finish: (index: number) => tracker.finish(index), stop() {} };
  if (!io.stderrIsTTY || !redraws || io.quiet || labels.length < 2) return off;

  const { startLiveLine } = await import('./live-line.js');
  const { fit } = await import('./table.js');
  const started = Date.now();
  let failed = 0;
  const columns = (): number => usableWidth((io.stderr as { columns?: number }).columns) ?? 80;
  const text = (): string => {
    const count = `${verb} ${done.size}/${labels.length}${failed ? ` · ${failed} failed` : ''}`;
    const flying = visible([...inFlight].map((i) => labels[i]).join(', '));
    const elapsed = io.paintErr('dim', `(${Math.round((Date.now() - started) / 1000)}s)`);
    // One line, always: the spinner's frame and a space before it, the elapsed time after it.
    const room = columns() - 2 - count.length - 8;
    return `${count}${flying && room > 8 ? ` · ${fit(flying, room - 3)}` : ''} ${elapsed}`;
  };
  const spinner = await startLiveLine(io.stderr, { text: text(), color: io.colorErr });
  if (!spinner) return off;
  const timer = setInterval(() => spinner.text(text()), 1000);
  timer.unref();
  let stopped = false;
  const mark = (style: Style, symbol: string): string => io.paintErr(style, symbol);
  return {
    ...tracker,
    live: true,
    start(index) {
      tracker.start(index);
      if (!stopped) spinner.text(text());
    },
    finish(index, result) {
      tracker.finish(index);
      if (!result.ok) failed++;
      if (stopped) return;
      if (result.line === undefined) {
        spinner.text(text());
        return;
      }
      // ora clears its line, lets this through, and draws itself again below it; a line stopped by a resize
      // to an unusable width still gets each result.
      const lines = [
        `${result.ok ? mark('green', '✔') : mark('red', '✖')} ${result.line}`,
        ...(result.notes ?? []),
        ...(result.warnings ?? []).map((w) => `${mark('yellow', 'warning:')} ${w}`),
      ];
      io.stderr.write(terminalSafe(redact(lines.map((l) => `${l}\n`).join(''))));
      spinner.text(text());
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      spinner.stop();
    },
  };
}

/**
 * Runs a batch with its progress (batchProgress), and when it is interrupted (Ctrl-C, SIGTERM) writes what
 * was done, in flight and not attempted to stderr before the error goes on to `error: interrupted` (exit
 * 130). That report is written off a terminal too: a cancelled CI job's log then says what it did.
 */
export async function runBatch<T>(
  io: Pick<IO, 'stderr' | 'stderrIsTTY' | 'quiet' | 'colorErr' | 'paintErr'>,
  options: BatchProgressOptions,
  run: (progress: BatchProgress) => Promise<T>,
): Promise<T> {
  const progress = await batchProgress(io, options);
  try {
    return await run(progress);
  } catch (error) {
    progress.stop();
    if (options.signal?.aborted && options.labels.length > 1)
      io.stderr.write(
        (io.stderrIsTTY ? terminalSafe : (text: string) => text)(
          redact(
            progress
              .interruptedLines()
              .map((line) => `${line}\n`)
              .join(''),
          ),
        ),
      );
    throw error;
  } finally {
    progress.stop();
  }
}
