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
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median, pullOnce, startSite, stopSite } from './pull-site.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
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
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const results = [];
for (const size of plan.sizes) {
  const server = await startSite(['--unmarked', String(size)]);
  const times = [];
  const rss = [];
  let stats;
  for (let i = 0; i < plan.runs; i++) {
    await fetch(`${server.url}/__bench/reset`, { method: 'POST' });
    const run = pullOnce(work, server.url, `site-${size}-${i}`);
    if (run.files.length !== size || run.rows.filter((r) => r.action === 'created').length !== size) {
      process.stderr.write(`pull bench: ${size} posts, ${run.files.length} files written\n`);
      process.exit(1);
    }
    times.push(run.ms);
    rss.push(run.rssKiB);
    stats = await (await fetch(`${server.url}/__bench/stats`)).json();
  }
  results.push({ posts: size, ms: median(times), rssMiB: median(rss) / 1024, ...stats });
  stopSite(server.child);
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
