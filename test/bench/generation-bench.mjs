// The generation row of `npm run bench` (run by run-all.mjs after bench.mjs, with the same arguments):
// fairness of `dist/sandbox-server.js` writing posts through a provider, under a hog. A fake
// OpenAI-compatible provider (in this process, on 127.0.0.1) answers every call after a fixed delay; one API
// key (the hog) keeps 20 create-blog connections open, sending again as soon as one is answered (after 1 s
// when it was refused with 429); the provider works on 4 calls at a time, as a local model server does;
// another key's create-blog and get-all-blogs latencies (p50, p95) are measured alone and under the
// hog, and their ratios printed. The sandbox caps generations per key, so the hog's 21st request is a
// 429 at once rather than a share of the provider and of the event loop. Also printed: how many provider
// calls the hog caused and the most provider connections open at once. No figure fails the run; a server
// that cannot start or a request that fails unexpectedly does (exit 1).
//
//   node test/bench/generation-bench.mjs [--quick] [--only ...,generation,...]
// Other bench.mjs arguments are accepted and ignored. Figures go to .bench/generation-results-node<major>.json.
/* global fetch */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'dist/sandbox-server.js');
const HOG_KEY = 'hog';
const OTHER_KEY = 'other';
const MODEL = 'bench-writer';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    // For comparison: generations uncapped (as before the caps).
    'no-cap': { type: 'boolean', default: false },
  },
  strict: false,
});
if (flags.only !== undefined && !String(flags.only).split(',').includes('generation')) process.exit(0);
const plan = {
  hogConnections: 20,
  // The other key's requests measured in each phase (one at a time).
  samples: flags.quick ? 4 : 12,
  // Each provider call takes this long (a fast local model), `providerParallel` at a time (Ollama's
  // OLLAMA_NUM_PARALLEL).
  callDelayMs: 50,
  providerParallel: 4,
  // The hog sends a refused (429) request again after this long, an answered one at once.
  hogRetryMs: 1_000,
};

// The fake provider: an outline as JSON, a section of the words asked for; like a local model server it
// works on `providerParallel` calls at a time, the others wait their turn. Counts calls and open sockets.
let calls = 0;
let open = 0;
let mostOpen = 0;
let working = 0;
const queue = [];
const nextCall = () => {
  while (working < plan.providerParallel && queue.length) {
    working++;
    const run = queue.shift();
    setTimeout(() => {
      working--;
      run();
      nextCall();
    }, plan.callDelayMs);
  }
};
const provider = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    calls++;
    const prompt = JSON.parse(body).messages.at(-1).content;
    const text = /Answer with one JSON object/.test(prompt) ? outline(prompt) : section(prompt);
    queue.push(() => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'chat.completion',
          model: MODEL,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 100, total_tokens: 200 },
        }),
      );
    });
    nextCall();
  });
});
provider.on('connection', (socket) => {
  mostOpen = Math.max(mostOpen, ++open);
  socket.once('close', () => open--);
});

function outline(prompt) {
  const count = Number(/in (\d+) sections/.exec(prompt)?.[1] ?? '3');
  const topic = /Topic keywords: "([^"]+)"/.exec(prompt)?.[1] ?? 'topic';
  return JSON.stringify({
    title: `A guide to ${topic}`,
    slug: topic,
    excerpt: `All about ${topic}.`,
    sections: Array.from({ length: count }, (_, i) => ({
      heading: `Part ${i + 1}`,
      points: 'x',
      words: 100,
    })),
  });
}

