// BLOGCTL_KEYRING=1 with the real @napi-rs/keyring, on machines where the OS keyring cannot work: no session
// bus, a session bus without a Secret Service, and a D-Bus that accepts the connection and never answers.
// Every case must end in the 0600 file (or the environment), with one warning and at most one wait (3 s) for
// a D-Bus that never answers.
// Where gnome-keyring is installed, the same commands against a real Secret Service keep secrets out of the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessBackend } from '../../src/config/keyring.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { canRun, skipWithout } from '../helpers/tools.js';

const KEY = 'sk_keyring_proc_Hq2Wx9Zr4';
// The sandbox accepts KEY, so a key read back from the keyring can be checked against it.
const WARNING =
  /^warning: the OS keyring is not available \((.+)\); secrets are stored in .+credentials\.json \(mode 0600\)$/m;

let sandbox: TestSandbox;
/** `connections`: how many clients have connected so far (each keyring call that waits on it is one). */
let silentBus: { address: string; server: Server; sockets: Set<Socket>; connections: number };

beforeAll(async () => {
  sandbox = await startTestSandbox({ apiKeys: [KEY] });
  // Accepts D-Bus connections and never says a word: the client blocks in its authentication handshake.
  const path = join(mkdtempSync(join(tmpdir(), 'blogctl-dbus-')), 'bus');
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    silentBus.connections++;
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  silentBus = { address: `unix:path=${path}`, server, sockets, connections: 0 };
});
afterAll(async () => {
  await sandbox.close();
  for (const socket of silentBus.sockets) socket.destroy();
  await new Promise((resolve) => silentBus.server.close(resolve));
});

/**
 * A private session bus that activates nothing: only the services a test starts itself are on it (the
 * machine's gnome-keyring, if installed, must not be auto-started by a call).
 */
