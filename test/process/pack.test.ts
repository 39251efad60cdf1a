// Install like a user: `npm pack`, then a global install of the tarball into an empty prefix with no network,
// then the installed `blogctl` runs, talks to its sandbox and completes in bash from its own packaged script.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeBash } from '../helpers/pty.js';
import { createFlags } from '../helpers/cli.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
  bundleDependencies?: unknown;
  bundledDependencies?: unknown;
};

/** What a published package may hold: what runs, and what a user reads. npm always adds package.json. */
const ALLOWED = [
  /^dist\//,
  /^bin\//,
  /^completions\//,
  /^docs\/[\w-]+\.md$/,
  /^prompts\/[a-z]+\.md$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^package\.json$/,
];
const REQUIRED = [
  'package.json',
  'LICENSE',
  'bin/blogctl.js',
  'dist/cli.cjs',
  'dist/cli.cjs.map',
  'dist/THIRD-PARTY-LICENSES',
  'dist/blogctl.1',
  'completions/blogctl.bash',
  'completions/_blogctl',
  'completions/blogctl.fish',
  // The provider generator's prompts (src/sandbox/provider-prompts.ts), found beside dist/.
  'prompts/system.md',
  'prompts/outline.md',
  'prompts/section.md',
  'prompts/revise.md',
  'prompts/continue.md',
];

let work: string;
let prefix: string;
let tarball: string;
let installed: string;

