// A terminal that reports 0 columns (`script` after `stty cols 0`, as in some git hooks and CI runners), or
// that is resized to 0 while a command runs: `blog create`'s spinner and the live line of a batch `blog
// delete` must neither loop redrawing nor stop Ctrl-C from working. Each run is a real pseudo-terminal made
// by util-linux `script`, the CLI inside it talking to a real server on 127.0.0.1; every wait is bounded
// (a command that spins forever fails the test instead of hanging it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../helpers/wait.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, createFlags } from '../helpers/cli.js';
import {
  SECRETS,
  seededConfigDir,
  startFaultServer,
  type FaultServer,
  type RouteName,
} from '../helpers/fault-server.js';

const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));
const hasScript = SCRIPT !== undefined && spawnSync(SCRIPT, ['--version']).status === 0;

let servers: FaultServer[] = [];
let children: ChildProcess[] = [];
let runs: Run[] = [];
afterEach(async () => {
  // A CLI that spins on is killed by its own pid (the shell `script` ran may already be gone).
  for (const run of runs) {
    const pid = run.pid();
    if (pid !== undefined && run.code() === undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already ended.
      }
    }
  }
  runs = [];
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children = [];
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

const waitUntil = (check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> =>
  waitFor(check, what, { timeoutMs, everyMs: 25 });

interface Run {
  dir: string;
  /** What the terminal showed (the CLI's stdout and stderr, as written to the pseudo-terminal). */
  screen(): string;
  /** The CLI's pid, once it has started. */
  pid(): number | undefined;
  /** The CLI's exit code, once it has ended. */
  code(): number | undefined;
  /** Whether `script` has ended: all the CLI wrote has then reached screen(). */
  closed(): boolean;
}

/**
 * Runs `blogctl args` inside `script` on a terminal of `startCols` columns; when the file `go` appears in the
 * run's directory the shell sets the terminal to 0 columns (a resize the CLI sees as SIGWINCH).
 */
function underScript(server: FaultServer, args: string[], startCols: number): Run {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-cols-'));
  const cli = [process.execPath, BIN, '--base-url', server.url, ...args].map(quote).join(' ');
  const go = quote(join(dir, 'go'));
  const shell = [
    `stty cols ${startCols} rows 24`,
    `${cli} & echo $! > ${quote(join(dir, 'pid'))}`,
    `child=$!`,
    `while [ ! -e ${go} ] && kill -0 $child 2>/dev/null; do sleep 0.05; done`,
    `[ -e ${go} ] && stty cols 0`,
    `wait $child; echo $? > ${quote(join(dir, 'code'))}`,
  ].join('\n');
  const env = cliEnv({
    ...SECRETS,
    BLOGCTL_CONFIG_DIR: seededConfigDir(),
    BLOGCTL_RETRY_BASE_MS: '1',
    SHELL: '/bin/sh',
    TERM: 'xterm-256color',
  });
  const child = spawn(SCRIPT!, ['-qfec', shell, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let screen = '';
  let closed = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => (screen += d));
  child.on('close', () => (closed = true));
  child.stderr.resume();
  const read = (name: string): number | undefined => {
    const file = join(dir, name);
    if (!existsSync(file)) return undefined;
    const text = readFileSync(file, 'utf8').trim();
    return text ? Number(text) : undefined;
  };
  const run = {
    dir,
    screen: () => screen,
    pid: () => read('pid'),
    code: () => read('code'),
    closed: () => closed,
  };
  runs.push(run);
  return run;
}

async function serve(route: RouteName, fault: 'ok' | 'hang'): Promise<FaultServer> {
  const server = await startFaultServer({ plan: { [route]: fault } });
  servers.push(server);
  return server;
}

/** The cursor-up-and-erase pair ora writes for each line it clears. */
const CLEAR_LINE = '\u001b[1A\u001b[0K';
/** What ora writes when it stops. */
const SHOW_CURSOR = '\u001b[?25h';

const CREATE = ['blog', 'create', ...createFlags('espresso')];
const DELETE = ['blog', 'delete', 'blog-1', 'blog-2', 'blog-3', '--yes'];

describe.skipIf(!hasScript)('a terminal of 0 columns', () => {
  beforeAll(() => {
    // The CLI must see a terminal: stderr is the pseudo-terminal `script` made.
    expect(SCRIPT).toBeDefined();
  });

  it('blog create ends and prints the blog', async () => {
    const server = await serve('create', 'ok');
    const run = underScript(server, CREATE, 0);
    await waitUntil(() => run.code() !== undefined && run.closed(), 'blog create to end');
    expect(run.code(), run.screen().slice(0, 2000)).toBe(0);
    expect(run.screen()).toContain('Created blog blog-new');
    expect(run.screen().split(CLEAR_LINE).length).toBeLessThan(10);
  });

  it.each([
    ['blog create', 'create', CREATE],
    ['a batch blog delete', 'delete', DELETE],
  ] as const)('%s waiting on the server stops on Ctrl-C (SIGINT) with 130', async (_name, route, args) => {
    const server = await serve(route, 'hang');
    const run = underScript(server, [...args], 0);
    await waitUntil(() => server.count(route) >= 1 && run.pid() !== undefined, 'the request');
    process.kill(run.pid()!, 'SIGINT');
    await waitUntil(() => run.code() !== undefined && run.closed(), 'the CLI to end after SIGINT');
    expect(run.code()).toBe(130);
    expect(run.screen()).toContain('interrupted');
  });

  it.each([
    ['blog create', 'create', CREATE],
    ['a batch blog delete', 'delete', DELETE],
  ] as const)(
    '%s: a terminal resized to 0 columns while the live line is drawn stops it; SIGINT still ends the run',
    async (_name, route, args) => {
      const server = await serve(route, 'hang');
      const run = underScript(server, [...args], 80);
      await waitUntil(() => server.count(route) >= 1 && run.pid() !== undefined, 'the request');
      // The live line is being drawn: its text is on the screen.
      await waitUntil(() => /Generating|Deleting/.test(run.screen()), 'the live line');
      const drawn = run.screen().length;
      writeFileSync(join(run.dir, 'go'), '');
      // Redrawn at 0 columns, a spinner clears lines forever; stopped, it shows the cursor again.
      await waitUntil(
        () => run.screen().slice(drawn).includes(SHOW_CURSOR) || run.screen().split(CLEAR_LINE).length > 50,
        'the live line to stop or to spin',
      );
      process.kill(run.pid()!, 'SIGINT');
      await waitUntil(() => run.code() !== undefined && run.closed(), 'the CLI to end after SIGINT');
      expect(run.code()).toBe(130);
      expect(run.screen().split(CLEAR_LINE).length).toBeLessThan(50);
    },
  );
});
