// IOStreams: owns the decisions about terminals, colour, prompting and where each kind of text goes.
// Data → stdout. Progress, spinners, prompts, warnings and success notes → stderr.
import type { Readable, Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import { redact } from './redact.js';

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
  readonly stdin: Readable & { isTTY?: boolean };
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
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.stdinIsTTY = Boolean(this.stdin.isTTY);
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

  /** A person is there to answer: stdin and stderr are terminals, no CI, no --no-input. */
  get canPrompt(): boolean {
    return this.noInputReason === undefined;
  }

  get columns(): number {
    const fromEnv = Number(this.env['COLUMNS']);
    if (this.stdout.columns) return this.stdout.columns;
    if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv;
    return 80;
  }

  /** Data, to stdout. */
  out(text: string): void {
    this.stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** Raw data to stdout, exactly as given (for `--field content`). */
  outRaw(text: string): void {
    this.stdout.write(redact(text));
  }

  /** One JSON document to stdout. */
  json(value: unknown): void {
    this.stdout.write(redact(`${JSON.stringify(value, null, 2)}\n`));
  }

  /** Progress and notes to stderr; hidden by --quiet. */
  note(text: string): void {
    if (!this.quiet) this.stderr.write(redact(`${text}\n`));
  }

  /** A success note ("✔ Deleted …"): stderr, and only for a person at a terminal. */
  success(text: string): void {
    if (!this.quiet && this.stderrIsTTY)
      this.stderr.write(redact(`${this.paintErr('green', '✔')} ${text}\n`));
  }

  warn(text: string): void {
    this.stderr.write(redact(`${this.paintErr('yellow', 'warning:')} ${text}\n`));
  }

  error(text: string): void {
    this.stderr.write(redact(`${this.paintErr('red', 'error:')} ${text}\n`));
  }

  debug(line: string): void {
    if (this.debugEnabled) this.stderr.write(redact(`[debug] ${line}\n`));
  }

  paint(style: Style, text: string): string {
    return this.color ? ansi(colorful, style, text) : text;
  }

  paintErr(style: Style, text: string): string {
    return this.colorErr ? ansi(colorful, style, text) : text;
  }

  /** A spinner with elapsed time on stderr, only on a terminal; ora loads only when one is shown. */
  async spinner(text: string): Promise<Spinner> {
    if (!this.stderrIsTTY || this.quiet) return { update() {}, stop() {} };
    const { default: ora } = await import('ora');
    const started = Date.now();
    let label = text;
    const spinner = ora({
      text: label,
      stream: this.stderr,
      color: 'cyan',
      isEnabled: true,
      discardStdin: false,
    }).start();
    const timer = setInterval(() => {
      spinner.text = `${label} ${this.paintErr('dim', `(${Math.round((Date.now() - started) / 1000)}s)`)}`;
    }, 1000);
    timer.unref();
    return {
      update(next) {
        label = next;
        spinner.text = next;
      },
      stop() {
        clearInterval(timer);
        spinner.stop();
      },
    };
  }
}

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

// Whether to colour is decided here (NO_COLOR, --no-color, CLICOLOR, FORCE_COLOR, TTY), so chalk always paints.
const colorful = new Chalk({ level: 1 });

function ansi(chalk: ChalkInstance, style: Style, text: string): string {
  return chalk[style](text);
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

export function decideColor(isTTY: boolean, env: NodeJS.ProcessEnv, noColorFlag?: boolean): boolean {
  if (noColorFlag) return false;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['CLICOLOR'] === '0') return false;
  if (env['TERM'] === 'dumb') return false;
  return isTTY;
}
