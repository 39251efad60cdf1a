// The sync row of `npm run bench` (run by run-all.mjs after bench.mjs, with the same arguments): a no-change
// `wp publish` of a project of 200 files, on a site holding only its 200 posts, and on a site of 10,000
// posts (2,000 of them another project's, i.e. another namespace, the rest written in WordPress) — requests,
// response bytes and wall time of each, and their ratio (goal: within 1.3x). The site is test/bench/
// wp-server.mjs, in a process of its own (killed by PID at the end). No figure ever fails the run; a command
// that errors does (exit 1). For reference, the look-up blogctl made before namespaces (every marked post,
// rendered fields included) is measured on the large site too, and the large site once more with blogctl's
// companion plugin (its exact listing instead of WordPress search, the state in meta).
//
//   node test/bench/sync-bench.mjs [--quick] [--only ...,sync,...] [--files N]
// Other bench.mjs arguments are accepted and ignored. Figures go to .bench/sync-results-node<major>.json.
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
    files: { type: 'string' },
  },
  strict: false,
});
if (flags.only !== undefined && !String(flags.only).split(',').includes('sync')) process.exit(0);
const plan = {
  files: Number(flags.files ?? 200),
  runs: flags.quick ? 1 : 7,
  sites: [
    { key: 'small', label: "site of 200 posts (only the project's)", other: 0, unmarked: 0 },
    {
      key: 'large',
      label: 'site of 10,000 posts (2,000 of another namespace)',
      other: 2_000,
      unmarked: 7_800,
    },
    {
      key: 'plugin',
      label: 'the same large site with the companion plugin',
      other: 2_000,
      unmarked: 7_800,
      plugin: true,
    },
  ],
};

const work = mkdtempSync(join(tmpdir(), 'blogctl-sync-bench-'));
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

function startSite(site) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(HERE, 'wp-server.mjs'),
        '--other-namespace',
        String(site.other),
        '--unmarked',
        String(site.unmarked),
        ...(site.plugin ? ['--plugin'] : []),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    children.add(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolvePromise({ child, ...JSON.parse(line) });
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

/** The project: blogctl.yml naming the site by URL and username, and `files` posts stating their status. */
function makeProject(url, name) {
  const root = join(work, name);
  mkdirSync(join(root, 'posts'), { recursive: true });
  writeFileSync(
    join(root, 'blogctl.yml'),
    `site:\n  url: ${url}\n  username: admin\nnamespace: bench-project\n`,
  );
  for (let i = 0; i < plan.files; i++)
    writeFileSync(
      join(root, 'posts', `${String(i).padStart(4, '0')}.md`),
      `---\nstatus: publish\n---\n# Post ${i}\n\n${'A paragraph of the post body. '.repeat(40)}\n`,
    );
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
    process.stderr.write(`sync bench: wp publish exited ${run.status}: ${run.stderr}\n`);
    process.exit(1);
  }
  return { ms, rows: JSON.parse(run.stdout) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
for (const site of plan.sites) {
  const server = await startSite(site);
  const root = makeProject(server.url, site.key);
  const first = publish(root, server.url);
  if (first.rows.filter((r) => r.action === 'created').length !== plan.files) {
    process.stderr.write(`sync bench: the first run did not create ${plan.files} posts\n`);
    process.exit(1);
  }
  const times = [];
  let stats;
  for (let i = 0; i < plan.runs; i++) {
    await fetch(`${server.url}/__bench/reset`, { method: 'POST' });
    const run = publish(root, server.url);
    if (!run.rows.every((r) => r.action === 'unchanged')) {
      process.stderr.write('sync bench: a no-change run changed something\n');
      process.exit(1);
    }
    times.push(run.ms);
    stats = await (await fetch(`${server.url}/__bench/stats`)).json();
  }
  results[site.key] = { label: site.label, ms: median(times), requests: stats.requests, bytes: stats.bytes };
  if (site.key === 'large') {
    // What the look-up asked before namespaces: every post carrying a marker, every field, rendered ones too.
    await fetch(`${server.url}/__bench/reset`, { method: 'POST' });
    const page = (n) =>
      fetch(
        `${server.url}/wp-json/wp/v2/posts?search=blogctl:v1&status=publish,future,draft,pending,private,trash&context=edit&per_page=100&page=${n}&orderby=id&order=asc&_fields=id,status,slug,link,type,title,content,password`,
      );
    const firstPage = await page(1);
    await firstPage.arrayBuffer();
    const pages = Number(firstPage.headers.get('x-wp-totalpages'));
    await Promise.all(Array.from({ length: pages - 1 }, (_, i) => page(i + 2).then((r) => r.arrayBuffer())));
    const before = await (await fetch(`${server.url}/__bench/stats`)).json();
    results.before = {
      label: 'the look-up before namespaces, same site',
      requests: before.requests,
      bytes: before.bytes,
    };
  }
  stop(server.child);
}

const ratio = (key) => results.large[key] / results.small[key];
const kb = (b) => `${(b / 1024).toFixed(1)} KiB`;
const lines = [
  `\nsync: a no-change wp publish of ${plan.files} files (median of ${plan.runs}; requests and bytes as the site answered)`,
  ...['small', 'large', 'plugin'].map(
    (k) =>
      `  ${results[k].label.padEnd(52)} ${String(Math.round(results[k].ms)).padStart(6)} ms  ${String(results[k].requests).padStart(4)} requests  ${kb(results[k].bytes).padStart(12)}`,
  ),
  `  ratio large/small: time ${ratio('ms').toFixed(2)}x, requests ${ratio('requests').toFixed(2)}x, bytes ${ratio('bytes').toFixed(2)}x (goal: within 1.3x)`,
  `  ${results.before.label}: ${results.before.requests} requests, ${kb(results.before.bytes)} (the look-up alone)`,
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(ROOT, '.bench'), { recursive: true });
writeFileSync(
  join(ROOT, '.bench', `sync-results-node${process.versions.node.split('.')[0]}.json`),
  `${JSON.stringify({ plan: { files: plan.files, runs: plan.runs }, results, ratio: { ms: ratio('ms'), requests: ratio('requests'), bytes: ratio('bytes') } }, null, 2)}\n`,
);
