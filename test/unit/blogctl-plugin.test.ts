// The companion plugin's client (src/wordpress/blogctl-plugin.ts) and the plugin store
// (src/publishing/sync-state-plugin.ts) against a server on 127.0.0.1 shaped like the plugin's routes
// (wordpress-plugin/blogctl-sync/blogctl-sync.php: Blogctl_Sync::info, ::list_posts, ::item): detection from
// the REST index, the version, the listing's pages, the state's text, copies and lost state.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BlogctlError } from '../../src/errors.js';
import {
  formatState,
  lostState,
  metaState,
  parseState,
  PluginStore,
  storeFor,
  withSyncState,
} from '../../src/publishing/sync-state-plugin.js';
import type { PublishJob } from '../../src/publishing/sources/publish-job.js';
import type { PublishPostsOptions } from '../../src/publishing/sync/publish-plan.js';
import { markerStore, type SyncStateStore } from '../../src/publishing/sync-state.js';
import {
  listNamespacePosts,
  savedSinceWrite,
  STATE_META,
  syncStateSupport,
  type PluginPost,
} from '../../src/wordpress/blogctl-plugin.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import type { WpPostDetail } from '../../src/wordpress/posts.js';
import { verifySite } from '../../src/wordpress/verify.js';

type Reply = { status?: number; json?: unknown; headers?: Record<string, string> };
interface Site {
  url: string;
  seen: string[];
  unexpected: string[];
  on(route: string, reply: (query: URLSearchParams) => Reply): void;
  close(): Promise<void>;
}

const sites: Site[] = [];
const clients: WordPressClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  const used = sites.splice(0);
  await Promise.all(used.map((s) => s.close()));
  for (const s of used) expect(s.unexpected).toEqual([]);
});

/** Pretty permalinks: `GET /` names `/wp-json/`; routes answered by `on`, anything else is unexpected. */
async function site(): Promise<Site> {
  const routes = new Map<string, (query: URLSearchParams) => Reply>();
  const seen: string[] = [];
  const unexpected: string[] = [];
  let base = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/') {
      res.writeHead(200, {
        'content-type': 'text/html',
        link: `<${base}/wp-json/>; rel="https://api.w.org/"`,
      });
      res.end('<html></html>');
      return;
    }
    const route = url.pathname.replace(/^\/wp-json/, '').replace(/\/$/, '') || '/';
    seen.push(`${req.method} ${route}`);
    const handler = routes.get(`${req.method} ${route}`);
    if (!handler) {
      unexpected.push(`${req.method} ${route}`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'rest_no_route', message: 'No route' }));
      return;
    }
    const reply = handler(url.searchParams);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.json));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const s: Site = {
    url: base,
    seen,
    unexpected,
    on: (route, reply) => routes.set(route, reply),
    close: () => new Promise((r) => server.close(() => r())),
  };
  sites.push(s);
  return s;
}
function clientOf(s: Site): WordPressClient {
  const c = new WordPressClient(
    { websiteUrl: s.url, username: 'editor', password: 'abcd efgh ijkl mnop qrst uvwx' },
    { retry: { retries: 0 } },
  );
  clients.push(c);
  return c;
}

const INFO = {
  plugin: 'blogctl-sync',
  version: '1.0.0',
  state_version: 1,
  meta_key: '_blogctl_state',
  post_types: ['post', 'page'],
  statuses: ['publish', 'draft', 'trash', 'in-progress'],
  can_sync: true,
  max_per_page: 100,
};
const withPlugin = (s: Site, info: Reply = { json: INFO }): void => {
  s.on('GET /', () => ({ json: { name: 'Fake', namespaces: ['wp/v2', 'blogctl/v1'] } }));
  s.on('GET /blogctl/v1/info', () => info);
};

const NS = '0123456789abcdef';
const KEY = 'abcdef0123456789abcdef01';
const stateText = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    v: 1,
    ns: NS,
    key: KEY,
    sums: { title: '1a2b3c4d' },
    at: '2026-11-27T14:00:00.000Z',
    ...extra,
  });
/** A listed post as Blogctl_Sync::item shapes it. */
const item = (id: number, extra: Partial<PluginPost> = {}): PluginPost => ({
  id,
  type: 'post',
  status: 'publish',
  slug: `post-${id}`,
  link: `http://x/post-${id}/`,
  modified_gmt: '2026-11-27T14:00:00',
  author: 1,
  meta: { [STATE_META]: stateText() },
  blogctl: { saves: 2, written: { post: id, modified_gmt: '2026-11-27T14:00:00', saves: 2 } },
  title: { raw: `Post ${id}` },
  content: { raw: `<p>${id}</p>` },
  ...extra,
});

