// What the pull rows of `npm run bench` share (pull-bench.mjs, convert-bench.mjs): the bench WordPress
// (test/bench/wp-server.mjs) in a process of its own, killed by PID when the bench exits, and one
// `wp pull --json` of the whole site into a new, empty project, timed, with the CLI's peak resident memory
// (test/bench/max-rss.mjs, preloaded).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const HERE = import.meta.dirname;
const BIN = join(resolve(HERE, '../..'), 'bin/blogctl.js');

const children = new Set();
process.on('exit', () => {
  for (const child of children) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** The bench WordPress with `args` (wp-server.mjs's): resolves to `{ child, url }` once it listens. */
export function startSite(args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(HERE, 'wp-server.mjs'), ...args], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.add(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolvePromise({ child, ...JSON.parse(out.split('\n')[0]) });
    });
    child.on('exit', (code) => reject(new Error(`bench WordPress exited (${code}) before listening`)));
  });
}

/** Stops a site startSite started, by its PID. */
export function stopSite(child) {
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  children.delete(child);
}

/**
 * `wp pull --json` of the whole site at `url` into a new, empty project under `work`: its wall time, rows,
 * files written and peak memory. A pull that fails ends the bench (exit 1), its stderr shown.
 */
export function pullOnce(work, url, name) {
  const root = join(work, name);
  mkdirSync(join(root, 'posts'), { recursive: true });
  writeFileSync(
    join(root, 'blogctl.yml'),
    `site:\n  url: ${url}\n  username: admin\nnamespace: bench-pull\nsources: [posts]\n`,
  );
  const rssFile = join(work, `${name}.rss`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BLOGCTL_|CI$)/.test(k)));
  Object.assign(env, {
    BLOGCTL_CONFIG_DIR: join(work, `config-${name}`),
    BLOGCTL_WP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx',
    BENCH_RSS_FILE: rssFile,
    NO_COLOR: '1',
  });
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ['--import', join(HERE, 'max-rss.mjs'), BIN, 'wp', 'pull', '--json'],
    { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const ms = performance.now() - started;
  if (run.status !== 0) {
    process.stderr.write(`pull bench: wp pull exited ${run.status}: ${run.stderr.slice(0, 2000)}\n`);
    process.exit(1);
  }
  const rows = JSON.parse(run.stdout);
  const files = readdirSync(join(root, 'posts')).map((f) => readFileSync(join(root, 'posts', f), 'utf8'));
  rmSync(root, { recursive: true, force: true });
  return { ms, rows, files, rssKiB: Number(readFileSync(rssFile, 'utf8')) };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
