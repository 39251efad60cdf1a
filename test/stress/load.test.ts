// The sandbox under load, as its own process (`blogctl sandbox --data …`):
//  1. 10,000 mixed requests at concurrency 50 (autocannon): create-blog 20 %, get-all-blogs 40 %,
//     update-settings 20 %, delete-blog 20 % — each connection deletes the blog it just created, so no delete
//     can 404 — with zero errors, timeouts and non-2xx answers.
//  2. Writes from 20 clients, SIGKILL mid-stream, restart on the same data file: the file is valid JSON and
//     every change acknowledged with a 2xx before the kill is there (and every acknowledged delete is gone).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { readStoreFiles } from '../../src/sandbox/store-read.js';
import { blogParamsFor } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

// autocannon ships no types: the part of its API used here.
interface CannonRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (request: CannonRequest, context: Record<string, unknown>) => CannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface CannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  resets: number;
  duration: number;
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  amount: number;
  timeout: number;
  headers: Record<string, string>;
  requests: CannonRequest[];
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const KEY = 'load-test-key-0123456789';
const API = '/api/v1/public';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const dir = mkdtempSync(join(tmpdir(), 'blogctl-load-'));
const dataFile = join(dir, 'data.json');
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

interface Sandbox {
  url: string;
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `blogctl sandbox` as a separate process; its per-request log on stderr is drained, not kept. */
async function startSandbox(): Promise<Sandbox> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', '--port', '0', '--api-key', KEY, '--data', dataFile],
    {
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BLOGCTL_'))),
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  let head = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${head}`)), 15_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      if (head.length < 4096) head += d;
      const m = /listening on (\S+)/.exec(head);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => reject(new Error(`the sandbox exited: ${head}`)));
  });
  return { url, process: child, exited };
}

const createBody = JSON.stringify({ blogParams: blogParamsFor({ topicKeywords: ['load', 'test'] }) });

describe('sandbox under load', () => {
  let sandbox: Sandbox;

  it('answers 10,000 mixed requests at concurrency 50 with no error and no non-2xx', async () => {
    sandbox = await startSandbox();
    let settingsCounter = 0;
    const result = await autocannon({
      url: sandbox.url,
      connections: 50,
      amount: 10_000,
      timeout: 120,
      headers: HEADERS,
      requests: [
        {
          method: 'POST',
          path: `${API}/create-blog`,
          body: createBody,
          onResponse: (status, body, context) => {
            if (status === 201) context['id'] = (JSON.parse(body) as { _id: string })._id;
          },
        },
        { method: 'GET', path: `${API}/get-all-blogs` },
        {
          method: 'PATCH',
          path: `${API}/integrations/wordpress/update-settings`,
          setupRequest: (request) => {
            const n = settingsCounter++;
            return {
              ...request,
              body: JSON.stringify({
                settings: { id: `load-${n % 10}`, label: `Load ${n}`, autoPublish: n % 2 === 0 },
              }),
            };
          },
        },
        { method: 'GET', path: `${API}/get-all-blogs` },
        {
          method: 'DELETE',
          path: `${API}/delete-blog/unset`,
          setupRequest: (request, context) => ({
            ...request,
            path: `${API}/delete-blog/${encodeURIComponent(String(context['id']))}`,
          }),
        },
      ],
    });
    const summary = {
      requests: result.requests.total,
      seconds: result.duration,
      perSecond: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([s, v]) => [s, v.count])),
    };
    console.log(`load: ${JSON.stringify(summary)}`);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result.resets).toBe(0);
    expect(result.requests.total).toBe(10_000);
    expect(Object.keys(summary.statusCodes).sort()).toEqual(['200', '201']);
    expect(summary.statusCodes['201']).toBe(2_000);

    // Every connection deleted what it created, except creates in a cycle cut short by the total.
    const list = await fetch(`${sandbox.url}${API}/get-all-blogs`, { headers: HEADERS });
    expect(list.status).toBe(200);
    expect(((await list.json()) as unknown[]).length).toBeLessThanOrEqual(50);
  }, 300_000);

  it('keeps every acknowledged write through a SIGKILL mid-stream', async () => {
    sandbox ??= await startSandbox();
    const created = new Set<string>();
    const deleted = new Set<string>();
    /** A delete in flight at the kill: it may or may not have happened. */
    const uncertain = new Set<string>();
    const sites = new Map<string, string>();
    let counter = 0;
    let killed = false;

    const worker = async (): Promise<void> => {
      while (!killed) {
        const n = counter++;
        try {
          if (n % 3 === 0) {
            const res = await fetch(`${sandbox.url}${API}/create-blog`, {
              method: 'POST',
              headers: HEADERS,
              body: createBody,
            });
            if (res.status === 201) created.add(((await res.json()) as { _id: string })._id);
          } else if (n % 3 === 1) {
            const label = `Kill ${n}`;
            const res = await fetch(`${sandbox.url}${API}/integrations/wordpress/update-settings`, {
              method: 'PATCH',
              headers: HEADERS,
              body: JSON.stringify({ settings: { id: `kill-${n}`, label } }),
            });
            if (res.status === 200) sites.set(`kill-${n}`, label);
          } else {
            const id = [...created].find((c) => !deleted.has(c) && !uncertain.has(c));
            if (!id) continue;
            uncertain.add(id);
            const res = await fetch(`${sandbox.url}${API}/delete-blog/${id}`, {
              method: 'DELETE',
              headers: HEADERS,
            });
            if (res.ok) {
              uncertain.delete(id);
              deleted.add(id);
            }
          }
        } catch {
          return; // the process is gone: what was in flight was never acknowledged
        }
      }
    };
    const workers = Array.from({ length: 20 }, worker);
    const acknowledged = (): number => created.size + deleted.size + sites.size;
    // Enough writes in flight and behind it for the kill to land mid-stream; the wait's deadline only turns a
    // sandbox that stopped answering into a failure naming it, never a speed.
    await waitFor(() => acknowledged() >= 300, '300 acknowledged writes', {
      timeoutMs: 120_000,
      everyMs: 10,
    });
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 50)));
    sandbox.process.kill('SIGKILL');
    killed = true;
    await Promise.all(workers);
    expect((await sandbox.exited).signal).toBe('SIGKILL');
    expect(acknowledged()).toBeGreaterThanOrEqual(300);
    expect(deleted.size).toBeGreaterThan(0);

    // The data file and its log are whole and hold every acknowledged settings change.
    const data = await readStoreFiles(dataFile);
    expect(data.rejected).toEqual([]);
    const tenants = Object.values(data.tenants);
    expect(tenants).toHaveLength(1);
    const stored = new Map(tenants[0]!.sites.map((s) => [s.id, s.label]));
    for (const [id, label] of sites) expect(stored.get(id), id).toBe(label);

    // A restarted sandbox loads it and serves every acknowledged blog, and none acknowledged as deleted.
    const again = await startSandbox();
    const res = await fetch(`${again.url}${API}/get-all-blogs`, { headers: HEADERS });
    expect(res.status).toBe(200);
    const ids = new Set(((await res.json()) as { _id: string }[]).map((b) => b._id));
    for (const id of created) if (!deleted.has(id) && !uncertain.has(id)) expect(ids.has(id), id).toBe(true);
    for (const id of deleted) expect(ids.has(id), id).toBe(false);
    console.log(
      `kill: ${created.size} creates, ${deleted.size} deletes, ${sites.size} settings acknowledged; ${uncertain.size} delete(s) in flight`,
    );
    again.process.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  }, 180_000);
});