describe('detecting the plugin', () => {
  it('is the marker without blogctl/v1 in the REST index, asking nothing more', async () => {
    const s = await site();
    s.on('GET /', () => ({ json: { namespaces: ['wp/v2', 'blogctl-e2e/v1', 'blogctl/v2'] } }));
    expect(await syncStateSupport(clientOf(s))).toEqual({ kind: 'marker', reason: 'absent' });
    expect(s.seen).toEqual(['GET /']);
  });

  it('is the plugin, with its version, when the index lists it', async () => {
    const s = await site();
    withPlugin(s);
    expect(await syncStateSupport(clientOf(s))).toEqual({ kind: 'plugin', info: INFO });
  });

  it('is the plugin without a version when the account may not read the info route', async () => {
    const s = await site();
    withPlugin(s, { status: 403, json: { code: 'rest_forbidden', message: 'no' } });
    expect(await syncStateSupport(clientOf(s))).toEqual({ kind: 'plugin' });
  });

  it('is the marker when the plugin speaks a newer state format', async () => {
    const s = await site();
    withPlugin(s, { json: { ...INFO, version: '2.0.0', state_version: 2 } });
    expect(await syncStateSupport(clientOf(s))).toMatchObject({ kind: 'marker', reason: 'newer' });
    const markers = fakeMarkers();
    expect(await storeFor(clientOf(s), markers)).toBe(markers);
  });

  it('wp sites verify reports it', async () => {
    const s = await site();
    withPlugin(s);
    s.on('GET /wp/v2/users/me', () => ({
      json: { id: 3, name: 'Ed', roles: ['editor'], capabilities: { edit_others_posts: true } },
    }));
    expect((await verifySite(clientOf(s))).syncState).toEqual({ kind: 'plugin', pluginVersion: '1.0.0' });
  });
});

describe('choosing the store for a run', () => {
  const options = (over: Partial<PublishPostsOptions> = {}): PublishPostsOptions => ({
    credentials: { websiteUrl: 'http://unused.invalid', username: 'editor', password: 'x' },
    jobs: [{ sourceKey: 'path:posts/a.md' } as unknown as PublishJob],
    concurrency: 1,
    createTerms: false,
    update: true,
    serviceOnly: false,
    ...over,
  });

  it('is the plugin when the site runs it, found once per client', async () => {
    const s = await site();
    withPlugin(s);
    const client = clientOf(s);
    const first = await withSyncState(options(), () => Promise.resolve(client));
    expect(first.syncState).toBeInstanceOf(PluginStore);
    const again = await withSyncState(options(), () => Promise.resolve(client));
    expect(again.syncState).toBe(first.syncState);
    expect(s.seen).toEqual(['GET /', 'GET /blogctl/v1/info']);
  });

  it('is the marker on a site without it', async () => {
    const s = await site();
    s.on('GET /', () => ({ json: { namespaces: ['wp/v2'] } }));
    const client = clientOf(s);
    expect((await withSyncState(options(), () => Promise.resolve(client))).syncState).toBe(markerStore);
  });

  it('asks nothing for --service-only, posts from flags alone, or a store already chosen', async () => {
    const never = (): Promise<WordPressClient> => Promise.reject(new Error('the site was asked'));
    for (const given of [
      options({ serviceOnly: true }),
      options({ jobs: [{} as PublishJob] }),
      options({ syncState: markerStore }),
    ])
      expect(await withSyncState(given, never)).toBe(given);
  });
});

describe('listing a namespace', () => {
  it('asks for 100 a page and reads every page the plugin counts', async () => {
    const s = await site();
    const asked: string[] = [];
    s.on('GET /blogctl/v1/posts', (q) => {
      asked.push(q.toString());
      const page = Number(q.get('page'));
      return {
        json: page === 1 ? [item(3), item(5)] : [item(9, { status: 'in-progress' })],
        headers: { 'x-wp-total': '3', 'x-wp-totalpages': '2' },
      };
    });
    s.on('GET /', () => ({ json: { namespaces: ['wp/v2', 'blogctl/v1'] } }));
    const posts = await listNamespacePosts(clientOf(s), NS, 'look up');
    expect(posts.map((p) => [p.id, p.status])).toEqual([
      [3, 'publish'],
      [5, 'publish'],
      [9, 'in-progress'],
    ]);
    expect(asked.sort()).toEqual([
      `ns=${NS}&page=1&per_page=100&fields=all`,
      `ns=${NS}&page=2&per_page=100&fields=all`,
    ]);
  });

  it('refuses an answer that is not a list of posts', async () => {
    const s = await site();
    s.on('GET /blogctl/v1/posts', () => ({ json: [{ id: 'x' }] }));
    await expect(listNamespacePosts(clientOf(s), NS, 'look up')).rejects.toBeInstanceOf(BlogctlError);
  });

  it('tells a save after blogctl’s write from none', () => {
    expect(savedSinceWrite(item(1))).toBe(false);
    expect(
      savedSinceWrite(item(1, { blogctl: { saves: 3, written: { post: 1, modified_gmt: null, saves: 2 } } })),
    ).toBe(true);
    expect(savedSinceWrite(item(1, { blogctl: { saves: null, written: null } }))).toBeUndefined();
  });
});

