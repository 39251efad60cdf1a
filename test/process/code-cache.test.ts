// The start-up loader's code cache (src/startup/loader.ts), on Node 20: the pack of small chunks and each
// chunk outside it are compiled with V8 data written by an earlier run. Speed is the bench's business; this
// checks what the cache must never do: hand V8 damaged bytes, break a command, grow without bound, or keep
// entries of another build. Each case runs the built CLI as a process, with a cache directory of its own, and
// reads what the loader did from its NODE_DEBUG=blogctl lines.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import * as nodeModule from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandKey } from '../../src/startup/loader.js';
import { BIN, createFlags } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'blogctl-code-cache-'));
const VERSION = (
  JSON.parse(readFileSync(join(dirname(BIN), '../package.json'), 'utf8')) as { version: string }
).version;
/** Node ≥ 22 has a compile cache of its own, which the loader uses instead of this one. */
const nativeCompileCache =
  typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The loader's lines: `<file> <n> KB, <what happened>…`. */
  trace: string[];
}

/** A run's environment: the cache under `cacheHome`, the loader's trace on, nothing from this process's. */
function envFor(cacheHome: string, env: Record<string, string>): Record<string, string | undefined> {
  return {
    PATH: process.env['PATH'],
    HOME: cacheHome,
    BLOGCTL_CONFIG_DIR: join(cacheHome, 'config'),
    XDG_CACHE_HOME: cacheHome,
    BLOGCTL_API_KEY: 'code-cache-test-key',
    BLOGCTL_WP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx',
    NODE_DEBUG: 'blogctl',
    ...env,
  };
}

function ran(status: number | null, stdout: string, stderr: string): Run {
  const trace = [...stderr.matchAll(/^BLOGCTL \d+: (.*)$/gm)].map((m) => m[1]!);
  return { status, stdout, stderr, trace };
}

