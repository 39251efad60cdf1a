// Ctrl-C and SIGTERM while a request is in flight (or while waiting to retry): exit 130 at once, one line on
// stderr, no stack, the config dir untouched, and nothing sent again.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, type CliResult } from '../helpers/cli.js';
import { waitUntilWaiting } from '../helpers/process-state.js';
import { waitFor as until } from '../helpers/wait.js';
import {
  SECRETS,
  expectNoSecrets,
  seededConfigDir,
  snapshotDir,
  startFaultServer,
  type FaultServer,
  type RouteName,
  type Step,
} from '../helpers/fault-server.js';

let servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const CREATE_ALL = [
  'blog',
  'create',
  '-k',
  'espresso',
  '--language',
  'English',
  '--tone',
  'Friendly',
  '--structure',
  'Guide',
].concat(['--cta', 'Subscribe', '--audience', 'Beginners', '--length', 'short']);

/** Spawns the CLI, sends `signal` once the server has seen `route` requested, and collects the outcome. */
async function interrupt(
  route: RouteName,
  plan: Step | Step[],
  args: string[],
  signal: NodeJS.Signals,
  waitFor = 1,
): Promise<
  CliResult & {
    server: FaultServer;
    changed: boolean;
  }
> {
  const server = await startFaultServer({ plan: { [route]: plan } });
  servers.push(server);
  const dir = seededConfigDir();
  const before = snapshotDir(dir);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(BLOGCTL_|CI$|HTTPS?_PROXY$|https?_proxy$)/.test(k)) env[k] = v;
  Object.assign(env, SECRETS, { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_RETRY_BASE_MS: '1' });
  const child = spawn(process.execPath, [BIN, '--base-url', server.url, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig })),
  );
  // Nothing else ends the command: the hanging server never answers, a retry waits 30 s, and a command still
  // running after 20 s is killed (a signal, not an exit code).
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await until(() => server.count(route) >= waitFor, `${route} requested ${waitFor} time(s)`, {
    timeoutMs: 10_000,
  });
  // The request sent, the CLI sits waiting for its answer (or for the retry): then the signal.
  await waitUntilWaiting(child.pid!);
  child.kill(signal);
  const { code, signal: endedBy } = await closed;
  clearTimeout(killer);
  // Nothing is kept on this machine, even for a publish interrupted in flight: the next run asks the site.
  const after = snapshotDir(dir);
  return {
    code,
    signal: endedBy,
    stdout,
    stderr,
    server,
    changed: JSON.stringify(after) !== JSON.stringify(before),
  };
}

function expectInterrupted(result: Awaited<ReturnType<typeof interrupt>>): void {
  expect(result.signal, 'exited by itself').toBeNull();
  expect(result.code, result.stderr).toBe(130);
  const lines = result.stderr.split('\n').filter((l) => l.trim());
  expect(lines, result.stderr).toEqual(['error: interrupted']);
  expect(result.stdout).toBe('');
  expect(result.changed, 'config dir untouched').toBe(false);
  expectNoSecrets(result.stdout, result.stderr);
}

describe.each(['SIGINT', 'SIGTERM'] as const)('%s', (signal) => {
  it('during a hanging blog list → 130', async () => {
    const result = await interrupt('list', 'hang', ['blog', 'list'], signal);
    expectInterrupted(result);
    expect(result.server.count('list')).toBe(1);
  });

  it('during a hanging blog create → 130, sent once', async () => {
    const result = await interrupt('create', 'hang', CREATE_ALL, signal);
    expectInterrupted(result);
    expect(result.server.count('create')).toBe(1);
  });

  it('while waiting to retry → 130, no further attempt', async () => {
    const result = await interrupt(
      'list',
      [{ fault: '503', retryAfter: '30' }, 'ok'],
      ['--timeout', '120', 'blog', 'list'],
      signal,
    );
    expectInterrupted(result);
    expect(result.server.count('list')).toBe(1);
  });

  it('during a hanging wp publish → 130, sent once', async () => {
    const args = [
      'wp',
      'publish',
      '--url',
      'https://wp.example',
      '--username',
      'editor',
      '--title',
      'T',
      '--content',
      '<p>x</p>',
    ];
    const result = await interrupt('publish', 'hang', args, signal);
    expectInterrupted(result);
    expect(result.server.count('publish')).toBe(1);
  });

  it('with --json: the error line and one JSON object', async () => {
    const result = await interrupt('list', 'hang', ['blog', 'list', '--json'], signal);
    expect(result.code).toBe(130);
    const lines = result.stderr.split('\n').filter((l) => l.trim());
    expect(lines[0]).toBe('error: interrupted');
    expect(JSON.parse(lines[1]!)).toEqual({ error: 'interrupted', message: 'interrupted', exitCode: 130 });
    expect(lines).toHaveLength(2);
    expect(result.stdout).toBe('');
  });
});

it('a second Ctrl-C does not leave the command hanging', async () => {
  const server = await startFaultServer({ plan: { list: 'hang' } });
  servers.push(server);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^BLOGCTL_/.test(k)) env[k] = v;
  Object.assign(env, SECRETS, { BLOGCTL_CONFIG_DIR: seededConfigDir() });
  const child = spawn(process.execPath, [BIN, '--base-url', server.url, 'blog', 'list'], {
    env,
    stdio: 'pipe',
  });
  child.stdin.end();
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await until(() => server.count('list') >= 1, 'list requested');
  child.kill('SIGINT');
  child.kill('SIGINT');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  expect(await closed).toBe(130);
  clearTimeout(killer);
});
