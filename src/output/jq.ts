// `--jq <expression>`: the command's JSON document, filtered by jq itself (jq 1.8, compiled to WebAssembly by
// the jq-wasm package), never by a `jq` that may not be installed. The command runs as with --json and writes
// its document into a buffer (jqStdout); when it is done, jq runs once over the whole document and each result
// goes to stdout on a line of its own: a string as its text, anything else as JSON (what `jq -r` prints, and
// what gh's --jq prints). Loaded only when --jq is given: this module (and the 1.4 MB WebAssembly inside it)
// is a chunk of its own that no other command loads.
import { Writable } from 'node:stream';
import type { Jq } from 'jq-wasm';
import { BlogctlError, ExitCode, UsageError } from '../errors.js';

/** Where the command writes its JSON when --jq is given, and what it wrote. */
export interface JqCapture {
  stream: Writable & { isTTY: false };
  /** Everything written, as text; undefined when nothing was. */
  text(): string | undefined;
}

export function jqStdout(): JqCapture {
  const chunks: Buffer[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
        done();
      },
    }),
    { isTTY: false as const },
  );
  return { stream, text: () => (chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined) };
}

let loaded: Promise<Jq> | undefined;

/**
 * jq, loaded once. The inline entry carries the WebAssembly in the JavaScript itself, so the same code runs
 * from src/ and from the bundle in dist/ with no file to find next to it.
 */
function loadJq(): Promise<Jq> {
  return (loaded ??= import('jq-wasm/inline').then((m) => m.loadJq()));
}

/**
 * Fails (exit 2, naming --jq and jq's own message) when the expression does not compile, before the command
 * runs: `blog create --jq '.['` must not create a blog and then fail. The expression is compiled as the body
 * of a function that is never called, so nothing of it runs; only when that fails is it run on its own (with
 * no input, output discarded) for jq's message with the expression's own line and column numbers.
 */
export async function checkJq(expression: string): Promise<void> {
  const jq = await loadJq();
  if (!expression.trim()) throw new UsageError('--jq: give a jq expression, e.g. --jq ".[].id"');
  const wrapped = jq.raw(null, `def blogctl_check: ${expression}\n; empty`, ['-n']);
  if (wrapped.exitCode !== COMPILE_ERROR) return;
  const own = jq.raw(null, expression, ['-n']);
  if (own.exitCode === COMPILE_ERROR) throw jqError(own.stderr);
}

/** jq's results over `document` (a JSON text): one line each, a string as its text, anything else as JSON. */
export async function runJq(expression: string, document: string): Promise<string> {
  try {
    JSON.parse(document);
  } catch {
    throw new UsageError('--jq: this command does not print JSON');
  }
  const jq = await loadJq();
  // Compact output: one result per line, whatever it holds (a string's line breaks are escaped in it).
  const result = jq.raw(document, expression, ['-c']);
  // The command has run by now (it may have created, published or deleted something), so this is not exit 2,
  // which promises that nothing was sent: a script that retries on 2 must not do the work twice.
  if (result.exitCode !== 0) {
    const usage = jqError(result.stderr || `jq exited with code ${result.exitCode}`);
    throw new BlogctlError(
      'jq',
      ExitCode.unexpected,
      `${usage.message} (the command itself completed; jq failed on its output, so nothing was printed)`,
    );
  }
  let out = '';
  for (const line of result.stdout.split('\n')) {
    if (!line) continue;
    const value: unknown = JSON.parse(line);
    out += typeof value === 'string' ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`;
  }
  return out;
}

/** jq's exit code for an expression that does not compile. */
const COMPILE_ERROR = 3;

/** jq's message on one line, without its "jq: error…:" prefix and the source excerpt under it. */
function jqError(stderr: string): UsageError {
  const first = stderr.split('\n').find((l) => l.trim()) ?? 'jq failed';
  const message = first.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/^jq: /, '');
  return new UsageError(`--jq: ${message.replace(/:$/, '')}`);
}
