// A paired A/B of one command line between two builds of blogctl, for a start-up decision (test/bench/RESULTS.md,
// "The start-up devices"). Each build is a directory holding a copy of bin/, dist/ and package.json; the
// command runs from each alternately (A B, then B A, and so on) after warm-up pairs, stdout a pipe, stdin
// closed, each build with a Node compile cache of its own. Reported per build: the median wall time and the
// median CPU time (user + system, all threads) the child reports from process.resourceUsage() as it exits;
// and the medians (with quartiles) of the paired differences B − A. On a shared machine the CPU figures are
// the ones to read: load that comes and goes widens the wall times far more.
//
//   node test/bench/ab.mjs --a DIR --b DIR [--pairs 60] [--warmup 5] [--env K=V]... [--expect-array N] -- ARGS
//
// The command runs under the Node that runs this script (scripts/node-binary.sh 24 gives Node 24). --env sets
// a variable for the command (BLOGCTL_BASE_URL, BLOGCTL_API_KEY, BLOGCTL_WP_PASSWORD); the caller's BLOGCTL_*,
// proxy and colour variables are not passed on. --expect-array N checks, on the first run of each build, that
// stdout is a JSON array of N elements. A run that exits non-zero stops the comparison (exit 1).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    pairs: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    env: { type: 'string', multiple: true, default: [] },
    'expect-array': { type: 'string' },
  },
});
const usage = (message) => {
  process.stderr.write(`ab: ${message}\n`);
  process.exit(2);
};
if (!flags.a || !flags.b) usage('--a DIR and --b DIR are required');
for (const name of ['pairs', 'warmup']) {
  if (!/^\d+$/.test(flags[name])) usage(`--${name} takes a whole number, not "${flags[name]}"`);
}
const builds = { A: resolve(flags.a), B: resolve(flags.b) };
const pairs = Number(flags.pairs);
const warmup = Number(flags.warmup);

const work = mkdtempSync(join(tmpdir(), 'blogctl-ab-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
// Loaded by the measured process: as it exits, its CPU time goes to descriptor 3 (a pipe to this script).
const preload = join(work, 'cpu-at-exit.cjs');
writeFileSync(
  preload,
  `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeSync(3, String(u.userCPUTime + u.systemCPUTime)); });\n`,
);

const base = {};
for (const [k, v] of Object.entries(process.env)) {
  if (v === undefined) continue;
  if (/^(BLOGCTL_|CI$|NO_COLOR$|FORCE_COLOR$|CLICOLOR|NODE_OPTIONS$|NODE_COMPILE_CACHE$)/.test(k)) continue;
  if (/^(https?_proxy|no_proxy)$/i.test(k)) continue;
  base[k] = v;
}
base.BLOGCTL_CONFIG_DIR = join(work, 'config');
for (const pair of flags.env) {
  const at = pair.indexOf('=');
  if (at < 1) usage(`--env takes NAME=VALUE, not "${pair}"`);
  base[pair.slice(0, at)] = pair.slice(at + 1);
}

function run(name) {
  const env = { ...base, NODE_COMPILE_CACHE: join(work, `cache-${name}`) };
  const started = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ['-r', preload, join(builds[name], 'bin/blogctl.js'), ...positionals],
    {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      maxBuffer: 1 << 30,
    },
  );
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) {
    process.stderr.write(
      `ab: build ${name} exited ${r.status ?? r.signal}: ${r.stderr.toString().slice(0, 400)}\n`,
    );
    process.exit(1);
  }
  return { wall, cpu: Number(r.output[3].toString()) / 1000, stdout: r.stdout };
}

for (const name of ['A', 'B']) {
  const { stdout } = run(name);
  if (flags['expect-array'] === undefined) continue;
  const value = JSON.parse(stdout.toString());
  if (!Array.isArray(value) || value.length !== Number(flags['expect-array']))
    usage(`build ${name}: stdout is not a JSON array of ${flags['expect-array']}`);
}
for (let i = 0; i < warmup; i++) for (const name of ['A', 'B']) run(name);

const samples = { wallA: [], wallB: [], cpuA: [], cpuB: [], wallDiff: [], cpuDiff: [] };
for (let i = 0; i < pairs; i++) {
  const order = i % 2 ? ['B', 'A'] : ['A', 'B'];
  const r = {};
  for (const name of order) r[name] = run(name);
  samples.wallA.push(r.A.wall);
  samples.wallB.push(r.B.wall);
  samples.cpuA.push(r.A.cpu);
  samples.cpuB.push(r.B.cpu);
  samples.wallDiff.push(r.B.wall - r.A.wall);
  samples.cpuDiff.push(r.B.cpu - r.A.cpu);
}

function quantile(values, q) {
  const s = [...values].sort((x, y) => x - y);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.ceil(pos)] - s[lo]) * (pos - lo);
}
const ms = (x) => x.toFixed(1);
const spread = (values) =>
  `${ms(quantile(values, 0.5))} ms (quartiles ${ms(quantile(values, 0.25))} to ${ms(quantile(values, 0.75))})`;
process.stdout.write(
  [
    `${process.version}, ${pairs} pairs after ${warmup} warm-up pairs: blogctl ${positionals.join(' ')}`,
    `  A ${builds.A}: wall ${ms(quantile(samples.wallA, 0.5))} ms, CPU ${ms(quantile(samples.cpuA, 0.5))} ms`,
    `  B ${builds.B}: wall ${ms(quantile(samples.wallB, 0.5))} ms, CPU ${ms(quantile(samples.cpuB, 0.5))} ms`,
    `  B − A, paired: wall ${spread(samples.wallDiff)}; CPU ${spread(samples.cpuDiff)}`,
    `  load average at the end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
    '',
  ].join('\n'),
);