function run(args: string[], cacheHome: string, env: Record<string, string> = {}, bin = BIN): Run {
  const res = spawnSync(process.execPath, [bin, ...args], {
    env: envFor(cacheHome, env),
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  return ran(res.status, res.stdout, res.stderr);
}

/** run(), without blocking this process's event loop (for a server it runs itself). */
async function runAsync(
  args: string[],
  cacheHome: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Run> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
    env: envFor(cacheHome, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return ran(status, stdout, stderr);
}

/** The trace line of the pack, or of the chunk whose name starts with `prefix`. */
function line(r: Run, prefix: string): string {
  const found = r.trace.find((l) => l.startsWith(prefix));
  expect(found, `no "${prefix}" in:\n${r.stderr}`).toBeDefined();
  return found!;
}

/** The directory the loader keeps this install's entries in. */
function entriesDir(cacheHome: string): string {
  const parent = join(cacheHome, 'blogctl');
  const dirs = readdirSync(parent);
  expect(dirs).toHaveLength(1);
  return join(parent, dirs[0]!);
}

function fresh(name: string): string {
  return mkdtempSync(join(root, `${name}-`));
}

describe.skipIf(nativeCompileCache)('the code cache', () => {
  it('a command writes the cache of the pack it reads on its next run, private to the user', () => {
    const home = fresh('first');
    const first = run(['--version'], home);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${VERSION}\n`);
    expect(line(first, 'pack-')).toMatch(/cache miss/);
    // The entry runs from the pack.
    expect(line(first, 'cli-')).toMatch(/in pack-/);

    const dir = entriesDir(home);
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^pack-\w+\.cjs\.root\.v8$/)]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);

    const second = run(['--version'], home);
    expect(second.stdout).toBe(`${VERSION}\n`);
    expect(line(second, 'pack-')).toMatch(/cache hit \(\d+ members\)/);
  });

  it('each command line has a cache of each pack of its own, which grows to hold what its command runs', () => {
    const home = fresh('keys');
    run(['blog', 'create', '--help'], home);
    const dryRun = ['blog', 'create', '--dry-run', ...createFlags()];
    /** The members the packs' caches held, over every pack the run opened. */
    const covered = (r: Run): number =>
      r.trace
        .filter((l) => l.startsWith('pack-'))
        .reduce((n, l) => n + Number(/cache hit \((\d+) members\)/.exec(l)?.[1] ?? 0), 0);
    const packsOpened = (r: Run): number => r.trace.filter((l) => l.startsWith('pack-')).length;

    // --help opened the start-up pack only, and wrote blog.create's cache of it; the dry run reads that,
    // opens the other pack too, loads more, and writes both.
    const first = run(dryRun, home);
    expect(first.status, first.stderr).toBe(0);
    expect(packsOpened(first)).toBe(2);
    const before = covered(first);
    const loaded = first.trace.filter((l) => / in pack-/.test(l)).length;
    expect(loaded).toBeGreaterThan(before);
    const second = run(dryRun, home);
    expect(covered(second)).toBe(loaded);

    // --version reads the start-up pack only, with a cache of its own that holds none of that.
    run(['--version'], home);
    const version = run(['--version'], home);
    expect(packsOpened(version)).toBe(1);
    expect(covered(version)).toBeLessThan(loaded);
    const files = readdirSync(entriesDir(home));
    expect(files).toHaveLength(3);
    for (const name of files) expect(name).toMatch(/^pack-\w+\.cjs\.(blog\.create|root)\.v8$/);
    expect(files.filter((n) => n.endsWith('.root.v8'))).toHaveLength(1);
  });

  it.each([
    [
      'a byte changed',
      (data: Buffer) => void data.writeUInt8(data[data.length >> 1]! ^ 0xff, data.length >> 1),
    ],
    ['cut short', (data: Buffer) => data.subarray(0, data.length >> 1)],
    ['emptied', () => Buffer.alloc(0)],
    ['another file', () => Buffer.from('not a cache at all')],
  ])('a damaged cache (%s) never reaches V8: it is read as missing and written again', (_name, damage) => {
    const home = fresh('damaged');
    run(['--version'], home);
    const dir = entriesDir(home);
    const file = join(dir, readdirSync(dir)[0]!);
    const data = readFileSync(file);
    writeFileSync(file, damage(data) ?? data);

    const damaged = run(['--version'], home);
    expect(damaged.status, damaged.stderr).toBe(0);
    expect(damaged.stdout).toBe(`${VERSION}\n`);
    // "miss", not "rejected": V8 was not given the bytes.
    expect(line(damaged, 'pack-')).toMatch(/cache miss/);
    expect(line(run(['--version'], home), 'pack-')).toMatch(/cache hit/);
  });

  it('a library outside the pack loads from its own file, with a cache of its own', () => {
    const home = fresh('library');
    const post = join(home, 'post.md');
    writeFileSync(post, '---\ntitle: Hello\n---\n# Hello\n\nWorld.\n');
    const args = [
      'wp',
      'publish',
      '--dry-run',
      '--service-only',
      '--url',
      'http://127.0.0.1:9',
      '--username',
      'u',
      post,
    ];
    const first = run(args, home);
    expect(first.status, first.stderr).toBe(0);
    expect(line(first, 'markdown-')).toMatch(/cache miss/);
    const second = run(args, home);
    expect(line(second, 'markdown-')).toMatch(/cache hit/);
    expect(second.stdout).toBe(first.stdout);
    expect(readdirSync(entriesDir(home))).toContainEqual(expect.stringMatching(/^markdown-\w+\.cjs\.v8$/));
  });

  it("drops entries of another build, and keeps at most 32 of the pack's caches, the newest", () => {
    const home = fresh('stale');
    run(['--version'], home);
    const dir = entriesDir(home);
    const pack = readdirSync(dir)[0]!.replace(/\.root\.v8$/, '');
    const old = new Date(Date.now() - 3600_000);
    const planted = ['chunk-GONE1234.cjs.v8', 'pack-GONE1234.cjs.root.v8'];
    // Keys of 40 other command lines, all older than anything this run writes.
    const keys = Array.from(
      { length: 40 },
      (_, i) => `${pack}.k${String.fromCharCode(97 + (i % 26))}${'x'.repeat(i)}.v8`,
    );
    for (const name of [...planted, ...keys]) {
      writeFileSync(join(dir, name), 'x');
      utimesSync(join(dir, name), old, old);
    }
    // A command line with no cache yet: this run writes one, and tidies up.
    // Temporary files of killed runs: an old one goes, one that may still be being written stays.
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    writeFileSync(join(dir, `${pack}.root.v8.4242.tmp`), 'x');
    utimesSync(join(dir, `${pack}.root.v8.4242.tmp`), hoursAgo, hoursAgo);
    writeFileSync(join(dir, `${pack}.root.v8.4343.tmp`), 'x');
    const r = run(['blog', 'create', '--help'], home);
    expect(r.status, r.stderr).toBe(0);
    const left = readdirSync(dir);
    for (const name of planted) expect(left).not.toContain(name);
    expect(left).not.toContain(`${pack}.root.v8.4242.tmp`);
    expect(left).toContain(`${pack}.root.v8.4343.tmp`);
    const packCaches = left.filter((n) => n.startsWith(`${pack}.`) && n.endsWith('.v8'));
    expect(packCaches).toHaveLength(32);
    expect(packCaches).toContain(`${pack}.blog.create.v8`);
    expect(packCaches).toContain(`${pack}.root.v8`);
  });

  it('a command that sends through undici, which sets V8 flags at its first connection, hits its caches next time', async () => {
    // A service that answers every request with a 404: `blog delete` sends its DELETE through undici.
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"no such blog"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const home = fresh('undici');
      const env = { BLOGCTL_BASE_URL: `http://127.0.0.1:${port}` };
      const args = ['blog', 'delete', 'b1', '--yes'];
      const first = await runAsync(args, home, env);
      expect(first.stderr).toMatch(/HTTP 404/);
      expect(line(first, 'undici-')).toMatch(/cache miss/);
      // Liftoff alone for undici's parser, and TurboFan made to wait (scripts/build.mjs).
      expect(line(first, 'V8 flags set')).toMatch(/: --liftoff-only --interrupt-budget=270336$/);
      // Written under the flags they are read with: every entry is a hit, none is rejected.
      const second = await runAsync(args, home, env);
      const caches = second.trace.filter((l) => / cache /.test(l));
      expect(caches.length).toBeGreaterThanOrEqual(3);
      for (const l of caches) expect(l).toMatch(/cache hit/);
      const version = run(['--version'], home);
      expect(line(version, 'pack-')).toMatch(/cache miss/);
      expect(line(run(['--version'], home), 'pack-')).toMatch(/cache hit/);

      // node started with a flag of its own for one of these: the flags cannot be set back to what the caches
      // are read with, so nothing is written, rather than written anew, and rejected, on every run.
      // A budget of its own is kept, in either spelling V8 takes.
      for (const nodeArgs of [
        ['--no-wasm-dynamic-tiering'],
        ['--interrupt-budget=100000'],
        ['--interrupt_budget=100000'],
      ]) {
        const own = fresh(`own-flags${nodeArgs[0]}`);
        for (let i = 0; i < 3; i++) {
          const r = await runAsync(args, own, env, nodeArgs);
          expect(r.stderr).toMatch(/HTTP 404/);
          for (const l of r.trace.filter((t) => / cache /.test(t))) expect(l).toMatch(/cache miss/);
          if (nodeArgs[0]!.includes('budget')) expect(line(r, 'V8 flags set')).toMatch(/: --liftoff-only$/);
        }
      }
    } finally {
      server.close();
    }
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 compiles everything afresh and writes nothing', () => {
    const home = fresh('off');
    const r = run(['--version'], home, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.stdout).toBe(`${VERSION}\n`);
    expect(line(r, 'pack-')).toMatch(/cache off/);
    expect(existsSync(join(home, 'blogctl'))).toBe(false);
  });

  it.each([
    ['removed', (path: string) => rmSync(path)],
    // An install cut short: the pack does not even parse.
    ['cut short', (path: string) => writeFileSync(path, readFileSync(path).subarray(0, 20_000))],
  ])('with its packs %s, every chunk loads from its own file', (_name, damage) => {
    const home = fresh('no-pack');
    const install = join(home, 'install');
    cpSync(dirname(BIN), join(install, 'bin'), { recursive: true });
    cpSync(join(dirname(BIN), '../dist'), join(install, 'dist'), { recursive: true });
    cpSync(join(dirname(BIN), '../package.json'), join(install, 'package.json'));
    for (const name of readdirSync(join(install, 'dist')))
      if (name.startsWith('pack-')) damage(join(install, 'dist', name));
    const bin = join(install, 'bin', 'blogctl.js');

    const first = run(['--version'], home, {}, bin);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${VERSION}\n`);
    expect(first.trace.some((l) => / in pack-/.test(l))).toBe(false);
    expect(line(first, 'cli-')).toMatch(/cache miss/);
    expect(line(run(['--version'], home, {}, bin), 'cli-')).toMatch(/cache hit/);
  });
});

describe('commandKey', () => {
  it.each([
    [['--version'], 'root'],
    [[], 'root'],
    [['blog', 'list', '--json'], 'blog.list'],
    [['wp', 'sites', 'add', 'prod'], 'wp.sites'],
    [['blog', 'show', '6650fa0c9e'], 'blog.show'],
    [['wp', 'publish', 'post.md'], 'wp.publish'],
    [['--json', 'blog', 'list'], 'blog.list'],
    [['blog', '--json', 'list'], 'blog'],
    [['Blog', 'list'], 'root'],
    [['help', 'blog'], 'help.blog'],
  ])('%j → %s', (args, key) => {
    expect(commandKey(args)).toBe(key);
  });
});
