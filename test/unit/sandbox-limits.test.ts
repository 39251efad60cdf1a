// What the sandbox refuses to take in, and how: JSON nested too deep (400 before anything is stored), a body
// sent without credentials (401, and the rest is never read), an Idempotency-Key reused for another body (422).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/canonical-json.js';
import { readStoreFiles } from '../../src/sandbox/store-read.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const running: TestSandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const s = await startTestSandbox(options);
  running.push(s);
  return s;
}

function tempDataFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-sandbox-limits-'));
  dirs.push(dir);
  return join(dir, 'data.json');
}

const json = { 'content-type': 'application/json' };
const deep = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A create-blog body whose metaData.x nests `levels` objects: the body itself nests levels + 3. */
const deepBlog = (levels: number): string =>
  JSON.stringify({ blogParams: blogParamsFor({ metaData: { x: 'DEEP' } }) }).replace('"DEEP"', deep(levels));

describe('JSON nesting depth', () => {
  it('refuses metaData 4,500 and 5,000 levels deep with 400 naming the limit; the store keeps saving', async () => {
    const dataFile = tempDataFile();
    const s = await start({ dataFile });
    for (const levels of [4_500, 5_000]) {
      const res = await s.fetch('/api/v1/public/create-blog', {
        method: 'POST',
        headers: json,
        body: deepBlog(levels),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        message: 'the request body nests objects and arrays deeper than 256 levels (the limit)',
      });
    }
    // Right at the limit it is taken, saved, and every later write still saves.
    const atLimit = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: json,
      body: deepBlog(253),
    });
    expect(atLimit.status).toBe(201);
    const over = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: json,
      body: deepBlog(254),
    });
    expect(over.status).toBe(400);
    const later = await s.api().createBlog(blogParamsFor());
    const stored = await readStoreFiles(dataFile);
    expect(Object.values(stored.tenants)[0]!.blogs).toHaveLength(2);
    expect((await s.api().listBlogs()).map((b) => b._id).at(-1)).toBe(later._id);
  });
});

/**
 * A TCP relay in front of the sandbox that counts the bytes it hands on towards it. It forwards only as fast as
 * the sandbox reads (pipe's backpressure), so the count is what the sandbox took in, plus the kernel's buffers.
 */
