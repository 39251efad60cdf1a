// wp pull's reading of every post is bounded as a list is: a site announcing more posts than
// BLOGCTL_MAX_LIST_ITEMS is refused after its first page (never a silent drop), and one whose pages pass
// BLOGCTL_MAX_LIST_MB stops there, with a few pages at a time asked for, never all at once. A hostile site
// on 127.0.0.1 announcing 1,000 pages of large posts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../src/errors.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { everyPost, forEachPostPage } from '../../src/wordpress/posts.js';
import { waitFor } from '../helpers/wait.js';

let server: Server;
let base = '';
let pagesAsked: number[] = [];
let inFlight = 0;
let mostInFlight = 0;
let announcedPages = 1000;
const BIG = 'x'.repeat(5_000);
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      res.writeHead(200, { link: `<${base}/wp-json/>; rel="https://api.w.org/"` });
      res.end('home');
      return;
    }
    const n = Number(url.searchParams.get('page'));
    pagesAsked.push(n);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const posts = Array.from({ length: 100 }, (_, i) => ({
      id: n * 1000 + i,
      type: 'post',
      status: 'publish',
      content: { raw: BIG },
    }));
    // Answered on the next turn: the pages asked for together are in flight together.
    setImmediate(() => {
      inFlight--;
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-wp-totalpages': String(announcedPages),
        'x-wp-total': String(announcedPages * 100),
      });
      res.end(JSON.stringify(posts));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const client = (): WordPressClient =>
  new WordPressClient(
    { websiteUrl: base, username: 'admin', password: 'abcd efgh ijkl mnop' },
    { retry: { retries: 0 } },
  );

describe('reading every post is bounded', () => {
  it('1,000 pages of large posts: stops at the size limit, a few pages at a time, naming the limit', async () => {
    pagesAsked = [];
    mostInFlight = 0;
    announcedPages = 1000;
    const c = client();
    const error = await everyPost(c, {}, 'id', 'read the posts to pull', {
      maxBytes: 2 * 1024 * 1024,
      maxItems: 100_000,
    }).catch((e: unknown) => e);
    await c.close();
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toMatch(/passed 2 MiB \(BLOGCTL_MAX_LIST_MB raises the limit\)/);
    expect((error as UnavailableError).exitCode).toBe(7);
    // About 2 MiB of 500 KB pages, and the few in flight when it stopped: not 1,000.
    expect(pagesAsked.length).toBeLessThan(12);
    expect(mostInFlight).toBeLessThanOrEqual(4);
  });

  it('more posts announced than BLOGCTL_MAX_LIST_ITEMS: refused after the first page, none dropped in silence', async () => {
    pagesAsked = [];
    announcedPages = 1001;
    const c = client();
    const error = await everyPost(c, {}, 'id', 'read the posts to pull', {
      maxBytes: 1024 * 1024 * 1024,
      maxItems: 100_000,
    }).catch((e: unknown) => e);
    await c.close();
    expect((error as Error).message).toBe(
      'read the posts to pull: the site has 100100 posts to read, more than 100000 (BLOGCTL_MAX_LIST_ITEMS raises the limit)',
    );
    expect(pagesAsked).toEqual([1]);
  });

  it('within the limits: every page, each once, in order', async () => {
    pagesAsked = [];
    announcedPages = 7;
    const c = client();
    const posts = await everyPost(c, {}, 'id', 'read', { maxBytes: 1024 * 1024 * 1024, maxItems: 100_000 });
    await c.close();
    expect(posts).toHaveLength(700);
    expect(posts.map((p) => p.id)).toEqual([...posts.map((p) => p.id)].sort((a, b) => a - b));
    expect([...pagesAsked].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a page at a time (wp pull): in order, each handed over after the one before returned, at most four asked for ahead', async () => {
    pagesAsked = [];
    announcedPages = 30;
    const c = client();
    const handed: number[] = [];
    let mostAhead = 0;
    await forEachPostPage(
      c,
      {},
      'id',
      'read',
      async (posts) => {
        handed.push(Math.floor(posts[0]!.id / 1000));
        // Pages asked for and not yet handed over: what the reader's memory holds besides this one.
        mostAhead = Math.max(mostAhead, pagesAsked.length - handed.length);
        // A slow reader (writing files): it returns only once every page asked for ahead has been answered,
        // and none more may be asked for meanwhile.
        await waitFor(() => inFlight === 0, 'the pages asked for ahead to be answered', { everyMs: 1 });
        mostAhead = Math.max(mostAhead, pagesAsked.length - handed.length);
      },
      { maxBytes: 1024 * 1024 * 1024, maxItems: 100_000 },
    );
    await c.close();
    expect(handed).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(pagesAsked).toHaveLength(30);
    expect(mostAhead).toBeLessThanOrEqual(4);
  });

  it('a page at a time: a limit passed stops it there, no later page handed over', async () => {
    pagesAsked = [];
    announcedPages = 30;
    const c = client();
    const handed: number[] = [];
    const error = await forEachPostPage(
      c,
      {},
      'id',
      'read the posts to pull',
      (posts) => {
        handed.push(Math.floor(posts[0]!.id / 1000));
      },
      { maxBytes: 2 * 1024 * 1024, maxItems: 100_000 },
    ).catch((e: unknown) => e);
    await c.close();
    expect((error as UnavailableError).exitCode).toBe(7);
    expect(handed).toEqual([1, 2, 3, 4]);
    expect(pagesAsked.length).toBeLessThan(12);
  });
});
