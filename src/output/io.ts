// IOStreams: owns the decisions about terminals, colour, prompting and where each kind of text goes.
// Data → stdout. Progress, spinners, prompts, warnings and success notes → stderr.
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { truthy } from '../lib/env-values.js';
import { paintAnsi, type Style } from './ansi.js';
import { redact } from './redact.js';
import { terminalSafe } from './terminal-text.js';
import { usableWidth } from './terminal-width.js';

export interface IOOptions {
  stdin?: Readable & { isTTY?: boolean };
  stdout?: Writable & { isTTY?: boolean; columns?: number };
  stderr?: Writable & { isTTY?: boolean; columns?: number };
  env?: NodeJS.ProcessEnv;
  /** --no-color */
  noColor?: boolean;
  /** --no-input */
  noInput?: boolean;
  quiet?: boolean;
  debug?: boolean;
}

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

export class IO {
  private stdinStream: (Readable & { isTTY?: boolean }) | undefined;
  readonly stdout: Writable & { isTTY?: boolean; columns?: number };
  readonly stderr: Writable & { isTTY?: boolean; columns?: number };
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** Colour on stdout / stderr. */
  readonly color: boolean;
  readonly colorErr: boolean;
  readonly quiet: boolean;
  readonly debugEnabled: boolean;
  readonly noInputReason: string | undefined;
  private readonly env: NodeJS.ProcessEnv;

  constructor(options: IOOptions = {}) {
    this.env = options.env ?? process.env;
    this.stdinStream = options.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    // Asked of fd 0 rather than of process.stdin, whose first use builds a stream for it (on /dev/null, as
    // under cron or a CI runner, a file stream and Node's fs/promises with it): only commands that read
    // stdin pay for that. process.stdin.isTTY is exactly isatty(0).
    this.stdinIsTTY = options.stdin ? Boolean(options.stdin.isTTY) : isatty(0);
    this.stdoutIsTTY = Boolean(this.stdout.isTTY);
    this.stderrIsTTY = Boolean(this.stderr.isTTY);
    this.color = decideColor(this.stdoutIsTTY, this.env, options.noColor);
    this.colorErr = decideColor(this.stderrIsTTY, this.env, options.noColor);
    this.quiet = Boolean(options.quiet);
    this.debugEnabled = Boolean(options.debug) || truthy(this.env['BLOGCTL_DEBUG']);
    this.noInputReason =
      options.noInput || truthy(this.env['BLOGCTL_NO_INPUT'])
        ? '--no-input is set'
        : this.env['CI'] && this.env['CI'] !== 'false' && this.env['CI'] !== '0'
          ? 'CI is set'
          : !this.stdinIsTTY
            ? 'stdin is not a terminal'
            : !this.stderrIsTTY
              ? 'stderr is not a terminal'
              : undefined;
  }

  /** process.stdin unless one was given, made on first use. */
  get stdin(): Readable & { isTTY?: boolean } {
    return (this.stdinStream ??= process.stdin);
  }

  /** A person is there to answer: stdin and stderr are terminals, no CI, no --no-input. */
  get canPrompt(): boolean {
    return this.noInputReason === undefined;
  }

  /** The width tables and summaries fit on stdout: the terminal's, else COLUMNS, else 80 (terminal-width.ts). */
  get columns(): number {
    return usableWidth(this.stdout.columns) ?? usableWidth(this.env['COLUMNS']) ?? 80;
  }

  /** Text for stdout: on a terminal, its control characters shown rather than obeyed (terminal-text.ts). */
  private forStdout(text: string): string {
    return this.stdoutIsTTY ? terminalSafe(redact(text)) : redact(text);
  }

  /** Text for stderr, as forStdout() for stdout. */
  forStderr(text: string): string {
    return this.stderrIsTTY ? terminalSafe(redact(text)) : redact(text);
  }