async function startBus(): Promise<{ daemon: ChildProcess; address: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-bus-'));
  const config = join(dir, 'bus.conf');
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=${dir}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>`,
  );
  const daemon = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dbus-daemon did not start')), 5_000);
    daemon.stdout!.setEncoding('utf8').once('data', (d: string) => {
      clearTimeout(timer);
      resolve(d.trim());
    });
  });
  return { daemon, address };
}

async function login(dir: string, env: Record<string, string | undefined>) {
  const started = performance.now();
  const result = await runCli(['auth', 'login', '--with-key', '--no-verify'], {
    input: `${KEY}\n`,
    env: { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_KEYRING: '1', ...env },
  });
  return { ...result, ms: performance.now() - started };
}

/**
 * Runs `command` and says how many times it waited on the silent bus: each keyring call that reaches it
 * connects once and is given up by its timer (the warning's "no answer within 3 s").
 */
async function waitsOnSilentBus<T>(command: () => Promise<T>): Promise<{ result: T; waits: number }> {
  const before = silentBus.connections;
  const result = await command();
  return { result, waits: silentBus.connections - before };
}

/**
 * A loose bound on a command that may wait once for the keyring's 3 s: Node starting twice and the command
 * on a loaded machine fit in it; a second 3 s wait is caught by counting waits, not by this.
 */
const LOOSE_BOUND_MS = 20_000;

function expectKeyInFile(dir: string): void {
  const path = join(dir, 'credentials.json');
  expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ apiKeys: { default: KEY } });
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
}

describe('BLOGCTL_KEYRING=1 without a usable keyring', () => {
  it('no session bus: stores the key in the 0600 file, one warning', async () => {
    const dir = tempConfigDir();
    const result = await login(dir, { DBUS_SESSION_BUS_ADDRESS: undefined });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(new RegExp(WARNING.source, 'gm'))).toHaveLength(1);
    expect(result.stderr).not.toContain(KEY);
    expectKeyInFile(dir);
  });

  it('a D-Bus that never answers: gives up after 3 s and falls back', async () => {
    const dir = tempConfigDir();
    const { result, waits } = await waitsOnSilentBus(() =>
      login(dir, { DBUS_SESSION_BUS_ADDRESS: silentBus.address }),
    );
    expect(result.code, result.stderr).toBe(0);
    // Given up by the timer, once: never a second 3 s wait.
    expect(WARNING.exec(result.stderr)?.[1]).toBe('no answer within 3 s');
    expect(waits).toBe(1);
    expect(result.ms).toBeGreaterThan(2_900);
    expect(result.ms).toBeLessThan(LOOSE_BOUND_MS);
    expectKeyInFile(dir);
  });

  it.skipIf(skipWithout('the session-bus keyring test', { 'dbus-daemon': canRun('dbus-daemon') }))(
    'a session bus without a Secret Service: falls back at once',
    async () => {
      let daemon: ChildProcess | undefined;
      try {
        const bus = await startBus();
        daemon = bus.daemon;
        const address = bus.address;
        const dir = tempConfigDir();
        const result = await login(dir, { DBUS_SESSION_BUS_ADDRESS: address });
        expect(result.code, result.stderr).toBe(0);
        // The bus's own answer (no such service), not the 3 s timer's "no answer".
        expect(WARNING.exec(result.stderr)?.[1]).toMatch(/org\.freedesktop\.secrets/);
        expectKeyInFile(dir);
      } finally {
        daemon?.kill();
      }
    },
  );

  it('secrets indexed in a keyring that hangs: the environment still works, 3 s at most lost', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      join(dir, 'credentials.json'),
      JSON.stringify({ keyring: { service: `blogctl:${dir}`, apiKeys: ['default'] } }),
      { mode: 0o600 },
    );
    const env = { BLOGCTL_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: silentBus.address };

    let started = performance.now();
    const { result: list, waits: listWaits } = await waitsOnSilentBus(() =>
      runCli(['--base-url', sandbox.url, 'blog', 'list', '--json'], {
        env: { ...env, BLOGCTL_API_KEY: sandbox.apiKey },
      }),
    );
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
    expect(list.stderr).toMatch(
      /^warning: cannot read a secret from the OS keyring \(no answer within 3 s\); set BLOGCTL_API_KEY/m,
    );
    expect(listWaits).toBe(1);
    expect(performance.now() - started).toBeLessThan(LOOSE_BOUND_MS);

    started = performance.now();
    const { result: status, waits: statusWaits } = await waitsOnSilentBus(() =>
      runCli(['--base-url', sandbox.url, 'auth', 'status'], { env }),
    );
    expect(status.code).toBe(4);
    expect(status.stderr).toMatch(/cannot read a secret from the OS keyring/);
    expect(status.stderr).toMatch(/^error: .*no API key/m);
    expect(statusWaits).toBe(1);
    expect(performance.now() - started).toBeLessThan(LOOSE_BOUND_MS);
  });
});

describe.skipIf(
  skipWithout('the real Secret Service tests', {
    'dbus-daemon': canRun('dbus-daemon'),
    'gnome-keyring-daemon': canRun('gnome-keyring-daemon'),
  }),
)('BLOGCTL_KEYRING=1 with a real Secret Service (gnome-keyring)', () => {
  const daemons: ChildProcess[] = [];
  let busEnv: Record<string, string>;

  beforeAll(async () => {
    const home = mkdtempSync(join(tmpdir(), 'blogctl-keyring-home-'));
    const { daemon: bus, address } = await startBus();
    daemons.push(bus);
    busEnv = { HOME: home, XDG_RUNTIME_DIR: home, DBUS_SESSION_BUS_ADDRESS: address };
    const keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
      env: { ...process.env, ...busEnv },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    daemons.push(keyring);
    keyring.stdin!.end('test-keyring-password');
    const probe = childProcessBackend({ env: { ...process.env, ...busEnv } });
    for (let tries = 0; ; tries++) {
      try {
        // Until the daemon owns its name and has unlocked a collection, writes fail.
        probe.run('blogctl-probe', [
          { op: 'set', account: 'probe', secret: 'probe' },
          { op: 'delete', account: 'probe' },
        ]);
        break;
      } catch (error) {
        if (tries > 50) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  afterAll(() => {
    for (const daemon of daemons.reverse()) daemon.kill();
  });

  it('login, status, sites add/show, logout: secrets only in the keyring, credentials.json holds names', async () => {
    const dir = tempConfigDir();
    const env = { ...busEnv, BLOGCTL_CONFIG_DIR: dir };
    const login = await runCli(['auth', 'login', '--with-key', '--no-verify'], {
      input: `${KEY}\n`,
      env: { ...env, BLOGCTL_KEYRING: '1' },
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toMatch(/warning: .*keyring/);
    const add = await runCli(
      [
        'wp',
        'sites',
        'add',
        'blog',
        '--url',
        'https://blog.example.com',
        '--username',
        'editor',
        '--password-stdin',
        '--no-verify',
      ],
      { input: 'kyrg PASS 1234 abcd\n', env: { ...env, BLOGCTL_KEYRING: '1' } },
    );
    expect(add.code, add.stderr).toBe(0);

    const text = readFileSync(join(dir, 'credentials.json'), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('kyrg');
    expect(JSON.parse(text)).toEqual({
      apiKeys: {},
      sitePasswords: {},
      keyring: { service: `blogctl:${dir}`, apiKeys: ['default'], sitePasswords: ['blog'] },
    });
    const secretService = childProcessBackend({ env: { ...process.env, ...busEnv } });
    expect(secretService.run(`blogctl:${dir}`, [{ op: 'get', account: 'apiKey:default' }])).toEqual([KEY]);

    // Read back without BLOGCTL_KEYRING (a cron job): the key works against the service.
    const status = await runCli(['--base-url', sandbox.url, 'auth', 'status', '--json'], {
      env: { ...env, BLOGCTL_API_KEY: undefined },
    });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ apiKeySource: 'profile', accepted: true });
    expect(status.stdout + status.stderr).not.toContain(KEY);
    const show = await runCli(['wp', 'sites', 'show', 'blog', '--json'], { env });
    expect(JSON.parse(show.stdout)).toMatchObject({ id: 'blog', password: 'stored' });

    const logout = await runCli(['auth', 'logout', '--yes'], { env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(secretService.run(`blogctl:${dir}`, [{ op: 'get', account: 'apiKey:default' }])).toEqual([null]);
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).keyring).toEqual({
      service: `blogctl:${dir}`,
      sitePasswords: ['blog'],
    });
  });
});
