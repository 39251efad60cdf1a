// What the short commands load. Start-up time is measured by `npm run bench`, never asserted; this guards its
// structure instead: the commands a script runs thousands of times must not load the heavy pieces that are
// loaded on purpose only where they are used (README "Performance", test/bench/RESULTS.md). Each command
// runs as a real process with a preload that writes, at exit, the Node built-ins and the dist/ chunks it
// loaded (require.cache: dist/ is CommonJS).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, createFlags, runCli, tempConfigDir } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'blogctl-startup-'));
const PRELOAD = join(dir, 'record-loads.cjs');
writeFileSync(
  PRELOAD,
  `const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
  const chunks = Object.keys(require.cache).filter((f) => /[\\/]dist[\\/]/.test(f));
  writeFileSync(process.env.LOADS_OUT, JSON.stringify({ builtins, chunks }));
});
`,
);

function loads(args: string[]): { builtins: string[]; chunks: string[] } {
  const out = join(dir, `loads-${Math.random().toString(36).slice(2)}.json`);
  const res = spawnSync(process.execPath, ['-r', PRELOAD, BIN, ...args], {
    env: {
      PATH: process.env['PATH'],
      HOME: dir,
      BLOGCTL_CONFIG_DIR: join(dir, 'config'),
      XDG_CACHE_HOME: join(dir, 'cache'),
      BLOGCTL_API_KEY: 'startup-test-key',
      BLOGCTL_WP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx',
      LOADS_OUT: out,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  expect(res.status, res.stderr).toBe(0);
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as { builtins: string[]; chunks: string[] };
  return { builtins: loaded.builtins, chunks: loaded.chunks.map((f) => basename(f)) };
}

/** Built-ins only some commands need: crypto (hashes, UUIDs), fs/promises (with readline), the HTTP stack. */
const HEAVY_BUILTINS = [
  'crypto',
  'fs/promises',
  'readline',
  'http',
  'https',
  'tls',
  'http2',
  'worker_threads',
];
/** Chunks named after the libraries loaded only where used: undici, ora, inquirer, the Markdown parsers, jq. */
const HEAVY_CHUNK = /^(undici|ora|prompts|markdown|table|jq|inline)-|^dist-/;
/** What only a command that changes the config needs: the lock, atomic writes, write failures (exit 9). */
const CONFIG_WRITE_SIDE = ['lib/file-lock.ts', 'lib/atomic-file.ts', 'lib/write-failure.ts'];
/** `wp publish --dry-run` of one post from flags, as the bench runs it. */
const WP_DRY_RUN = [
  'wp',
  'publish',
  '--dry-run',
  '--url',
  'http://127.0.0.1:9',
  '--username',
  'u',
  '--title',
  't',
  '--content',
  'c',
];

describe('what the short commands load', () => {
  it('--version alone: nothing of dist/, none of the heavy built-ins', () => {
    const { builtins, chunks } = loads(['--version']);
    expect(chunks).toEqual([]);
    expect(builtins.filter((m) => HEAVY_BUILTINS.includes(m))).toEqual([]);
    // With anything else on the line it is the parser's: the same version.
    const parsed = loads(['--no-color', '--version']);
    expect(parsed.chunks).toContain('cli.cjs');
  });

  it.each(['--help', 'wp publish -h', 'help blog list'])(
    'blogctl %s: help from dist/help.json, without the parser',
    (line) => {
      const args = line.split(' ');
      const { builtins, chunks } = loads(args);
      expect(chunks).toContain('help.cjs');
      expect(chunks).not.toContain('cli.cjs');
      // Our own layout code only: commander's chunk is named after no entry, so check the sources.
      expect(sourcesLoaded(args).filter((f) => f.includes('node_modules'))).toEqual([]);
      expect(builtins.filter((m) => HEAVY_BUILTINS.includes(m) || m === 'child_process')).toEqual([]);
      // With anything else on the line it is the parser's.
      expect(loads(['--no-color', ...args]).chunks).toContain('cli.cjs');
    },
  );

  it.each([
    ['--no-color --help', ['--no-color', '--help']],
    ['blog create --dry-run', ['blog', 'create', '--dry-run', ...createFlags()]],
    ['wp publish --dry-run', WP_DRY_RUN],
  ])('%s: none of the heavy built-ins or library chunks', (_name, args) => {
    const { builtins, chunks } = loads(args);
    expect(builtins.filter((m) => HEAVY_BUILTINS.includes(m))).toEqual([]);
    expect(chunks.filter((f) => HEAVY_CHUNK.test(f))).toEqual([]);
    // Both lists are read: the entry chunk and Node's fs are in them.
    expect(chunks).toContain('cli.cjs');
    expect(builtins).toContain('fs');
  });

  it('blog create --dry-run without --publish: none of the publish side', () => {
    const sources = sourcesLoaded(['blog', 'create', '--dry-run', ...createFlags()]);
    expect(sources.some((f) => f.endsWith('src/commands/blog/create/action.ts'))).toBe(true);
    const publishSide = [
      'publishing/sources/post-payload.ts',
      'schemas/wordpress.ts',
      'commands/common/publish-output.ts',
    ];
    expect(sources.filter((f) => publishSide.some((p) => f.endsWith(`src/${p}`)))).toEqual([]);
  });

  it.each([
    ['blog create --dry-run', ['blog', 'create', '--dry-run', ...createFlags()]],
    ['wp publish --dry-run', WP_DRY_RUN],
  ])('%s: none of the config write side (lock, atomic write, write failures)', (_name, args) => {
    const sources = sourcesLoaded(args);
    expect(sources.some((f) => f.endsWith('src/config/store.ts'))).toBe(true);
    expect(sources.filter((f) => CONFIG_WRITE_SIDE.some((p) => f.endsWith(`src/${p}`)))).toEqual([]);
  });

  it('wp publish --dry-run of a post from flags: its content and credentials checked, no answer schema', () => {
    const sources = sourcesLoaded(WP_DRY_RUN);
    expect(sources.some((f) => f.endsWith('src/schemas/wordpress.ts'))).toBe(true);
    // Nothing is sent, so nothing is answered: the publish answer and the settings schemas stay unbuilt.
    const answers = ['schemas/wordpress-publish.ts', 'schemas/wordpress-settings.ts'];
    expect(sources.filter((f) => answers.some((p) => f.endsWith(`src/${p}`)))).toEqual([]);
  });

  it.each([
    ['--no-color', '--help'],
    ['--no-color', '--version'],
  ])('%s: none of the error report (IO, JSON errors, redaction)', (...args) => {
    const sources = sourcesLoaded(args);
    expect(sources.some((f) => f.endsWith('src/cli/run.ts'))).toBe(true);
    const report = ['output/io.ts', 'output/json.ts', 'output/redact.ts'];
    expect(sources.filter((f) => report.some((p) => f.endsWith(`src/${p}`)))).toEqual([]);
  });
});

describe('what a command that reads blogs loads', () => {
  it('blog list --json: not zod (the Blog record is checked by hand), nor the config write side', async () => {
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/api/v1/public/get-all-blogs' ? 200 : 404, {
        'content-type': 'application/json',
      });
      res.end(JSON.stringify([{ _id: 'b1', title: 'One', content: '<p>x</p>' }]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const out = join(dir, 'loads-list.json');
    try {
      const { port } = server.address() as AddressInfo;
      const res = await runCli(['blog', 'list', '--json'], {
        env: {
          NODE_OPTIONS: `--require ${PRELOAD}`,
          LOADS_OUT: out,
          BLOGCTL_CONFIG_DIR: tempConfigDir(),
          BLOGCTL_BASE_URL: `http://127.0.0.1:${port}`,
          BLOGCTL_API_KEY: 'startup-test-key',
        },
      });
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual([{ _id: 'b1', title: 'One', content: '<p>x</p>' }]);
    } finally {
      server.close();
    }
    const { chunks } = JSON.parse(readFileSync(out, 'utf8')) as { chunks: string[] };
    const sources = chunks.flatMap(
      (chunk) => (JSON.parse(readFileSync(`${chunk}.map`, 'utf8')) as { sources: string[] }).sources,
    );
    expect(sources.some((f) => f.endsWith('src/schemas/blog-record.ts'))).toBe(true);
    expect(sources.filter((f) => /node_modules[\\/]zod[\\/]/.test(f))).toEqual([]);
    // It reads the config (for the API key's profile) and writes nothing.
    expect(sources.some((f) => f.endsWith('src/config/store.ts'))).toBe(true);
    expect(sources.filter((f) => CONFIG_WRITE_SIDE.some((p) => f.endsWith(`src/${p}`)))).toEqual([]);
  });
});

/** The source files a run loaded: esbuild names shared chunks by hash, and their source maps say what each holds. */
function sourcesLoaded(args: string[]): string[] {
  const dist = join(dirname(BIN), '..', 'dist');
  return loads(args).chunks.flatMap((chunk) => {
    const map = join(dist, chunk === 'cli.cjs' || chunk === 'help.cjs' ? '' : 'chunks', `${chunk}.map`);
    // A module outside dist/ has no map.
    if (!existsSync(map)) return [];
    return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
  });
}
