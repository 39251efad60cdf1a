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

/** What jq-wasm's raw() answers. */
interface JqResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * jq as the engine the worker loads: exported for the worker, which imports this very module in dist/ (where
 * jq-wasm is bundled into it) and jq-wasm itself when run from src/.
 */
export function loadEngine(): Promise<Jq> {
  return import('jq-wasm/inline').then((m) => m.loadJq());
}

/**
 * The worker: it loads jq and answers each request with raw()'s result. jq runs synchronously and a filter
 * may never end (`def f: f; f`, `range(1e9)`); in a worker thread the main thread stays free to see Ctrl-C
 * and ends it with terminate(). The code is given as text, so the same worker runs from src/ and from the
 * bundle; `workerData` names the module to load jq from.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then(async (m) => {
  const ns = m.loadEngine || m.loadJq ? m : m.default;
  const jq = await (ns.loadEngine || ns.loadJq)();
  parentPort.on('message', ({ input, filter, flags }) => parentPort.postMessage(jq.raw(input, filter, flags)));
  parentPort.postMessage('ready');
});
`;

interface Engine {
  raw(input: string | null, filter: string, flags: string[], signal?: AbortSignal): Promise<JqResult>;
}

let engine: Promise<Engine> | undefined;

/** The worker, started once (with the first --jq check) and idle in between without keeping Node alive. */
function startEngine(): Promise<Engine> {
  return (engine ??= (async (): Promise<Engine> => {
    const [{ Worker }, { createRequire }, { pathToFileURL }, { getHeapStatistics }] = await Promise.all([
      import('node:worker_threads'),
      import('node:module'),
      import('node:url'),
      import('node:v8'),
    ]);
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { module: engineModule(createRequire, pathToFileURL) },
      // A worker with limits that runs out of memory ends alone (an error here); without, the whole process
      // would abort. Its limit is the main thread's own.
      resourceLimits: { maxOldGenerationSizeMb: Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20) },
      stdout: false,
      stderr: false,
    });
    let failure: Error | undefined;
    let waiting: ((message: unknown) => void) | undefined;
    let failed: ((error: Error) => void) | undefined;
    worker.on('message', (message: unknown) => waiting?.(message));
    const fail = (error: Error): void => {
      failure ??= error;
      failed?.(failure);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the jq worker ended (exit code ${code})`)));
    /** The worker's next message; the worker keeps Node alive only while one is awaited. */
    const next = (signal?: AbortSignal): Promise<unknown> =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        if (signal?.aborted) return reject(signal.reason as Error);
        const onAbort = (): void => {
          // A filter that never ends ends here; a later --jq in this process starts a new worker.
          engine = undefined;
          void worker.terminate();
          settle();
          reject(signal!.reason as Error);
        };
        const settle = (): void => {
          waiting = failed = undefined;
          signal?.removeEventListener('abort', onAbort);
          worker.unref();
        };
        waiting = (message) => {
          settle();
          resolve(message);
        };
        failed = (error) => {
          settle();
          reject(error);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        worker.ref();
      });
    await next();
    let queue: Promise<unknown> = Promise.resolve();
    return {
      raw(input, filter, flags, signal) {
        const answer = queue.then(() => {
          if (signal?.aborted) throw signal.reason as Error;
          const reply = next(signal);
          worker.postMessage({ input, filter, flags });
          return reply as Promise<JqResult>;
        });
        queue = answer.catch(() => undefined);
        return answer;
      },
    };
  })()).catch((error: unknown) => {
    engine = undefined;
    throw error;
  });
}

/**
 * The module the worker loads jq from: this one in dist/, where jq-wasm is bundled into it; from src/
 * (TypeScript, run by the test runner), which Node cannot load in a worker, jq-wasm itself.
 */
function engineModule(
  createRequire: typeof import('node:module').createRequire,
  pathToFileURL: typeof import('node:url').pathToFileURL,
): string {
  try {
    const here = import.meta.url;
    return here.endsWith('.ts') ? pathToFileURL(createRequire(here).resolve('jq-wasm/inline')).href : here;
  } catch (error) {
    throw new Error(`jq cannot be found: ${(error as Error).message}`);
  }
}

/**
 * Fails (exit 2, naming --jq and jq's own message) when the expression does not compile, before the command
 * runs: `blog create --jq '.title | lenght'` must not create a blog and then fail. jq reports an unknown
 * function or variable only when it binds the whole program, so the expression is compiled as the right-hand
 * side of `empty |`: bound in full, never run. Only when that wrapping itself is what jq rejects (a program
 * that starts with `import` or `include`, or one that is only a comment) is the expression compiled on its
 * own (with no input); its line numbers are then its own. Runs in the worker, so Ctrl-C stops it too.
 */
export async function checkJq(expression: string, signal?: AbortSignal): Promise<void> {
  if (!expression.trim()) throw new UsageError('--jq: give a jq expression, e.g. --jq ".[].id"');
  const jq = await startEngine();
  const wrapped = await jq.raw(null, `empty |\n${expression}\n`, ['-n'], signal);
  if (wrapped.exitCode !== COMPILE_ERROR) return;
  if (!/syntax error/.test(wrapped.stderr)) throw jqError(unwrapLines(wrapped.stderr));
  const own = await jq.raw(null, expression, ['-n'], signal);
  if (own.exitCode === COMPILE_ERROR) throw jqError(own.stderr);
}

/** jq's message about the wrapped expression, with the expression's own line numbers. */
function unwrapLines(stderr: string): string {
  return stderr.replace(/(at <top-level>, line )(\d+)/g, (_all, at: string, line: string) => {
    return `${at}${Math.max(1, Number(line) - 1)}`;
  });
}

/**
 * jq's results over `document` (a JSON text): one line each, a string as its text, anything else as JSON.
 * `signal` (Ctrl-C, SIGTERM) ends a filter that is still running; it then rejects with the signal's reason.
 */
export async function runJq(expression: string, document: string, signal?: AbortSignal): Promise<string> {
  try {
    JSON.parse(document);
  } catch {
    throw new UsageError('--jq: this command does not print JSON');
  }
  const jq = await startEngine();
  // Compact output: one result per line, whatever it holds (a string's line breaks are escaped in it).
  const result = await jq.raw(document, expression, ['-c'], signal);
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