  /** Data, to stdout. */
  out(text: string): void {
    this.stdout.write(this.forStdout(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** Raw data to stdout, exactly as given (for `--field content`); on a terminal, no control is obeyed. */
  outRaw(text: string): void {
    this.stdout.write(this.forStdout(text));
  }

  /** One JSON document to stdout. */
  json(value: unknown): void {
    this.stdout.write(redact(`${JSON.stringify(value, null, 2)}\n`));
  }

  /**
   * One element of a JSON array for jsonArray(): serialised as `JSON.stringify(array, null, 2)` serialises it
   * (inside a one-element array, so the indentation is JSON.stringify's own), redacted, and as bytes, which
   * live outside the JavaScript heap: 100 MB of elements kept until the list is complete would otherwise be
   * copied and marked by every garbage collection. A secret could span two elements only by containing the
   * line break between them (JSON escapes those inside strings), so redacting each is redacting the whole.
   */
  jsonElement(value: unknown): Buffer {
    const text = redact(JSON.stringify([value], null, 2).slice(2, -2));
    // Encoded into shared slabs, not a buffer of its own per element (test/bench/RESULTS.md has the cost).
    // Room for 3 bytes per UTF-16 unit, the most UTF-8 needs, spares measuring the text first.
    const room = text.length * 3;
    if (room > SLAB / 8) return Buffer.from(text);
    if (!this.slab || this.slab.length - this.slabUsed < room) {
      this.slab = Buffer.allocUnsafe(SLAB);
      this.slabUsed = 0;
    }
    const start = this.slabUsed;
    this.slabUsed += this.slab.write(text, start);
    return this.slab.subarray(start, this.slabUsed);
  }
  private slab: Buffer | undefined;
  private slabUsed = 0;

  /**
   * The JSON array json() would write, from its elements made by jsonElement(): the same bytes, written a
   * batch at a time rather than built as one string (a 100 MB list made a 100 MB string, and another for
   * redact()).
   */
  async jsonArray(elements: readonly Uint8Array[]): Promise<void> {
    if (!elements.length) return this.json([]);
    let batch: Uint8Array[] = [OPEN_ARRAY];
    let size = 0;
    for (let i = 0; i < elements.length; i++) {
      if (i) batch.push(SEPARATOR);
      batch.push(elements[i]!);
      size += elements[i]!.length;
      if (size >= WRITE_BATCH) {
        await this.writeData(Buffer.concat(batch));
        batch = [];
        size = 0;
      }
    }
    batch.push(CLOSE_ARRAY);
    await this.writeData(Buffer.concat(batch));
  }

  /** Lines of data to stdout, as out() writes each, in batches that wait for the reader. */
  async outLines(lines: Iterable<string>): Promise<void> {
    let batch = '';
    for (const line of lines) {
      // Redacted one by one, as out() would: a batch boundary can then never hide a secret.
      batch += this.forStdout(line.endsWith('\n') ? line : `${line}\n`);
      if (batch.length >= WRITE_BATCH) {
        await this.writeData(batch);
        batch = '';
      }
    }
    if (batch) await this.writeData(batch);
  }

  /**
   * Writes (already redacted) data to stdout and, when the stream asks for it, waits until it drains, so a slow
   * reader makes us hold at most a batch more.
   */
  private async writeData(text: string | Uint8Array): Promise<void> {
    const stream = this.stdout;
    if (stream.destroyed) return;
    if (stream.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        stream.off('drain', done);
        stream.off('error', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('error', done);
      stream.on('close', done);
    });
  }

  /** Progress and notes to stderr; hidden by --quiet. */
  note(text: string): void {
    if (!this.quiet) this.stderr.write(this.forStderr(`${text}\n`));
  }

  /** A success note ("✔ Deleted …"): stderr, and only for a person at a terminal. */
  success(text: string): void {
    if (!this.quiet && this.stderrIsTTY)
      this.stderr.write(this.forStderr(`${this.paintErr('green', '✔')} ${text}\n`));
  }

  warn(text: string): void {
    this.stderr.write(this.forStderr(`${this.paintErr('yellow', 'warning:')} ${text}\n`));
  }

  error(text: string): void {
    this.stderr.write(this.forStderr(`${this.paintErr('red', 'error:')} ${text}\n`));
  }

  debug(line: string): void {
    if (this.debugEnabled) this.stderr.write(this.forStderr(`[debug] ${line}\n`));
  }

  paint(style: Style, text: string): string {
    return this.color ? paintAnsi(style, text) : text;
  }

  paintErr(style: Style, text: string): string {
    return this.colorErr ? paintAnsi(style, text) : text;
  }

  /**
   * A spinner with elapsed time on stderr, only on a terminal whose width is usable (live-line.ts); ora loads
   * only when one is shown.
   */
  async spinner(text: string): Promise<Spinner> {
    if (!this.stderrIsTTY || this.quiet) return { update() {}, stop() {} };
    const { startLiveLine } = await import('./live-line.js');
    const started = Date.now();
    let label = text;
    const line = await startLiveLine(this.stderr, { text: label, color: this.colorErr });
    if (!line) return { update() {}, stop() {} };
    const timer = setInterval(() => {
      line.text(`${label} ${this.paintErr('dim', `(${Math.round((Date.now() - started) / 1000)}s)`)}`);
    }, 1000);
    timer.unref();
    return {
      update(next) {
        label = next;
        line.text(next);
      },
      stop() {
        clearInterval(timer);
        line.stop();
      },
    };
  }
}

/** About 64 KiB (or Ki characters) per write: few system calls, little held. */
const WRITE_BATCH = 64 * 1024;
/** jsonElement()'s slabs: a few hundred for 100 MB, at most an eighth of one left unused at its end. */
const SLAB = 1024 * 1024;
const OPEN_ARRAY = Buffer.from('[\n');
const SEPARATOR = Buffer.from(',\n');
const CLOSE_ARRAY = Buffer.from('\n]\n');

export type { Style };

// Whether to colour is decided here (NO_COLOR, --no-color, CLICOLOR, FORCE_COLOR, TTY); paintAnsi always paints.

export function decideColor(isTTY: boolean, env: NodeJS.ProcessEnv, noColorFlag?: boolean): boolean {
  if (noColorFlag) return false;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['CLICOLOR'] === '0') return false;
  if (env['TERM'] === 'dumb') return false;
  return isTTY;
}
