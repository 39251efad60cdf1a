// The sandbox store's row of `npm run bench` (run by run-all.mjs after bench.mjs, with the same arguments):
// acknowledged writes per second (`POST create-blog`, 201) against `dist/sandbox-server.js --data FILE`, once
// with an empty store and once with a store of about 20 MB. Each write is on disk before its answer, so this
// is the store's durable write rate. No figure ever fails the run; a server that cannot start or a write
// that fails does (exit 1).
//
//   node test/bench/store-bench.mjs [--quick] [--only ...,store,...] [--store-mb N]
// Other bench.mjs arguments are accepted and ignored. Figures go to .bench/store-results-node<major>.json.
/* global fetch */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'dist/sandbox-server.js');
const API_KEY = 'k';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'store-mb': { type: 'string' },
  },
  strict: false,
});
if (flags.only !== undefined && !String(flags.only).split(',').includes('store')) process.exit(0);
const plan = {
  // --quick (CI) only proves the row works: short windows.
  seconds: flags.quick ? 1 : 5,
  warmupWrites: flags.quick ? 5 : 20,
  concurrency: 8,
  // --quick seeds 5 MB, enough to prove the row works, in a few seconds.
  storeBytes: Number(flags['store-mb'] ?? (flags.quick ? 5 : 20)) * 1024 * 1024,
};

const work = mkdtempSync(join(tmpdir(), 'blogctl-store-bench-'));
const children = new Set();
const killAll = () => {
  for (const child of children) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
};
process.on('exit', () => {
  killAll();
  rmSync(work, { recursive: true, force: true });
});

function startSandbox(dataFile) {
  return new Promise((resolvePromise, reject) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BLOGCTL_')));
    const child = spawn(process.execPath, [ENTRY, '--port', '0', '--api-key', API_KEY, '--data', dataFile], {
      cwd: ROOT,
      env: { ...env, BLOGCTL_SANDBOX_SECRET: 'store bench secret' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.add(child);
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the sandbox did not start within 60 s:\n${out}`)),
      60_000,
    );
    const onData = (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.stderr.resume();
      resolvePromise({ child, url: m[1].replace(/\/+$/, '') });
    };
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before it was ready:\n${out}`));
    });
  });
}

async function stopSandbox({ child }) {
  const exited = new Promise((done) => child.once('exit', done));
  process.kill(child.pid, 'SIGTERM');
  await exited;
  children.delete(child);
}

const option = (v) => ({ name: v, value: v });
let sequence = 0;
async function createBlog(url) {
  const n = sequence++;
  const res = await fetch(`${url}/api/v1/public/create-blog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      blogParams: {
        topicKeywords: [`home espresso ${n}`],
        language: option('English'),
        toneStyle: option('Friendly'),
        contentStructure: option('Listicle'),
        callToAction: option('Subscribe'),
        targetAudience: option('Developers'),
        blogLength: { name: 'Short', value: 'Short' },
      },
    }),
  });
  const body = await res.text();
  if (res.status !== 201) throw new Error(`create-blog: HTTP ${res.status} ${body}`);
  return body;
}

/** Acknowledged writes per second over a fixed window, `concurrency` requests in flight. */
async function measure(url) {
  for (let i = 0; i < plan.warmupWrites; i++) await createBlog(url);
  let writes = 0;
  const started = performance.now();
  const end = started + plan.seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      await createBlog(url);
      writes++;
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { writes, seconds: Number(seconds.toFixed(2)), perSecond: Math.round(writes / seconds) };
}

/**
 * A store of about `bytes`, written straight to disk in the format of the first data files (version 1, one
 * tenant, no sites): copies of a blog the sandbox generated, each with its own id.
 */
function seedStore(file, sampleText, bytes) {
  const sample = JSON.parse(sampleText);
  const tenant = createHash('sha256').update(`blogctl-sandbox:${API_KEY}`).digest('hex').slice(0, 32);
  const blogs = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const blog = { ...sample, _id: `${(0x60000000 + i).toString(16)}${'0'.repeat(16)}`, slug: `seed-${i}` };
    size += JSON.stringify(blog).length + 1;
    blogs.push(blog);
  }
  mkdirSync(join(file, '..'), { recursive: true });
  const text = `${JSON.stringify({ version: 1, tenants: { [tenant]: { blogs, sites: [], idempotency: {} } } })}\n`;
  writeFileSync(file, text, { mode: 0o600 });
  return { blogs: blogs.length, bytes: Buffer.byteLength(text) };
}

async function main() {
  if (!existsSync(ENTRY)) {
    process.stdout.write('store: skipped, dist/sandbox-server.js is not built (npm run build)\n');
    return;
  }
  const rows = [];
  const emptyFile = join(work, 'empty', 'data.json');
  let sandbox = await startSandbox(emptyFile);
  const sample = await createBlog(sandbox.url);
  rows.push({ store: 'empty', ...(await measure(sandbox.url)) });
  await stopSandbox(sandbox);

  const largeFile = join(work, 'large', 'data.json');
  const seeded = seedStore(largeFile, sample, plan.storeBytes);
  sandbox = await startSandbox(largeFile);
  rows.push({
    store: `${(seeded.bytes / 1024 / 1024).toFixed(1)} MB (${seeded.blogs} blogs)`,
    ...(await measure(sandbox.url)),
  });
  await stopSandbox(sandbox);

  const out = [
    `\nstore: acknowledged writes per second, sandbox --data, POST create-blog, ${plan.concurrency} in flight, ${plan.seconds} s each`,
    ...rows.map(
      (r) =>
        `  ${r.store.padEnd(26)} ${String(r.perSecond).padStart(6)} writes/s  (${r.writes} in ${r.seconds} s)`,
    ),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  const file = join(ROOT, `.bench/store-results-node${process.versions.node.split('.')[0]}.json`);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, plan, rows }, null, 2)}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`store bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
