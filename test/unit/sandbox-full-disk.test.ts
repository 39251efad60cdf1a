// The sandbox's data file on a real full disk (a 2 MB tmpfs, filled up): a change is answered, and seen, only
// once it is on disk; a write the disk refuses is answered 507 and leaves nothing behind (in memory, on disk,
// or as an Idempotency-Key record to replay); once space is freed, writes work again without a restart; and a
// restart finds exactly what was acknowledged. Mounting needs root (CI runs as root); without it these tests
// are skipped.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resolveCipher } from '../../src/sandbox/crypto.js';
import { generateBlog } from '../../src/sandbox/generator.js';
import { tenantId } from '../../src/sandbox/store.js';
import { fillUp, tmpfsMounts } from '../helpers/tmpfs.js';
import { blogParamsFor, startTestSandbox, TEST_KEY, type TestSandbox } from '../helpers/sandbox.js';

const mounts = tmpfsMounts('blogctl-sandbox-disk-');
const disk = mounts.mount('disk', '2m');
afterAll(() => mounts.cleanup());

const running: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(dataFile: string): Promise<TestSandbox> {
  const s = await startTestSandbox({ dataFile });
  running.push(s);
  return s;
}

async function stop(s: TestSandbox): Promise<void> {
  running.splice(running.indexOf(s), 1);
  await s.close();
}

const json = { 'content-type': 'application/json' };
const FULL = {
  message:
    'the sandbox could not save the change: its disk is full (ENOSPC); nothing was changed — free space and send the request again',
};

describe.skipIf(!disk)('a full disk under the data file (needs root to mount a tmpfs)', () => {
  it('refuses writes with 507, keeps nothing of them, and recovers once space is freed', async () => {
    const dataFile = join(disk!, 'state', 'data.json');
    let s = await start(dataFile);
    const create = (key: string, keyword = 'espresso') =>
      s.fetch('/api/v1/public/create-blog', {
        method: 'POST',
        headers: { ...json, 'idempotency-key': key },
        // A long post: its line is larger than the page of the log left unfilled.
        body: JSON.stringify({
          blogParams: blogParamsFor({
            topicKeywords: [keyword],
            blogLength: { name: 'Long', value: 'Long' },
          }),
        }),
      });
    const remove = (id: string) => s.fetch(`/api/v1/public/delete-blog/${id}`, { method: 'DELETE' });
    const listed = async () => (await s.api().listBlogs()).map((b) => b._id);

    // Enough blogs that deleting them one by one outgrows any page the log has left.
    const kept: string[] = [];
    for (let i = 0; i < 60; i++) kept.push((await s.api().createBlog(blogParamsFor()))._id);
    const fillers = fillUp(disk!);

    // A create the disk refuses: 507, not listed, and its retry with the same key is refused again rather
    // than replayed.
    const refused = await create('full-1');
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual(FULL);
    expect(await listed()).toEqual(kept);
    const retried = await create('full-1');
    expect(retried.status).toBe(507);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();

    // Deletes: those whose line still fits are carried out; the first the disk refuses leaves its blog listed.
    const deleted: string[] = [];
    let refusedDelete: string | undefined;
    for (const id of kept) {
      const res = await remove(id);
      if (res.status === 200) {
        deleted.push(id);
        continue;
      }
      expect(res.status).toBe(507);
      expect(await res.json()).toEqual(FULL);
      refusedDelete = id;
      break;
    }
    expect(refusedDelete).toBeDefined();
    const left = kept.filter((id) => !deleted.includes(id));
    expect(await listed()).toEqual(left);

    // 64 KiB freed, far less than a snapshot of the store would take: the same key creates (not a replay),
    // the refused delete goes through; no restart.
    rmSync(fillers[0]!);
    const created = await create('full-1');
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    const blog = (await created.json()) as { _id: string };
    expect((await remove(refusedDelete!)).status).toBe(200);
    const expected = [...left.filter((id) => id !== refusedDelete), blog._id];
    expect(await listed()).toEqual(expected);

    // A restart finds exactly what was acknowledged, and the key replays the blog it made.
    await stop(s);
    s = await start(dataFile);
    expect(await listed()).toEqual(expected);
    const replayed = await create('full-1');
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replayed.json()) as { _id: string })._id).toBe(blog._id);
    for (const f of fillers) rmSync(f, { force: true });
  });

  it('with no room for a whole snapshot, still takes every write that fits (no snapshot before each)', async () => {
    const dataFile = join(disk!, 'v1', 'data.json');
    // A data file of the first format (about 600 KB): the first write owes a snapshot of the whole store.
    mkdirSync(join(dataFile, '..'), { mode: 0o700 });
    const { externalProviderApiKey: _, ...params } = blogParamsFor();
    const seed = Array.from({ length: 200 }, (_, i) =>
      generateBlog(params, (0x6a000000 + i).toString(16) + '0'.repeat(16), new Date(0).toISOString()),
    );
    let s = await start(dataFile);
    await stop(s);
    writeFileSync(
      dataFile,
      JSON.stringify({
        version: 1,
        keyCheck: resolveCipher({ dataFile }).keyCheck,
        tenants: { [tenantId(TEST_KEY)]: { blogs: seed, sites: [], idempotency: {} } },
      }),
      { mode: 0o600 },
    );
    const fillers = fillUp(disk!, 'v1-filler');
    // Room for a few blogs, not for the snapshot.
    rmSync(fillers[0]!);
    s = await start(dataFile);
    const made: string[] = [];
    for (let i = 0; i < 10; i++) {
      made.push((await s.api().createBlog(blogParamsFor({ topicKeywords: [`fits ${i}`] })))._id);
    }
    await stop(s);
    for (const f of fillers) rmSync(f, { force: true });
    s = await start(dataFile);
    expect((await s.api().listBlogs()).map((b) => b._id)).toEqual([...seed.map((b) => b._id), ...made]);
  });
});
