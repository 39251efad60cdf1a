// The sandbox driven through the real BlogApi + HttpClient over loopback: every endpoint and variant.
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, NotFoundError, RejectedError } from '../../src/errors.js';
import { simulatedGenerations } from '../../src/sandbox/routes.js';
import { blogParamsFor, startTestSandbox, TEST_KEY, type TestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const start = async (options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> =>
  (sandbox = await startTestSandbox(options));

describe('blogs', () => {
  it('creates, lists oldest first, and deletes with 200 {success, _id}', async () => {
    const api = (await start()).api();
    const first = await api.createBlog(blogParamsFor());
    const second = await api.createBlog(blogParamsFor({ topicKeywords: ['latte art'] }));
    expect(first._id).toMatch(/^[0-9a-f]{24}$/);
    expect(first).toMatchObject({
      status: 'generated',
      language: 'en',
      topicKeywords: ['home espresso', 'grinder'],
    });
    expect(new Date(String(first['createdAt'])).toISOString()).toBe(first['createdAt']);
    expect((await api.listBlogs()).map((b) => b._id)).toEqual([first._id, second._id]);

    const deleted = await api.deleteBlog(first._id);
    expect(deleted).toEqual({ id: first._id, status: 200, body: { success: true, _id: first._id } });
    expect((await api.listBlogs()).map((b) => b._id)).toEqual([second._id]);
  });

  it('findBlog, countBlogs and blogTitles read the list and keep only what they answer', async () => {
    const api = (await start()).api();
    expect(await api.countBlogs()).toBe(0);
    expect(await api.findBlog('6650c0ffee0000000000abcd')).toEqual({ blog: undefined, total: 0 });
    const first = await api.createBlog(blogParamsFor());
    const second = await api.createBlog(blogParamsFor({ topicKeywords: ['latte art'] }));
    expect(await api.countBlogs()).toBe(2);
    const found = await api.findBlog(second._id);
    expect(found.total).toBe(2);
    expect(found.blog).toEqual((await api.listBlogs())[1]);
    expect(await api.blogTitles()).toEqual(
      new Map([
        [first._id, first.title],
        [second._id, second.title],
      ]),
    );
  });

  it('answers 201 with the blog, including category and metaData when given', async () => {
    const s = await start();
    const res = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        blogParams: blogParamsFor({ category: 'Coffee', metaData: { campaign: 'spring' } }),
      }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ category: 'Coffee', metaData: { campaign: 'spring' } });
  });

  it('deletes with 204 and no body when configured', async () => {
    const api = (await start({ deleteStatus: 204 })).api();
    const blog = await api.createBlog(blogParamsFor());
    expect(await api.deleteBlog(blog._id)).toEqual({ id: blog._id, status: 204 });
  });

  it('answers 404 for an unknown id, URL-decoding it', async () => {
    const s = await start();
    await expect(s.api().deleteBlog('no such/id')).rejects.toBeInstanceOf(NotFoundError);
    const res = await s.fetch('/api/v1/public/delete-blog/no%20such%2Fid', { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'no blog with id "no such/id"' });
  });

  it('keeps each API key in its own namespace', async () => {
    const s = await start({ apiKeys: [TEST_KEY, 'other-key-abcdefghijklmnop'] });
    const mine = await s.api().createBlog(blogParamsFor());
    const theirs = s.api('other-key-abcdefghijklmnop');
    expect(await theirs.listBlogs()).toEqual([]);
    await expect(theirs.deleteBlog(mine._id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await s.api().listBlogs()).toHaveLength(1);
  });

  it('simulates generation time with latencyMs', async () => {
    const api = (await start({ latencyMs: 150 })).api();
    const started = performance.now();
    await api.createBlog(blogParamsFor());
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe('authentication', () => {
  it('refuses a missing key and an unknown key with 401 JSON', async () => {
    const s = await start();
    const missing = await s.fetch('/api/v1/public/get-all-blogs', { auth: null });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: expect.stringContaining('missing API key') });
    const unknown = await s.fetch('/api/v1/public/get-all-blogs', { auth: 'wrong-key' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: 'unknown API key' });
    await expect(s.api('wrong-key').listBlogs()).rejects.toBeInstanceOf(AuthError);
  });

  it('generates a key when none is given and reports it', async () => {
    let reported = '';
    const s = await start({ apiKeys: [], onGeneratedKey: (k) => (reported = k) });
    expect(reported.length).toBeGreaterThanOrEqual(24);
    expect(s.apiKeys).toEqual([reported]);
    expect(await s.api(reported).listBlogs()).toEqual([]);
  });
});

describe('idempotency', () => {
  it('replays the first create-blog answer for a repeated Idempotency-Key and creates nothing new', async () => {
    const s = await start();
    const api = s.api();
    const first = await api.createBlog(blogParamsFor(), { idempotencyKey: 'key-1' });
    const again = await api.createBlog(blogParamsFor(), { idempotencyKey: 'key-1' });
    expect(again).toEqual(first);
    expect(await api.listBlogs()).toHaveLength(1);
    const raw = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'key-1' },
      body: JSON.stringify({ blogParams: blogParamsFor() }),
    });
    expect(raw.status).toBe(201);
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
    // The same key for another request is refused rather than answered with the first one.
    const other = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'key-1' },
      body: '{}',
    });
    expect(other.status).toBe(422);
    expect(await api.listBlogs()).toHaveLength(1);
  });

  it('runs concurrent requests with the same key once', async () => {
    const s = await start({ latencyMs: 50 });
    const api = s.api();
    const results = await Promise.all(
      [1, 2, 3].map(() => api.createBlog(blogParamsFor(), { idempotencyKey: 'same' })),
    );
    expect(new Set(results.map((b) => b._id)).size).toBe(1);
    expect(await api.listBlogs()).toHaveLength(1);
  });

  it('scopes keys per API key and does not remember refused requests', async () => {
    const s = await start({ apiKeys: [TEST_KEY, 'other-key-abcdefghijklmnop'] });
    await s.api().createBlog(blogParamsFor(), { idempotencyKey: 'shared' });
    await s.api('other-key-abcdefghijklmnop').createBlog(blogParamsFor(), { idempotencyKey: 'shared' });
    expect(await s.api('other-key-abcdefghijklmnop').listBlogs()).toHaveLength(1);

    const bad = blogParamsFor({ blogLength: { name: 'x', value: 'Huge' as 'Long' } });
    await expect(s.api().createBlog(bad, { idempotencyKey: 'retry-me' })).rejects.toBeInstanceOf(
      RejectedError,
    );
    await expect(s.api().createBlog(blogParamsFor(), { idempotencyKey: 'retry-me' })).resolves.toMatchObject({
      status: 'generated',
    });
  });
});

