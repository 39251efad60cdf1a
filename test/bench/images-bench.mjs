// The inline images row of `npm run bench` (run by run-all.mjs, with the same arguments): `wp publish` of a
// project of 100 posts with 3 local images each (300 images), its first run and a no-change run, beside a
// baseline in the same round: the same 100 posts without images, on the same site. Uploads, requests and wall
// time of each; the ratios images/baseline are the figures. A no-change run that uploads or sends anything
// fails the bench (exit 1), as does a command that errors; no figure does. The site is test/bench/
// wp-server.mjs (the WordPress and the service's publish relay in one process), a fresh one per round, killed
// by PID at the end.
//
//   node test/bench/images-bench.mjs [--quick] [--only ...,images,...] [--posts N]
// Other bench.mjs arguments are accepted and ignored. Figures go to .bench/images-results-node<major>.json.
/* global fetch */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  },
  strict: false,
});
if (flags.only !== undefined && !String(flags.only).split(',').includes('images')) process.exit(0);
// --quick (CI) proves the row works on a small project, once.
const plan = {
  posts: Number(flags.posts ?? (flags.quick ? 10 : 100)),
  images: 3,
  rounds: flags.quick ? 1 : 5,
};

const work = mkdtempSync(join(tmpdir(), 'blogctl-images-bench-'));
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

function startSite() {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(HERE, 'wp-server.mjs')], {
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

// A 1×1 PNG; bytes after its end make each image distinct.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A project of `plan.posts` posts, each with `plan.images` images of its own when `images`. */
function makeProject(url, name, images) {
  const root = join(work, name);
  mkdirSync(join(root, 'posts', 'img'), { recursive: true });
  writeFileSync(
    join(root, 'blogctl.yml'),
    `site:\n  url: ${url}\n  username: admin\nnamespace: bench-${name}\n`,
  );
  for (let i = 0; i < plan.posts; i++) {
    const pics = [];
    if (images)
      for (let j = 0; j < plan.images; j++) {
        const file = `${i}-${j}.png`;
        writeFileSync(
          join(root, 'posts', 'img', file),
          Buffer.concat([PNG, Buffer.from(`${name} ${i} ${j}`)]),
        );
        pics.push(`![Picture ${j} of post ${i}](img/${file})`);
      }
    writeFileSync(
      join(root, 'posts', `${String(i).padStart(4, '0')}.md`),
      `---\nstatus: publish\n---\n# Post ${i}\n\n${'A paragraph of the post body. '.repeat(40)}\n\n${pics.join('\n\n')}\n`,
    );
  }
  return root;
}

function publish(root, url) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(BLOGCTL_|CI$)/.test(k)));
  Object.assign(env, {
    BLOGCTL_CONFIG_DIR: join(work, `config-${Math.random().toString(36).slice(2)}`),
    BLOGCTL_BASE_URL: url,
    BLOGCTL_API_KEY: 'k',
    BLOGCTL_WP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx',
    NO_COLOR: '1',
  });
  const started = performance.now();
  const run = spawnSync(process.execPath, [BIN, 'wp', 'publish', '--json'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (run.status !== 0) {
    process.stderr.write(`images bench: wp publish exited ${run.status}: ${run.stderr}\n`);
    process.exit(1);
  }
  return { ms, rows: JSON.parse(run.stdout) };
}

/** One run measured on its own: its time, and the site's requests and uploads. */
async function measured(root, url, expect) {
  await fetch(`${url}/__bench/reset`, { method: 'POST' });
  const run = publish(root, url);
  if (!run.rows.every((r) => r.action === expect)) {
    process.stderr.write(`images bench: a run expected to leave every post ${expect} did not\n`);
    process.exit(1);
  }
  const stats = await (await fetch(`${url}/__bench/stats`)).json();
  return { ms: run.ms, requests: stats.requests, uploads: stats.uploads };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rounds = [];
for (let r = 0; r < plan.rounds; r++) {
  const server = await startSite();
  const base = makeProject(server.url, `plain-${r}`, false);
  const pics = makeProject(server.url, `images-${r}`, true);
  // Which project goes first alternates by round: the first run of a fresh site pays its warm-up.
  const order = r % 2 === 0 ? ['base', 'pics'] : ['pics', 'base'];
  const round = {};
  for (const [which, expect] of [
    ['first', 'created'],
    ['again', 'unchanged'],
  ])
    for (const project of order)
      round[project === 'base' ? `${which}Base` : which] = await measured(
        project === 'base' ? base : pics,
        server.url,
        expect,
      );
  if (round.again.uploads !== 0 || round.first.uploads !== plan.posts * plan.images) {
    process.stderr.write(
      `images bench: uploads ${round.first.uploads} on the first run (expected ${plan.posts * plan.images}), ${round.again.uploads} on the no-change run (expected 0)\n`,
    );
    process.exit(1);
  }
  rounds.push(round);
  stop(server.child);
}

const pick = (key, field) => median(rounds.map((round) => round[key][field]));
const ratio = (key, base) => median(rounds.map((round) => round[key].ms / round[base].ms));
const row = (label, key) =>
  `  ${label.padEnd(44)} ${String(Math.round(pick(key, 'ms'))).padStart(6)} ms  ${String(pick(key, 'requests')).padStart(5)} requests  ${String(pick(key, 'uploads')).padStart(4)} uploads`;
const lines = [
  `\nimages: wp publish of ${plan.posts} posts with ${plan.images} local images each (median of ${plan.rounds} rounds, a fresh site each)`,
  row('first run, without images (baseline)', 'firstBase'),
  row('first run, with images', 'first'),
  row('no-change run, without images (baseline)', 'againBase'),
  row('no-change run, with images', 'again'),
  `  ratio with/without images: first run ${ratio('first', 'firstBase').toFixed(2)}x, no-change run ${ratio('again', 'againBase').toFixed(2)}x (the no-change run uploads nothing)`,
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(ROOT, '.bench'), { recursive: true });
writeFileSync(
  join(ROOT, '.bench', `images-results-node${process.versions.node.split('.')[0]}.json`),
  `${JSON.stringify({ plan, rounds, ratio: { first: ratio('first', 'firstBase'), again: ratio('again', 'againBase') } }, null, 2)}\n`,
);