async function countingRelay(
  target: string,
): Promise<{ url: string; forwarded(): number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  let forwarded = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => (forwarded += chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * POSTs `total` bytes of body (declared in Content-Length) and resolves with the answer once the connection is
 * over, however it ends: the write errors of a connection cut after the answer are expected.
 */
function streamBody(
  url: string,
  total: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    let answer: { status: number; body: string; headers: Record<string, unknown> } | undefined;
    const req = request(
      `${url}/api/v1/public/create-blog`,
      { method: 'POST', headers: { ...json, 'content-length': String(total), ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        const done = (): void => {
          answer ??= { status: res.statusCode ?? 0, body, headers: res.headers };
        };
        res.on('end', done).on('error', done).on('close', done);
      },
    );
    req.on('error', () => undefined);
    req.on('close', () => (answer ? resolve(answer) : reject(new Error('no answer'))));
    const chunk = Buffer.alloc(256 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      while (sent < total && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

describe('a request without valid credentials', () => {
  const total = 256 * 1024 * 1024;

  it.each([
    ['no Authorization header', {}],
    ['an unknown API key', { authorization: 'Bearer not-a-key' }],
  ])('%s: 401 at once, the rest of a 256 MiB body is never read', async (_name, auth) => {
    const s = await start();
    const relay = await countingRelay(s.url);
    try {
      const answer = await streamBody(relay.url, total, auth);
      expect(answer.status).toBe(401);
      expect(answer.headers['connection']).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringMatching(/API key/) });
      // What the sandbox took in: the headers and what the kernel buffers held, far from the whole body.
      expect(relay.forwarded()).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await relay.close();
    }
    // It still serves.
    expect((await s.fetch('/api/v1/public/get-all-blogs')).status).toBe(200);
  });
});

describe('an Idempotency-Key reused', () => {
  const create = (s: TestSandbox, key: string, body: string) =>
    s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { ...json, 'idempotency-key': key },
      body,
    });
  const params = blogParamsFor();
  const first = JSON.stringify({ blogParams: params });
  // The same request: keys in another order, other white space.
  const same = JSON.stringify({ blogParams: Object.fromEntries(Object.entries(params).reverse()) }, null, 2);
  const other = JSON.stringify({ blogParams: { ...params, topicKeywords: ['tea'] } });

  it('with the same body replays the first answer; with another body is refused with 422', async () => {
    const dataFile = tempDataFile();
    let s = await start({ dataFile });
    const created = await create(s, 'k1', first);
    expect(created.status).toBe(201);
    const blog = (await created.json()) as { _id: string };

    const replayed = await create(s, 'k1', same);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(blog);

    const refused = await create(s, 'k1', other);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      message:
        'Idempotency-Key "k1" was already used with a different request body; send a new key for a new request',
    });
    expect(await s.api().listBlogs()).toHaveLength(1);

    // The fingerprint is saved with the record (and small), so a restart changes nothing.
    const records = Object.values((await readStoreFiles(dataFile)).tenants)[0]!.idempotency;
    expect(records['k1']!.requestHash).toMatch(/^hmac:[A-Za-z0-9_-]{22}$/);
    running.splice(running.indexOf(s), 1);
    await s.close();
    s = await start({ dataFile });
    expect((await create(s, 'k1', other)).status).toBe(422);
    expect((await create(s, 'k1', same)).headers.get('idempotent-replayed')).toBe('true');
    // Another key is another request.
    expect((await create(s, 'k2', other)).status).toBe(201);
  });

  /** What blogctl before keyed fingerprints stored: a plain SHA-256 of the request, 128 bits, base64url. */
  const unkeyedHash = (body: string) =>
    createHash('sha256')
      .update(`POST /api/v1/public/create-blog\n${canonicalJson(JSON.parse(body))}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  const storeText = (dataFile: string) =>
    [dataFile, `${dataFile}.log`, `${dataFile}.log.old`]
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
  const onlyRecord = async (dataFile: string, key: string) =>
    Object.values((await readStoreFiles(dataFile)).tenants)[0]!.idempotency[key]!;

  it('stores a fingerprint keyed with the store key: no plain hash of a body holding a provider key', async () => {
    const dataFile = tempDataFile();
    const withKey = JSON.stringify({
      blogParams: { ...params, externalProviderApiKey: 'sk-provider-Guess1' },
    });
    let s = await start({ dataFile });
    expect((await create(s, 'pk', withKey)).status).toBe(201);
    const stored = (await onlyRecord(dataFile, 'pk')).requestHash!;
    expect(stored).toMatch(/^hmac:[A-Za-z0-9_-]{22}$/);
    // Hashing a guess reproduces nothing on disk: neither the 128-bit form nor the whole digest.
    const text = storeText(dataFile);
    expect(text).not.toContain(unkeyedHash(withKey));
    expect(text).not.toContain(
      createHash('sha256')
        .update(`POST /api/v1/public/create-blog\n${canonicalJson(JSON.parse(withKey))}`)
        .digest('hex'),
    );
    expect(text).not.toContain('sk-provider-Guess1');
    // Another key (BLOGCTL_SANDBOX_SECRET) gives another fingerprint for the same request.
    const otherFile = tempDataFile();
    const otherKey = await start({ dataFile: otherFile, secret: 'another secret' });
    expect((await create(otherKey, 'pk', withKey)).status).toBe(201);
    expect((await onlyRecord(otherFile, 'pk')).requestHash).not.toBe(stored);

    // The key file stays, so after a restart the same request is replayed and another one refused.
    running.splice(running.indexOf(s), 1);
    await s.close();
    s = await start({ dataFile });
    expect((await create(s, 'pk', withKey)).headers.get('idempotent-replayed')).toBe('true');
    expect((await create(s, 'pk', first)).status).toBe(422);
  });

  it('a record with an unkeyed hash (an earlier version) is replayed as one without; the hash leaves the disk', async () => {
    const dataFile = tempDataFile();
    let s = await start({ dataFile });
    const created = await create(s, 'old', first);
    expect(created.status).toBe(201);
    const blog = (await created.json()) as { _id: string };
    running.splice(running.indexOf(s), 1);
    await s.close();
    // Turn the stored fingerprint back into what an earlier version wrote.
    const keyed = (await onlyRecord(dataFile, 'old')).requestHash!;
    const unkeyed = unkeyedHash(first);
    for (const f of [dataFile, `${dataFile}.log`, `${dataFile}.log.old`].filter((f) => existsSync(f))) {
      writeFileSync(f, readFileSync(f, 'utf8').replaceAll(keyed, unkeyed));
    }
    expect((await onlyRecord(dataFile, 'old')).requestHash).toBe(unkeyed);

    s = await start({ dataFile });
    // Gone at once, from every file: nothing to test guesses against.
    expect(storeText(dataFile)).not.toContain(unkeyed);
    expect((await onlyRecord(dataFile, 'old')).requestHash).toBeUndefined();
    // Replayed for the same key, whatever the body, as records from before fingerprints always were.
    for (const body of [first, other]) {
      const again = await create(s, 'old', body);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(blog);
    }
    expect(await s.api().listBlogs()).toHaveLength(1);
    // New records are keyed and checked as ever.
    expect((await create(s, 'new', first)).status).toBe(201);
    expect((await create(s, 'new', other)).status).toBe(422);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'named %s, like any other key: replayed before and after a restart, never a second blog',
    async (key) => {
      const dataFile = tempDataFile();
      let s = await start({ dataFile });
      const created = await create(s, key, first);
      expect(created.status).toBe(201);
      const blog = (await created.json()) as { _id: string };
      const again = await create(s, key, same);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(blog);
      expect((await create(s, key, other)).status).toBe(422);
      running.splice(running.indexOf(s), 1);
      await s.close();
      s = await start({ dataFile });
      const replayed = await create(s, key, first);
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(await replayed.json()).toEqual(blog);
      expect((await s.api().listBlogs()).map((b) => b._id)).toEqual([blog._id]);
    },
  );

  it('by two requests at once with different bodies: one is carried out, the other refused', async () => {
    const s = await start({ latencyMs: 50 });
    const answers = await Promise.all([create(s, 'race', first), create(s, 'race', other)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect(await s.api().listBlogs()).toHaveLength(1);
  });

  it('a refused request is not remembered: the key may be sent again with a corrected body', async () => {
    const s = await start();
    const bad = await create(s, 'fix', JSON.stringify({ blogParams: { ...params, language: 'x' } }));
    expect(bad.status).toBe(400);
    expect((await create(s, 'fix', first)).status).toBe(201);
  });
});
