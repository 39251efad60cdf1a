// Baseline for the bulk commands: the same requests sent with a raw undici Pool at the same concurrency, with
// no validation, retries or output. What the CLI is measured against.
//   node test/bench/baseline-undici-bulk.mjs delete <base-url> <api-key> <concurrency> <id>...
//   node test/bench/baseline-undici-bulk.mjs publish <base-url> <api-key> <concurrency> <file>...
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Pool } from 'undici';

const [kind, base, key, concurrencyText, ...items] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const pool = new Pool(base, { connections: concurrency });
const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };

function requestFor(item) {
  if (kind === 'delete') {
    return { method: 'DELETE', path: `/api/v1/public/delete-blog/${encodeURIComponent(item)}`, headers };
  }
  const text = readFileSync(item, 'utf8');
  const title = /^title:\s*(.+)$/m.exec(text)?.[1] ?? basename(item);
  const body = JSON.stringify({
    credentials: {
      websiteUrl: 'http://127.0.0.1:9',
      username: 'u',
      password: process.env.BLOGCTL_WP_PASSWORD ?? 'x',
    },
    content: { title, content: text.replace(/^---[\s\S]*?---\s*/, ''), status: 'draft' },
  });
  return {
    method: 'POST',
    path: '/api/v1/public/integrations/wordpress/publish',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  };
}

let next = 0;
let failed = 0;
async function worker() {
  while (next < items.length) {
    const res = await pool.request(requestFor(items[next++]));
    await res.body.text();
    if (res.statusCode >= 300) failed++;
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await pool.close();
process.stdout.write(`${items.length - failed}/${items.length} ok\n`);
if (failed) process.exitCode = 1;