describe('WordPress settings', () => {
  it('creates the only site from a patch without id, then patches it field by field', async () => {
    const api = (await start()).api();
    const created = await api.updateWordPressSettings({
      label: 'Blog',
      credentials: { websiteUrl: 'https://blog.example', username: 'admin', password: 'app pass word 1234' },
    });
    expect(created).toEqual({
      success: true,
      integration: {
        id: 'site-1',
        label: 'Blog',
        credentials: { websiteUrl: 'https://blog.example', username: 'admin', hasPassword: true },
      },
    });
    const patched = await api.updateWordPressSettings({
      autoPublish: true,
      credentials: { username: 'editor' },
    });
    expect(patched.integration).toEqual({
      id: 'site-1',
      label: 'Blog',
      autoPublish: true,
      credentials: { websiteUrl: 'https://blog.example', username: 'editor', hasPassword: true },
    });
  });

  it('patches the site named by id, creating it when absent', async () => {
    const api = (await start()).api();
    await api.updateWordPressSettings({ id: 'a', label: 'A' });
    const b = await api.updateWordPressSettings({ id: 'b', isIntegrated: true });
    expect(b.integration).toEqual({ id: 'b', isIntegrated: true });
    const a = await api.updateWordPressSettings({ id: 'a', isWebsiteValid: false });
    expect(a.integration).toEqual({ id: 'a', label: 'A', isWebsiteValid: false });
  });

  it('refuses a patch without id when several sites exist, naming the fix', async () => {
    const api = (await start()).api();
    await api.updateWordPressSettings([{ id: 'a' }, { id: 'b' }]);
    await expect(api.updateWordPressSettings({ label: 'which?' })).rejects.toThrow(/pass settings\.id/);
  });

  it('replaces the whole list with an array and never returns passwords', async () => {
    const s = await start();
    const api = s.api();
    await api.updateWordPressSettings({ id: 'old', label: 'Old' });
    const replaced = await api.updateWordPressSettings([
      {
        id: 'x',
        label: 'X',
        credentials: { websiteUrl: 'https://x.example', username: 'u', password: 'secret-pass-1' },
      },
      { id: 'y', autoPublish: false },
    ]);
    expect(replaced.integration).toEqual([
      {
        id: 'x',
        label: 'X',
        credentials: { websiteUrl: 'https://x.example', username: 'u', hasPassword: true },
      },
      { id: 'y', autoPublish: false },
    ]);
    expect(JSON.stringify(replaced)).not.toContain('secret-pass-1');
    // "old" is gone: a patch without id now has two candidates.
    await expect(api.updateWordPressSettings({ label: 'z' })).rejects.toThrow(/"x", "y"/);
  });

  it('refuses duplicate ids in an array', async () => {
    const api = (await start()).api();
    await expect(api.updateWordPressSettings([{ id: 'a' }, { id: 'a' }])).rejects.toThrow(
      /settings\[1\]\.id: duplicate id "a"/,
    );
  });

  it('refuses invalid fields by name', async () => {
    const s = await start();
    const res = await s.fetch('/api/v1/public/integrations/wordpress/update-settings', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { credentials: { websiteUrl: 'ftp://x' }, autoPublish: 'yes' } }),
    });
    expect(res.status).toBe(400);
    const { message } = (await res.json()) as { message: string };
    expect(message).toContain('settings.credentials.websiteUrl');
    expect(message).toContain('settings.autoPublish');
  });
});

describe('close()', () => {
  it('ends keep-alive connections and resolves promptly', async () => {
    const s = await startTestSandbox();
    const api = s.api();
    await api.listBlogs(); // leaves a pooled keep-alive socket open
    // Promptly: not after the idle socket's keep-alive (5 s) or the close grace (5 s) runs out.
    const started = performance.now();
    await s.close();
    expect(performance.now() - started).toBeLessThan(4_000);
    await expect(fetch(`${s.url}/api/v1/public/get-all-blogs`)).rejects.toThrow();
  });

  it('cuts a simulated generation short with 503 instead of holding shutdown', async () => {
    const s = await startTestSandbox({ latencyMs: 20_000 });
    const pending = s.api().createBlog(blogParamsFor());
    await waitFor(() => simulatedGenerations() === 1, 'the generation to start');
    const started = performance.now();
    // Answered by the shutdown (503), far sooner than the 20 s generation would have taken.
    await Promise.all([s.close(), expect(pending).rejects.toThrow(/HTTP 503.*shutting down/)]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
