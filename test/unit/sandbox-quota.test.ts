// What one key holder can make the sandbox store: a create-blog request is bounded (keywords, their length,
// every text field), each API key's records have a quota (507 beyond it, other keys unaffected), and the
// data file holds records one per line, never the whole store in one string.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BlogParams } from '../../src/schemas/blog.js';
import { resolveCipher } from '../../src/sandbox/crypto.js';
import { LIMITS } from '../../src/sandbox/limits.js';
import { SandboxStore } from '../../src/sandbox/store.js';
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

async function stop(s: TestSandbox): Promise<void> {
  running.splice(running.indexOf(s), 1);
  await s.close();
}

function tempDataFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-sandbox-quota-'));
  dirs.push(dir);
  return join(dir, 'data.json');
}

const create = (s: TestSandbox, params: BlogParams, key?: string) =>
  s.fetch('/api/v1/public/create-blog', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blogParams: params }),
    ...(key && { auth: key }),
  });

describe('what one create-blog request may ask for', () => {
  it('refuses a keyword of 1 MB, too many keywords and over-long fields with a 400 naming each', async () => {
    const s = await start();
    const cases: [Partial<BlogParams>, string][] = [
      [
        { topicKeywords: ['k'.repeat(1024 * 1024)] },
        `blogParams.topicKeywords[0]: at most ${LIMITS.keywordLength} characters (got 1048576)`,
      ],
      [
        { topicKeywords: Array.from({ length: 21 }, (_, i) => `k${i}`) },
        'blogParams.topicKeywords: at most 20 keywords (got 21)',
      ],
      [
        { targetAudience: { name: 'a', value: 'a', customValue: 'x'.repeat(1001) } },
        'blogParams.targetAudience.customValue: at most 1000 characters (got 1001)',
      ],
      [
        { hyperlinks: Array.from({ length: 21 }, (_, i) => `https://example.com/${i}`) },
        'blogParams.hyperlinks: at most 20 links (got 21)',
      ],
      [{ metaData: { x: 'm'.repeat(17 * 1024) } }, 'blogParams.metaData: at most 16 KB as JSON (got 18 KB)'],
    ];
    for (const [override, message] of cases) {
      const res = await create(s, blogParamsFor(override));
      expect(res.status, message).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(`invalid request: ${message}`);
    }
    expect(await s.api().listBlogs()).toEqual([]);
  });

  it('at every limit at once, makes a blog well under the size a blog may take', async () => {
    const s = await start();
    const long = (n: number, c: string) => c.repeat(n);
    const res = await create(
      s,
      blogParamsFor({
        topicKeywords: Array.from({ length: LIMITS.keywords }, (_, i) => `${i} ${long(96, 'k')}`),
        targetAudience: { name: 'a', value: 'a', customValue: long(1000, 'a') },
        callToAction: { name: 'c', value: 'c', customValue: long(1000, 'c') },
        blogLength: { name: 'Long', value: 'Long' },
        hyperlinks: Array.from({ length: 20 }, (_, i) => `https://example.com/${i}/${long(2000, 'p')}`),
        metaData: { note: long(16_000, 'm') },
      }),
    );
    expect(res.status).toBe(201);
    expect((await res.text()).length).toBeLessThan(LIMITS.blogBytes / 2);
  });
});

describe('a storage quota per API key', () => {
  it('refuses what would pass it with 507, for that key only, counts deletes and holds across a restart', async () => {
    const dataFile = tempDataFile();
    const quotaBytes = 64 * 1024;
    let s = await start({ dataFile, quotaBytes, apiKeys: ['key-one-0123456789', 'key-two-0123456789'] });
    const made: string[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      const res = await create(s, blogParamsFor({ topicKeywords: [`topic ${i}`] }));
      if (res.status === 201) made.push(((await res.json()) as { _id: string })._id);
      else refused = res;
    }
    expect(refused?.status).toBe(507);
    expect(((await refused!.json()) as { message: string }).message).toMatch(
      /^this API key's storage quota is full: it holds 0\.\d\d MB of its 0\.06 MB, and this change needs 0\.\d\d MB more; delete blogs to make room$/,
    );
    expect(made.length).toBeGreaterThan(3);
    expect((await s.api().listBlogs()).map((b) => b._id)).toEqual(made);
    // Another key is not affected.
    expect((await create(s, blogParamsFor(), 'key-two-0123456789')).status).toBe(201);
    // A delete makes room.
    await s.api().deleteBlog(made.shift()!);
    const res = await create(s, blogParamsFor({ topicKeywords: ['again'] }));
    expect(res.status).toBe(201);
    made.push(((await res.json()) as { _id: string })._id);
    await stop(s);
    s = await start({ dataFile, quotaBytes, apiKeys: ['key-one-0123456789'] });
    expect((await create(s, blogParamsFor({ topicKeywords: ['after'] }))).status).toBe(507);
    expect((await s.api().listBlogs()).map((b) => b._id)).toEqual(made);
  });
});

describe('the data file', () => {
  it('holds one record per line (a header and an end line around them), never the store as one string', async () => {
    const dataFile = tempDataFile();
    const s = await start({ dataFile });
    for (let i = 0; i < 5; i++) {
      await s.api().createBlog(blogParamsFor({ topicKeywords: [`topic ${i}`] }), { idempotencyKey: `k${i}` });
    }
    await s.api().updateWordPressSettings({ label: 'Main' });
    const blogs = await s.api().listBlogs();
    await stop(s);
    const store = await SandboxStore.open({ dataFile, cipher: resolveCipher({ dataFile }) });
    await store.compact();
    await store.settled();
    const text = readFileSync(dataFile, 'utf8');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: 3 });
    const records = lines.slice(1, -1).map((l) => JSON.parse(l) as { op: string });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: records.length });
    expect(records.map((r) => r.op).sort()).toEqual([
      ...Array<string>(5).fill('addBlog'),
      ...Array<string>(5).fill('remember'),
      'setSites',
    ]);
    // No line holds more than one record: each is about the size of one blog.
    const largest = Math.max(...blogs.map((b) => JSON.stringify(b).length));
    for (const line of lines.slice(1, -1)) expect(line.length).toBeLessThan(largest + 400);
  });
});