describe('the state', () => {
  it('round-trips through its JSON text, with the time of the write', () => {
    const text = formatState(
      { ns: NS, key: KEY, sums: { title: '1a2b3c4d' }, commit: 'c0ffee' },
      new Date(0),
    );
    expect(JSON.parse(text)).toEqual({
      v: 1,
      ns: NS,
      key: KEY,
      sums: { title: '1a2b3c4d' },
      commit: 'c0ffee',
      at: '1970-01-01T00:00:00.000Z',
    });
    expect(parseState(text)).toEqual({ ns: NS, key: KEY, sums: { title: '1a2b3c4d' }, commit: 'c0ffee' });
  });

  it.each([
    ['empty', ''],
    ['not JSON', '{'],
    ['a list', '[1]'],
    ['another version', stateText({ v: 2 })],
    ['a bad namespace', stateText({ ns: "x' OR 1" })],
    ['too long', stateText({ pad: 'x'.repeat(9000) })],
    ['not text', 42],
  ])('is no state when %s', (_, value) => {
    expect(parseState(value)).toBeUndefined();
  });

  it('is refused when too long to be kept', () => {
    expect(() => formatState({ ns: NS, key: KEY, sums: { a: 'x'.repeat(9000) } }, new Date())).toThrow(
      /more than the 8192/,
    );
  });

  it('of a copy (the plugin saw it written on another post) is nobody’s, whatever its content carries', () => {
    const copy = item(7, { blogctl: { saves: 0, written: { post: 3, modified_gmt: null, saves: 0 } } });
    expect(metaState(copy)).toBeNull();
    const store = new PluginStore(fakeMarkers());
    expect(store.stateOf(copy)).toBeUndefined();
    expect(store.stateOf(item(3))).toEqual({ ns: NS, key: KEY, sums: { title: '1a2b3c4d' } });
  });

  it('falls back to the marker only for a post with no state meta (published before the plugin)', () => {
    const store = new PluginStore(fakeMarkers());
    const legacy = item(4, { meta: { [STATE_META]: '' }, blogctl: { saves: null, written: null } });
    expect(store.stateOf(legacy)).toEqual({ ns: NS, key: 'marker', sums: {} });
    expect(new PluginStore().stateOf(legacy)).toBeUndefined();
    const authors = item(4, {
      meta: { [STATE_META]: '' },
      blogctl: { saves: null, written: null, author_can_sync: false },
    });
    expect(new PluginStore(fakeMarkers()).stateOf(authors)).toBeUndefined();
  });

  it('is written in meta with the marker store’s fields', () => {
    const store = new PluginStore(fakeMarkers(), () => new Date(0));
    const fields = store.fieldsFor('<p>x</p>', { ns: NS, key: KEY, sums: {} });
    expect(fields).toEqual({
      content: '<p>x</p><!--m-->',
      meta: { [STATE_META]: `{"v":1,"ns":"${NS}","key":"${KEY}","sums":{},"at":"1970-01-01T00:00:00.000Z"}` },
    });
    expect(
      new PluginStore(undefined, () => new Date(0)).fieldsFor('<p>x</p>', { ns: NS, key: KEY, sums: {} }),
    ).toMatchObject({ content: '<p>x</p>' });
  });

  it('lost in a write’s answer is exit 6; an answer without meta tells nothing', () => {
    const answer = (meta: WpPostDetail['meta']): WpPostDetail => ({ id: 5, status: 'publish', meta });
    expect(lostState(answer({ [STATE_META]: stateText() }), { ns: NS, key: KEY })).toBeUndefined();
    expect(lostState(answer(undefined), { ns: NS, key: KEY })).toBeUndefined();
    expect(lostState(answer([]), { ns: NS, key: KEY })?.exitCode).toBe(6);
    expect(
      lostState(answer({ [STATE_META]: stateText({ key: 'other' }) }), { ns: NS, key: KEY })?.message,
    ).toMatch(/without blogctl's state/);
  });
});

/** A marker store that reads every post as carrying a marker of key "marker", and appends `<!--m-->`. */
function fakeMarkers(): SyncStateStore {
  return {
    kind: 'marker',
    lookUp: () => Promise.resolve([]),
    stateOf: () => ({ ns: NS, key: 'marker', sums: {} }),
    fieldsFor: (content) => ({ content: `${content}<!--m-->` }),
    lost: () => undefined,
  };
}
