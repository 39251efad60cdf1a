// The sandbox as its own process (src/sandbox/main.ts bundled with esbuild, so no build step is needed):
// SIGKILL mid-stream must leave a valid data file holding every acknowledged change; SIGTERM stops cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { readStoreFiles } from '../../src/sandbox/store-read.js';
import { blogParamsFor } from '../helpers/sandbox.js';

const KEY = 'process-test-key-0123456789';
let dir: string;
let entry: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'blogctl-sandbox-proc-'));
  entry = join(dir, 'sandbox.mjs');
  await build({
    entryPoints: [resolve(import.meta.dirname, '../../src/sandbox/main.ts')],
    outfile: entry,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    // CommonJS dependencies require() Node built-ins; give the ESM bundle a require (as scripts/build.mjs does).
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Child {
  process: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The sandbox as a process; `keys` reach it through BLOGCTL_SANDBOX_KEYS, as the documentation advises. */
async function spawnSandbox(args: string[], keys?: string): Promise<Child> {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BLOGCTL_'))),
    ...(keys !== undefined && { BLOGCTL_SANDBOX_KEYS: keys }),
  };
  const child = spawn(process.execPath, [entry, '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${stderr}`)), 10_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const m = /listening on (\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    void exited.then(() => reject(new Error(`sandbox exited: ${stderr}`)));
  });
  return { process: child, url, stderr: () => stderr, exited };
}

describe('sandbox process', () => {
  it('keeps every acknowledged change through SIGKILL at any moment', async () => {
    const file = join(dir, 'kill', 'data.json');
    const acknowledged = { blogs: new Set<string>(), sites: new Set<string>() };
    let counter = 0;
    for (let round = 0; round < 3; round++) {
      const child = await spawnSandbox(['--data', file], KEY);
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      let killed = false;
      const worker = async (): Promise<void> => {
        while (!killed) {
          const n = counter++;
          try {
            if (n % 2) {
              const res = await fetch(`${child.url}/api/v1/public/create-blog`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ blogParams: blogParamsFor({ topicKeywords: [`topic ${n}`] }) }),
              });
              if (res.status === 201) acknowledged.blogs.add(((await res.json()) as { _id: string })._id);
            } else {
              const res = await fetch(`${child.url}/api/v1/public/integrations/wordpress/update-settings`, {
                method: 'PATCH',
                headers,
                body: JSON.stringify({ settings: { id: `site-${n}`, label: `Site ${n}` } }),
              });
              if (res.status === 200) acknowledged.sites.add(`site-${n}`);
            }
          } catch {
            return; // the process is gone: whatever was in flight was never acknowledged
          }
        }
      };
      const workers = Array.from({ length: 12 }, worker);
      // Let acknowledged writes pile up, then kill without warning (a different moment each round).
      const goal = acknowledged.blogs.size + acknowledged.sites.size + 15;
      const deadline = Date.now() + 10_000;
      while (acknowledged.blogs.size + acknowledged.sites.size < goal && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
      child.process.kill('SIGKILL');
      killed = true;
      await Promise.all(workers);
      expect((await child.exited).signal).toBe('SIGKILL');

      // What the files hold (the data file and its log), read without starting anything.
      const data = await readStoreFiles(file);
      const [tenant] = Object.values(data.tenants);
      const blogIds = new Set(tenant!.blogs.map((b) => b._id));
      const siteIds = new Set(tenant!.sites.map((s) => s.id));
      for (const id of acknowledged.blogs) expect(blogIds.has(id)).toBe(true);
      for (const id of acknowledged.sites) expect(siteIds.has(id)).toBe(true);
    }
    expect(acknowledged.blogs.size + acknowledged.sites.size).toBeGreaterThan(30);
    // The file still loads in a fresh sandbox.
    const again = await startSandbox({ port: 0, dataFile: file, apiKeys: [KEY] });
    await again.close();
  }, 60_000);

  it('keeps every acknowledged change through SIGKILL while its log is appended to and compacted', async () => {
    const file = join(dir, 'compact', 'data.json');
    const acknowledged = new Set<string>();
    const deleted = new Set<string>();
    const uncertain = new Set<string>();
    let counter = 0;
    for (let round = 0; round < 3; round++) {
      const child = await spawnSandbox(['--data', file], KEY);
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      let killed = false;
      const worker = async (): Promise<void> => {
        while (!killed) {
          const n = counter++;
          try {
            const victim =
              n % 5 === 0
                ? [...acknowledged].find((id) => !deleted.has(id) && !uncertain.has(id))
                : undefined;
            if (victim) {
              // In flight when the process dies: deleted or not, either is right.
              uncertain.add(victim);
              const res = await fetch(`${child.url}/api/v1/public/delete-blog/${victim}`, {
                method: 'DELETE',
                headers,
              });
              if (res.ok) {
                uncertain.delete(victim);
                deleted.add(victim);
              }
              continue;
            }
            const res = await fetch(`${child.url}/api/v1/public/create-blog`, {
              method: 'POST',
              headers: { ...headers, 'idempotency-key': `create-${n}` },
              body: JSON.stringify({ blogParams: blogParamsFor({ topicKeywords: [`topic ${n}`] }) }),
            });
            if (res.status === 201) acknowledged.add(((await res.json()) as { _id: string })._id);
          } catch {
            return; // the process is gone: whatever was in flight was never acknowledged
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      // About 6 KB a blog (the blog and its idempotency record): a few compactions a round.
      const goal = acknowledged.size + 120 + Math.floor(Math.random() * 60);
      const deadline = Date.now() + 20_000;
      while (acknowledged.size < goal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      child.process.kill('SIGKILL');
      killed = true;
      await Promise.all(workers);
      expect((await child.exited).signal).toBe('SIGKILL');

      const data = await readStoreFiles(file);
      expect(data.rejected).toEqual([]);
      const stored = new Set(Object.values(data.tenants)[0]!.blogs.map((b) => b._id));
      for (const id of acknowledged)
        if (!uncertain.has(id)) expect(stored.has(id), id).toBe(!deleted.has(id));
      // What the restarted store holds settles the deletes that were in flight.
      for (const id of uncertain) if (!stored.has(id)) deleted.add(id);
      uncertain.clear();
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(360);
    expect(deleted.size).toBeGreaterThan(0);
    // The log was compacted into new snapshots along the way.
    expect((await readStoreFiles(file)).generation).toBeGreaterThanOrEqual(3);
  }, 90_000);

  it('prints the URL and a generated key, and exits 0 on SIGTERM', async () => {
    const child = await spawnSandbox([]);
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr()).toMatch(
      /^blogctl sandbox listening on http:\/\/127\.0\.0\.1:\d+\nAPI key: sbx_\S{24,}\n$/,
    );
  });

  it('takes --allow-private-relay; on loopback it prints one line and no warning', async () => {
    const keyFile = join(dir, 'keys');
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const child = await spawnSandbox(['--api-key-file', keyFile, '--allow-private-relay']);
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr()).toMatch(/^blogctl sandbox listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  it('never prints a key the person chose, and exits 0 on SIGINT', async () => {
    const child = await spawnSandbox(['--api-key', KEY]);
    const res = await fetch(`${child.url}/api/v1/public/get-all-blogs`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    child.process.kill('SIGINT');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr()).not.toContain(KEY);
    expect(child.stderr()).toContain('warning: --api-key shows the key to every user of this machine (ps)');
    expect(child.stderr()).toMatch(/GET \/api\/v1\/public\/get-all-blogs 200 \d+ms/);
  });
});
