// A post written through a provider is bounded by its client and by the sandbox: a request whose client
// closes its connection stops its provider calls at once and stores nothing; generations run at most so
// many at a time per API key and in all (429 with Retry-After past that); the quota is checked before the
// provider is asked for anything; one post makes a bounded number of provider calls within a deadline.
// The sandbox in-process, the fake OpenAI-compatible provider on 127.0.0.1 counting calls and sockets.
import { request, type ClientRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxGenerator } from '../../src/sandbox/provider.js';
import { simulatedGenerations } from '../../src/sandbox/routes.js';
import type { ProviderSettings } from '../../src/sandbox/provider-config.js';
import { apiError, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

const OTHER_KEY = 'other-key-0123456789abcdef';
let fake: FakeOpenAI;
let sandbox: TestSandbox | undefined;

beforeEach(async () => {
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  await fake.close();
});

async function start(
  settings: Partial<ProviderSettings> = {},
  options: Parameters<typeof startTestSandbox>[0] = {},
): Promise<TestSandbox> {
  sandbox = await startTestSandbox({
    apiKeys: ['test-key-0123456789abcdef', OTHER_KEY],
    generator: createSandboxGenerator({ url: fake.url, model: fake.model, retryBaseMs: 1, ...settings }),
    ...options,
  });
  return sandbox;
}

/** A create-blog sent on its own connection, which the test can close before the answer. */
function rawCreate(s: TestSandbox, key = s.apiKey): { req: ClientRequest; answered: Promise<number> } {
  const body = JSON.stringify({ blogParams: blogParamsFor() });
  const req = request(`${s.url}/api/v1/public/create-blog`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answered = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
  });
  req.end(body);
  return { req, answered };
}

const sectionCalls = (): number => fake.requests.filter((r) => /Write section/.test(r.prompt)).length;

describe('a client that goes away', () => {
  it('100 requests closed by their clients: their provider calls end at once, none follows, nothing is stored', async () => {
    const s = await start({ generationsPerKey: 100, generationsTotal: 100 });
    fake.respond = () => 'hang';
    const clients = Array.from({ length: 100 }, () => rawCreate(s));
    await waitFor(() => fake.requests.length === 100, 'an outline call of each request');
    for (const c of clients) c.req.destroy();
    await waitFor(() => fake.openSockets === 0, 'every provider connection to close');
    expect(fake.abandoned).toBe(100);
    // A post written after them goes through, and nothing of the 100 was asked for meanwhile.
    fake.respond = undefined;
    await s.api().createBlog(blogParamsFor());
    expect(fake.requests.length).toBe(100 + 4);
    expect(await s.api().listBlogs()).toHaveLength(1);
  });

  it('a client gone while its sections are written: the section calls end, no more are made', async () => {
    const s = await start();
    fake.respond = (r) => (/Write section/.test(r.prompt) ? 'hang' : undefined);
    const client = rawCreate(s);
    await waitFor(() => sectionCalls() === 2, 'two sections in flight');
    client.req.destroy();
    await waitFor(() => fake.openSockets === 0, 'the section calls to close');
    expect(fake.abandoned).toBe(2);
    expect(fake.requests).toHaveLength(3);
    expect(await s.api().listBlogs()).toEqual([]);
  });
});

describe('a client that goes away from the template generator', () => {
  it('ends its simulated generation (--latency) and stores nothing', async () => {
    sandbox = await startTestSandbox({ latencyMs: 60_000 });
    const client = rawCreate(sandbox);
    await waitFor(() => simulatedGenerations() === 1, 'the simulated generation to start');
    client.req.destroy();
    await waitFor(() => simulatedGenerations() === 0, 'the simulated generation to end', {
      timeoutMs: 10_000,
    });
    expect(await sandbox.api().listBlogs()).toEqual([]);
  });
});

describe('generations at once', () => {
  it('past the cap of a key: 429 with Retry-After and a code; another key is still served', async () => {
    const s = await start({ generationsPerKey: 2, generationsTotal: 3 });
    fake.respond = () => 'hang';
    const first = [rawCreate(s), rawCreate(s)];
    await waitFor(() => fake.requests.length === 2, 'two generations of one key');
    const refused = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blogParams: blogParamsFor() }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { message: string; code: string };
    expect(body.code).toBe('too_many_generations');
    expect(body.message).toMatch(/2 posts .* at once/);
    expect(fake.requests).toHaveLength(2);
    // Another key is under its own cap, and under the total.
    const other = rawCreate(s, OTHER_KEY);
    await waitFor(() => fake.requests.length === 3, "the other key's generation");
    // The total is reached: the other key is refused too.
    const full = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      auth: OTHER_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blogParams: blogParamsFor() }),
    });
    expect(full.status).toBe(429);
    expect(((await full.json()) as { message: string }).message).toMatch(/3 posts .* in all/);
    // A generation ended (its client gone) frees its place.
    for (const c of [...first, other]) c.req.destroy();
    await waitFor(() => fake.openSockets === 0, 'the generations to end');
    fake.respond = undefined;
    await expect(s.api().createBlog(blogParamsFor())).resolves.toHaveProperty('_id');
  });
});

describe('before the provider is asked', () => {
  it('a key over its quota is refused with 507 and the provider is never called', async () => {
    // Too small for any post: the key is as good as full.
    const s = await start({}, { quotaBytes: 1_000 });
    const answer = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blogParams: blogParamsFor() }),
    });
    expect(answer.status).toBe(507);
    expect(((await answer.json()) as { message: string }).message).toContain('quota');
    expect(fake.requests).toEqual([]);
  });
});

describe('one post is bounded', () => {
  it('in provider calls: a provider failing for ever is asked a bounded number of times', async () => {
    const s = await start({ retryBoundMs: 3_600_000, maxCallsPerPost: 12 });
    fake.respond = () => ({
      status: 500,
      headers: { 'retry-after': '0' },
      body: apiError('boom', 'server_error'),
    });
    await expect(s.api().createBlog(blogParamsFor())).rejects.toThrow(/12 calls/);
    expect(fake.requests).toHaveLength(12);
    expect(await s.api().listBlogs()).toEqual([]);
  });

  it('by default, in calls too: a section refused for ever ends the post', async () => {
    const s = await start({ retryBoundMs: 3_600_000 });
    fake.respond = (r) =>
      /Write section 2|another draft/.test(r.prompt)
        ? { status: 503, headers: { 'retry-after': '0' }, body: apiError('overloaded', 'server_error') }
        : undefined;
    await expect(s.api().createBlog(blogParamsFor())).rejects.toThrow(/calls/);
    expect(fake.requests.length).toBeLessThanOrEqual(30);
  });

  it('in time: the whole post has a deadline, whatever the per-call timeout', async () => {
    const s = await start({ deadlineSeconds: 1 });
    fake.respond = (r) => (/Write section/.test(r.prompt) ? 'hang' : undefined);
    await expect(s.api().createBlog(blogParamsFor())).rejects.toThrow(/HTTP 503.*within 1 s/);
    await waitFor(() => fake.openSockets === 0, 'the section calls to close');
    expect(await s.api().listBlogs()).toEqual([]);
  });
});