function section(prompt) {
  const words = Number(/about (\d+) words/.exec(prompt)?.[1] ?? '100');
  const phrases = [...(/word for word: (.*)/.exec(prompt)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map(
    (m) => m[1],
  );
  const cta = /in these words: "(.*)"/.exec(prompt)?.[1];
  const parts = [...phrases, ...(cta ? [cta] : [])].map((p) => `About ${p}.`);
  let count = parts.join(' ').split(/\s+/).filter(Boolean).length;
  const filler = [];
  for (; count < words; count++) filler.push('word');
  return `${parts.join(' ')} ${filler.join(' ')}.`;
}

await new Promise((done) => provider.listen(0, '127.0.0.1', done));
const providerUrl = `http://127.0.0.1:${provider.address().port}/v1`;

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BLOGCTL_')));
if (flags['no-cap'])
  Object.assign(env, { BLOGCTL_GENERATIONS_PER_KEY: '1000', BLOGCTL_GENERATIONS_TOTAL: '10000' });
const child = spawn(
  process.execPath,
  [
    ENTRY,
    '--port',
    '0',
    '--api-key',
    HOG_KEY,
    '--api-key',
    OTHER_KEY,
    '--provider-url',
    providerUrl,
    '--model',
    MODEL,
  ],
  { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
);
process.on('exit', () => {
  try {
    process.kill(child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
});
const url = await new Promise((done, fail) => {
  let out = '';
  const timer = setTimeout(() => fail(new Error(`the sandbox did not start within 60 s:\n${out}`)), 60_000);
  const onData = (chunk) => {
    out += chunk;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (!m) return;
    clearTimeout(timer);
    child.stderr.off('data', onData);
    child.stderr.resume();
    done(m[1].replace(/\/+$/, ''));
  };
  child.stderr.setEncoding('utf8').on('data', onData);
  child.on('exit', (code) => fail(new Error(`the sandbox exited (${code}):\n${out}`)));
});

const option = (v) => ({ name: v, value: v });
const params = (n) => ({
  blogParams: {
    topicKeywords: [`espresso ${n}`],
    language: option('English'),
    toneStyle: option('Friendly'),
    contentStructure: option('How-to guide'),
    callToAction: option('Subscribe'),
    targetAudience: option('Beginners'),
    blogLength: option('Short'),
  },
});
let sequence = 0;
async function create(key) {
  const res = await fetch(`${url}/api/v1/public/create-blog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(params(sequence++)),
  });
  await res.arrayBuffer();
  return res.status;
}
async function list(key) {
  const res = await fetch(`${url}/api/v1/public/get-all-blogs`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  return res.status;
}

async function timed(fn) {
  const started = performance.now();
  const status = await fn();
  return { ms: performance.now() - started, status };
}

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
};

async function phase() {
  const creates = [];
  const lists = [];
  for (let i = 0; i < plan.samples; i++) {
    const c = await timed(() => create(OTHER_KEY));
    if (c.status !== 201) throw new Error(`the other key's create-blog: HTTP ${c.status}`);
    creates.push(c.ms);
    const l = await timed(() => list(OTHER_KEY));
    if (l.status !== 200) throw new Error(`the other key's get-all-blogs: HTTP ${l.status}`);
    lists.push(l.ms);
  }
  const round = (v) => Number(v.toFixed(1));
  return {
    createP50: round(pct(creates, 0.5)),
    createP95: round(pct(creates, 0.95)),
    listP50: round(pct(lists, 0.5)),
    listP95: round(pct(lists, 0.95)),
  };
}

const alone = await phase();
const callsBefore = calls;
mostOpen = open;
let hogging = true;
const hogAnswers = { 201: 0, 429: 0, other: 0 };
const hog = async () => {
  while (hogging) {
    const status = await create(HOG_KEY);
    hogAnswers[status === 201 || status === 429 ? status : 'other']++;
    if (status === 429 && hogging) await new Promise((done) => setTimeout(done, plan.hogRetryMs));
  }
};
const hogs = Array.from({ length: plan.hogConnections }, hog);
const underHog = await phase();
hogging = false;
await Promise.all(hogs);
const results = {
  alone,
  underHog,
  ratio: {
    createP50: Number((underHog.createP50 / alone.createP50).toFixed(2)),
    listP50: Number((underHog.listP50 / alone.listP50).toFixed(2)),
  },
  hog: { connections: plan.hogConnections, answers: hogAnswers },
  providerCallsUnderHog: calls - callsBefore,
  mostProviderConnections: mostOpen,
};
process.stdout.write(
  `generation under a ${plan.hogConnections}-connection hog (another key, p50): create ${alone.createP50} → ${underHog.createP50} ms (×${results.ratio.createP50}), list ${alone.listP50} → ${underHog.listP50} ms (×${results.ratio.listP50}); hog answered 201 ×${hogAnswers[201]}, 429 ×${hogAnswers[429]}; at most ${mostOpen} provider connections\n`,
);
mkdirSync(join(ROOT, '.bench'), { recursive: true });
writeFileSync(
  join(ROOT, '.bench', `generation-results-node${process.versions.node.split('.')[0]}.json`),
  `${JSON.stringify(results, null, 2)}\n`,
);
process.kill(child.pid, 'SIGTERM');
provider.closeAllConnections();
provider.close();
process.exit(hogAnswers.other ? 1 : 0);
