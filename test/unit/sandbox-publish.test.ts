// The publish relay against a fake WordPress on loopback: both permalink modes, both response shapes,
// a refused password and a site that is down.
import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { relaysInFlight } from '../../src/sandbox/relay.js';
import type { PostContent } from '../../src/schemas/wordpress.js';
import { startFakeWordPress, unusedLocalUrl, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function setUp(
  options: { permalinks?: 'pretty' | 'plain'; publishShape?: 'typed' | 'alt' } = {},
): Promise<{ wp: FakeWordPress; sandbox: TestSandbox }> {
  const wp = await startFakeWordPress({ permalinks: options.permalinks ?? 'pretty' });
  const sandbox = await startTestSandbox({
    publishShape: options.publishShape ?? 'typed',
    wordpressTimeoutMs: 5_000,
  });
  closers.push(
    () => wp.close(),
    () => sandbox.close(),
  );
  return { wp, sandbox };
}

const content: PostContent = {
  title: 'Hello from the sandbox',
  content: '<p>Body</p>',
  status: 'publish',
  tags: [3],
};

describe('publish relay', () => {
  it('relays to a pretty-permalink site and answers the typed shape', async () => {
    const { wp, sandbox } = await setUp();
    const result = await sandbox
      .api()
      .publishToWordPress({ websiteUrl: wp.url, username: wp.username, password: wp.password }, content);
    expect(result).toEqual({
      published: true,
      shape: 'typed',
      id: '1',
      link: `${wp.url}/hello-from-the-sandbox/`,
      status: 'publish',
      type: 'post',
    });
    const created = wp.requests.find((r) => r.method === 'POST')!;
    expect(created.url).toBe('/wp-json/wp/v2/posts');
    expect(created.contentType).toMatch(/application\/json/);
    expect(JSON.parse(created.body)).toEqual(content);
    expect(wp.unexpected).toEqual([]);
  });

  it('answers exactly {isPublished, link, id, status, type} on the wire', async () => {
    const { wp, sandbox } = await setUp();
    const res = await sandbox.fetch('/api/v1/public/integrations/wordpress/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        credentials: { websiteUrl: wp.url, username: wp.username, password: wp.password },
        content,
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      isPublished: true,
      link: `${wp.url}/hello-from-the-sandbox/`,
      id: '1',
      status: 'publish',
      type: 'post',
    });
  });

  it('relays to a plain-permalink site through ?rest_route=', async () => {
    const { wp, sandbox } = await setUp({ permalinks: 'plain' });
    const result = await sandbox
      .api()
      .publishToWordPress({ websiteUrl: wp.url, username: wp.username, password: wp.password }, content);
    expect(result).toMatchObject({ published: true, id: '1', link: `${wp.url}/?p=1` });
    const created = wp.requests.find((r) => r.method === 'POST')!;
    expect(decodeURIComponent(created.url)).toBe('/index.php?rest_route=/wp/v2/posts');
    expect(wp.unexpected).toEqual([]);
  });

  it('answers the alt shape when configured', async () => {
    const { wp, sandbox } = await setUp({ publishShape: 'alt' });
    const res = await sandbox.fetch('/api/v1/public/integrations/wordpress/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        credentials: { websiteUrl: wp.url, username: wp.username, password: wp.password },
        content,
      }),
    });
    expect(await res.json()).toEqual({
      success: true,
      postUrl: `${wp.url}/hello-from-the-sandbox/`,
      postId: '1',
    });
  });

  it('reports a wrong password as isPublished false with WordPress status, code and message', async () => {
    const { wp, sandbox } = await setUp();
    const password = 'wrong pass word 9999';
    const result = await sandbox
      .api()
      .publishToWordPress({ websiteUrl: wp.url, username: wp.username, password }, content);
    expect(result).toEqual({
      published: false,
      shape: 'typed',
      reason:
        'WordPress answered HTTP 401 (rest_cannot_create): Sorry, you are not allowed to create posts as this user.',
    });
    expect(sandbox.logs.join('\n')).not.toContain(password);
  });

  it('reports the failure in the alt shape as {success: false, message}', async () => {
    const { wp, sandbox } = await setUp({ publishShape: 'alt' });
    const res = await sandbox.fetch('/api/v1/public/integrations/wordpress/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        credentials: { websiteUrl: wp.url, username: 'nobody', password: 'x-x-x-x' },
        content,
      }),
    });
    expect(await res.json()).toEqual({
      success: false,
      message:
        'WordPress answered HTTP 401 (rest_cannot_create): Sorry, you are not allowed to create posts as this user.',
    });
  });

  it('reports a WordPress that is down as isPublished false', async () => {
    const sandbox = await startTestSandbox({ wordpressTimeoutMs: 2_000 });
    closers.push(() => sandbox.close());
    const websiteUrl = await unusedLocalUrl();
    const res = await sandbox.fetch('/api/v1/public/integrations/wordpress/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        credentials: { websiteUrl, username: 'admin', password: 'pw-that-is-secret' },
        content,
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(body).toMatchObject({ isPublished: false, link: '', id: '', type: '' });
    expect(body['status']).toMatch(
      new RegExp(`^WordPress at ${websiteUrl} could not be reached: .*connection refused`),
    );
    expect(body['status']).not.toContain('pw-that-is-secret');
  });

  /** A site on loopback answering with `handler`, closed after the test; its URL. */
  async function siteAnswering(handler: RequestListener): Promise<string> {
    const site = createServer(handler);
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    closers.push(
      () => new Promise<void>((resolve) => (site.closeAllConnections(), site.close(() => resolve()))),
    );
    return `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  }

  it('gives up on a WordPress that never answers after wordpressTimeoutMs', async () => {
    const websiteUrl = await siteAnswering(() => undefined);
    const sandbox = await startTestSandbox({ wordpressTimeoutMs: 300 });
    closers.push(() => sandbox.close());
    const result = await sandbox
      .api()
      .publishToWordPress({ websiteUrl, username: 'a', password: 'pw-pw-pw' }, content);
    expect(result.published).toBe(false);
    expect(result.reason).toMatch(/could not be reached: .*no complete answer .* within 0\.3 s/);
  });

  it('counts a relay in flight from the request until WordPress answers (relaysInFlight)', async () => {
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    // Holds what it is asked until let go, then answers everything with a 500.
    const held: ServerResponse[] = [];
    let letGo = false;
    const websiteUrl = await siteAnswering((_req, res) => {
      if (letGo) return void res.writeHead(500).end();
      held.push(res);
      arrived();
    });
    const sandbox = await startTestSandbox({ wordpressTimeoutMs: 20_000 });
    closers.push(() => sandbox.close());
    expect(relaysInFlight()).toBe(0);
    const pending = sandbox
      .api()
      .publishToWordPress({ websiteUrl, username: 'a', password: 'pw-pw-pw' }, content);
    await reached;
    expect(relaysInFlight()).toBe(1);
    letGo = true;
    for (const res of held) res.writeHead(500).end();
    expect((await pending).published).toBe(false);
    expect(relaysInFlight()).toBe(0);
  });

  it('replays a publish with the same Idempotency-Key instead of posting twice', async () => {
    const { wp, sandbox } = await setUp();
    const creds = { websiteUrl: wp.url, username: wp.username, password: wp.password };
    const first = await sandbox.api().publishToWordPress(creds, content, { idempotencyKey: 'pub-1' });
    const second = await sandbox.api().publishToWordPress(creds, content, { idempotencyKey: 'pub-1' });
    expect(second).toEqual(first);
    expect(wp.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