/** npm without the caller's npm_* settings (an `npm test` run sets some) or BLOGCTL_* ones. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(npm_|BLOGCTL_|CI$)/i.test(k)) env[k] = v;
  }
  return {
    ...env,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}

function npm(args: string[], cwd: string, env = cleanEnv()): SpawnSyncReturns<string> {
  const result = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0)
    throw new Error(`npm ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs')))
    throw new Error('dist/ is not built: run `npm run build` (npm test does) first');
  work = mkdtempSync(join(tmpdir(), 'blogctl-pack-'));
  prefix = join(work, 'prefix');
  mkdirSync(prefix);
  mkdirSync(join(work, 'dest'));
  // --ignore-scripts: dist/ is already built (npm test builds before vitest); the prepack rebuild would delete
  // and rewrite dist/ under the other process tests running in parallel.
  const packed = JSON.parse(
    npm(['pack', '--json', '--ignore-scripts', '--pack-destination', join(work, 'dest')], ROOT).stdout,
  ) as {
    filename: string;
  }[];
  tarball = join(work, 'dest', packed[0]!.filename);
  installed = join(prefix, 'lib', 'node_modules', 'blogctl');
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true, maxRetries: 5 });
});

describe('npm pack', () => {
  it('holds only dist/, bin/, completions/, docs/, prompts/, README.md, LICENSE and package.json', () => {
    const dry = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT).stdout) as {
      files: { path: string }[];
    }[];
    const files = dry[0]!.files.map((f) => f.path).sort();
    const stray = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
    expect(stray, 'files in the package that do not run and are not read by users').toEqual([]);
    for (const file of REQUIRED) expect(files, `the package needs ${file}`).toContain(file);
    if (existsSync(join(ROOT, 'README.md'))) expect(files).toContain('README.md');
    // README's links to the reference work in the installed package too.
    expect(files).toContain('docs/commands.md');

    // The tarball written is the one the dry run described.
    const tar = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    expect(tar.status).toBe(0);
    const inTarball = tar.stdout
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''))
      .sort();
    expect(inTarball).toEqual(files);
  });

  it('ships the licence of every library bundled into dist/', () => {
    const licences = readFileSync(join(ROOT, 'dist', 'THIRD-PARTY-LICENSES'), 'utf8');
    // Every package whose code is in a chunk (esbuild keeps the paths in the source maps) is listed.
    const bundled = new Set<string>();
    const maps = spawnSync('find', [join(ROOT, 'dist'), '-name', '*.map'], { encoding: 'utf8' }).stdout.split(
      '\n',
    );
    for (const map of maps.filter(Boolean)) {
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
        if (m) bundled.add(m[1]!);
      }
    }
    expect(bundled.size).toBeGreaterThan(5);
    for (const name of bundled)
      expect(licences, name).toMatch(
        new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}@\\S+ \\(`, 'm'),
      );
    expect(licences).toMatch(/^commander@14\.\S+ \(MIT\)$/m);
    // What jq-wasm's WebAssembly carries, though its package's licence file names only the wrapper.
    expect(licences).toMatch(/jq is copyright \(C\) 2012 Stephen Dolan/);
    expect(licences).toMatch(/Oniguruma.*BSD-2-Clause/);
  });

  it('carries no install-time script: installing runs nothing of the package', () => {
    const manifest = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
    const scripts = Object.keys(
      (JSON.parse(manifest.stdout) as { scripts?: Record<string, string> }).scripts ?? {},
    );
    // npm runs these on install (prepare for git and folder installs), and warns for each not allowed.
    expect(scripts.filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s))).toEqual(
      [],
    );
  });

  it('has no runtime dependencies: everything that runs is bundled into dist/', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.bundleDependencies ?? pkg.bundledDependencies).toBeUndefined();
    const manifest = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
    expect(JSON.parse(manifest.stdout).dependencies ?? {}).toEqual({});
  });
});

describe('npm install -g <tarball> into an empty prefix, offline', () => {
  beforeAll(() => {
    // An empty cache and --offline: the install must need nothing but the tarball.
    npm(
      ['install', '-g', '--prefix', prefix, '--offline', '--cache', join(work, 'npm-cache'), tarball],
      work,
    );
  }, 180_000);

  /**
   * The installed `blogctl` starts through its `#!/usr/bin/env node` line, so the Node running this suite (22 or
   * 24 under .ci/run) comes first on PATH: otherwise those passes would run the package on the machine's Node.
   */
  const pathHere = (first: string[] = []) =>
    [...first, dirname(process.execPath), process.env['PATH'] ?? ''].join(delimiter);
  const blogctl = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(join(prefix, 'bin', 'blogctl'), args, {
      cwd: work,
      env: cleanEnv({ PATH: pathHere(), ...env }),
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('links the man page where `man blogctl` finds it', () => {
    const linked = join(prefix, 'share', 'man', 'man1', 'blogctl.1');
    expect(existsSync(linked), linked).toBe(true);
    expect(readFileSync(linked, 'utf8')).toBe(readFileSync(join(ROOT, 'dist', 'blogctl.1'), 'utf8'));
  });

  it('runs `blogctl --version`', () => {
    const result = blogctl(['--version']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^blogctl version ${pkg.version.replace(/\./g, '\\.')} \\(\\d{4}-\\d\\d-\\d\\d\\)\\n$`),
    );
  });

  it('runs on the Node that runs this suite', () => {
    // A preload prints the executing Node's version to stderr; blogctl's own output is unchanged.
    const preload = join(work, 'which-node.cjs');
    writeFileSync(preload, "process.stderr.write('node ' + process.version + '\\n');\n");
    const result = blogctl(['--version'], { NODE_OPTIONS: `--require ${preload}` });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(`node ${process.version}\n`);
  });

  it('names blogctl source lines, not minified columns, in a --debug stack trace', () => {
    // An unknown site profile fails inside a command; with --debug the trace goes to stderr.
    const result = blogctl(['--debug', 'wp', 'publish', '--site', 'nope', '--title', 't', '--content', 'c'], {
      BLOGCTL_CONFIG_DIR: join(work, 'config-debug'),
    });
    expect(result.status).toBe(5);
    expect(result.stderr).toMatch(/^\s+at .*[\\/]src[\\/]\S+\.ts:\d+:\d+\)?$/m);
    const plain = blogctl(['wp', 'publish', '--site', 'nope', '--title', 't', '--content', 'c'], {
      BLOGCTL_CONFIG_DIR: join(work, 'config-debug'),
    });
    expect(plain.stderr).not.toMatch(/^\s+at /m);
  });

  it('runs `blogctl --sandbox blog list` (and create) against its own sandbox', () => {
    const config = join(work, 'config');
    const list = blogctl(['--sandbox', 'blog', 'list'], { BLOGCTL_CONFIG_DIR: config });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toBe('');
    const create = blogctl(['--sandbox', 'blog', 'create', ...createFlags('home espresso'), '-q'], {
      BLOGCTL_CONFIG_DIR: config,
    });
    expect(create.status, create.stderr).toBe(0);
    const id = create.stdout.trim();
    expect(id).toMatch(/^\S+$/);
    const again = blogctl(['--sandbox', 'blog', 'list'], { BLOGCTL_CONFIG_DIR: config });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.split('\t')[0]).toBe(id);
  });

  it('writes a post through a provider with the prompts it ships', async () => {
    const fake = await startFakeOpenAI();
    try {
      // Spawned, not spawnSync: the fake provider in this process must answer while it runs.
      const child = spawn(
        join(prefix, 'bin', 'blogctl'),
        ['--sandbox', 'blog', 'create', ...createFlags('home espresso'), '--json'],
        {
          cwd: work,
          env: cleanEnv({
            PATH: pathHere(),
            BLOGCTL_CONFIG_DIR: join(work, 'config-provider'),
            BLOGCTL_PROVIDER_URL: fake.url,
            BLOGCTL_MODEL: fake.model,
          }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ title: 'A Fake Guide to home espresso', model: fake.model });
      // The outline request was built from the installed prompts/outline.md.
      const shipped = readFileSync(join(installed, 'prompts', 'outline.md'), 'utf8');
      expect(fake.requests[0]!.prompt.startsWith(shipped.split('\n')[0]!)).toBe(true);
      expect(fake.requests[0]!.prompt).toContain('Topic keywords: "home espresso"');
    } finally {
      await fake.close();
    }
  });

  it('completes in bash from the installed completion script', () => {
    const config = join(work, 'config-sites');
    mkdirSync(config);
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({ sites: { alpha: { url: 'https://alpha.example.com', username: 'u' } } }),
    );
    const script = join(installed, 'completions', 'blogctl.bash');
    expect(existsSync(script)).toBe(true);
    const env = {
      PATH: pathHere([join(prefix, 'bin')]),
      HOME: work,
      BLOGCTL_CONFIG_DIR: config,
    };
    expect(completeBash(script, 'blogctl wp pu', env)).toEqual(['publish', 'pull']);
    // The dynamic part calls the installed blogctl back.
    expect(completeBash(script, 'blogctl wp sites show ', env)).toEqual(['alpha']);
  });
});
