// The pull row of `npm run bench` (run by run-all.mjs after bench.mjs, with the same arguments): `wp pull`
// of a whole site into an empty project, on a site of 1,000 posts and on one ten times larger (10,000), each
// post about 2 KB of HTML — wall time, requests and response bytes as the site answered, and the CLI's peak
// resident memory (test/bench/max-rss.mjs, preloaded). The goal: memory flat as the site grows ×10 (the pull
// holds a few pages at a time, never the whole site), time and requests about ×10 (linear). With --quick
// (what .ci/run runs): 200 and 2,000 posts, one run each. The site is test/bench/wp-server.mjs, in a process
// of its own (killed by PID at the end). No figure ever fails the run; a pull that errors does (exit 1).
//
//   node test/bench/pull-bench.mjs [--quick] [--only ...,pull,...] [--posts 1000,10000] [--runs N]
// Other bench.mjs arguments are accepted and ignored. Figures go to .bench/pull-results-node<major>.json.
/* global fetch */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/blogctl.js');
const HERE = import.meta.dirname;

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    posts: { type: 'string' },
    runs: { type: 'string' },
  },
  strict: false,
});
if (flags.only !== undefined && !String(flags.only).split(',').includes('pull')) process.exit(0);
const plan = {
  sizes: flags.posts
    ? String(flags.posts).split(',').map(Number)
    : flags.quick
      ? [200, 2_000]
      : [1_000, 10_000],
  runs: Number(flags.runs ?? (flags.quick ? 1 : 3)),
};

const work = mkdtempSync(join(tmpdir(), 'blogctl-pull-bench-'));
const children = new Set();
process.on('exit', () => {
  for (const child of children) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(work, { recursive: true, force: true });
});

function startSite(posts) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(HERE, 'wp-server.mjs'), '--unmarked', String(posts)], {
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

function stop(child) {
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  children.delete(child);
}

/** `wp pull` of the whole site into a new, empty project: its time, rows and peak memory. */
function pullOnce(url, name) {
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
  const files = readdirSync(join(root, 'posts')).length;
  rmSync(root, { recursive: true, force: true });
  return { ms, rows, files, rssKiB: Number(readFileSync(rssFile, 'utf8')) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
for (const size of plan.sizes) {
  const server = await startSite(size);
  const times = [];
  const rss = [];
  let stats;
  for (let i = 0; i < plan.runs; i++) {
    await fetch(`${server.url}/__bench/reset`, { method: 'POST' });
    const run = pullOnce(server.url, `site-${size}-${i}`);
    if (run.files !== size || run.rows.filter((r) => r.action === 'created').length !== size) {
      process.stderr.write(`pull bench: ${size} posts, ${run.files} files written\n`);
      process.exit(1);
    }
    times.push(run.ms);
    rss.push(run.rssKiB);
    stats = await (await fetch(`${server.url}/__bench/stats`)).json();
  }
  results.push({ posts: size, ms: median(times), rssMiB: median(rss) / 1024, ...stats });
  stop(server.child);
}

// The floor: the same Node starting and exiting, with the same preload (what no pull can go below).
const floorFile = join(work, 'floor.rss');
spawnSync(process.execPath, ['--import', join(HERE, 'max-rss.mjs'), '-e', '0'], {
  env: { ...process.env, BENCH_RSS_FILE: floorFile },
});
const floorMiB = Number(readFileSync(floorFile, 'utf8')) / 1024;

const [small, large] = results;
const ratio = (key) => large[key] / small[key];
const mib = (n) => `${n.toFixed(1)} MiB`;
const lines = [
  `\npull: wp pull of a whole site into an empty project (median of ${plan.runs}; requests and bytes as the site answered)`,
  ...results.map(
    (r) =>
      `  ${`site of ${r.posts.toLocaleString('en')} posts`.padEnd(24)} ${String(Math.round(r.ms)).padStart(7)} ms  ${String(r.requests).padStart(4)} requests  ${`${(r.bytes / 1024 / 1024).toFixed(1)} MiB`.padStart(10)}  peak memory ${mib(r.rssMiB).padStart(10)}`,
  ),
  `  ratio ×${large.posts / small.posts} posts: time ${ratio('ms').toFixed(2)}x, requests ${ratio('requests').toFixed(2)}x, peak memory ${ratio('rssMiB').toFixed(2)}x (goal: memory flat, within 1.3x; node -e 0 alone: ${mib(floorMiB)})`,
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(ROOT, '.bench'), { recursive: true });
writeFileSync(
  join(ROOT, '.bench', `pull-results-node${process.versions.node.split('.')[0]}.json`),
  `${JSON.stringify({ plan, results, floorMiB, ratio: { ms: ratio('ms'), requests: ratio('requests'), rss: ratio('rssMiB') } }, null, 2)}\n`,
);
