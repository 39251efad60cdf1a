// Runs the real command tree in this process — `run(argv, {env, io})` of src/cli.ts — with captured IO, the way
// runCli (cli.ts) runs the built CLI as a process: same arguments, same environment scrubbing, same result
// shape, so a test can move between the two depths without changing its assertions. What only a process can
// show (the exit code the OS sees, signals, pipes, terminals, start-up) stays with runCli.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { run } from '../../src/cli.js';
import { IO } from '../../src/output/io.js';
import { cliEnv, type CliOptions, type CliResult } from './cli.js';
import { expectNoSecrets } from './fault-server.js';

/** Runs that change the working folder, one at a time: it is the process's own. */
let inFolder: Promise<unknown> = Promise.resolve();

/**
 * Runs `blogctl ...args` in-process. stdin is a pipe (never a terminal) holding `input`, stdout and stderr are
 * pipes too; `signal` is always null (nothing can kill a function call), and the code is what bin/ would exit
 * with. With `cwd` the run happens in that folder (the worker's working folder changes for the run and comes
 * back after; such runs never overlap, so concurrent tests may use it too).
 */
export async function runInProcess(
  args: string[],
  options: Pick<CliOptions, 'env' | 'input' | 'cwd'> = {},
): Promise<CliResult> {
  const { cwd } = options;
  if (cwd === undefined) return runHere(args, options);
  const turn = inFolder.then(async () => {
    const previous = process.cwd();
    process.chdir(cwd);
    try {
      return await runHere(args, options);
    } finally {
      process.chdir(previous);
    }
  });
  inFolder = turn.catch(() => undefined);
  return turn;
}

async function runHere(args: string[], options: Pick<CliOptions, 'env' | 'input'>): Promise<CliResult> {
  const env = cliEnv(options.env);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  stdin.end(options.input ?? '');
  const io = new IO({
    stdin,
    stdout,
    stderr,
    env,
    noColor: args.includes('--no-color'),
    noInput: args.includes('--no-input'),
    quiet: args.includes('-q') || args.includes('--quiet'),
    debug: args.includes('--debug'),
  });
  const code = await run(['node', 'blogctl', ...args], { env, io });
  // Whatever was written has been delivered by now: PassThrough hands data on synchronously once read.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, signal: null, stdout: out, stderr: err };
}

/**
 * Nothing the commands print may bypass their IO: whatever reaches this process's own stdout or stderr during
 * a test file would be output no test saw (vitest's own reporting does not go through them in a worker). Call
 * at the top of a file.
 */
export function guardStrayOutput(): void {
  const stray: string[] = [];
  beforeAll(() => {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream) as (...a: unknown[]) => boolean;
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        stray.push(String(chunk));
        return write(chunk, ...rest);
      }) as typeof stream.write);
    }
  });
  afterAll(() => {
    vi.restoreAllMocks();
    expectNoSecrets(stray.join(''));
    expect(stray, 'written past the IO of a command').toEqual([]);
  });
}
