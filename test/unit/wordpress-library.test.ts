// The WordPress library (terms, media, verify, posts, client) against a small scripted WordPress on port 0.
// The fake answers only the routes a test gives it and fails loudly (404 + recorded) on anything else.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, RejectedError, UnavailableError, UsageError } from '../../src/errors.js';
import {
  WordPressClient,
  keepHttps,
  mayCarryCredentials,
  permalinkMode,
  restRootFromLink,
  routeEndpoint,
} from '../../src/wordpress/client.js';
import { contentDisposition, mediaTypeFor, uploadMedia } from '../../src/wordpress/media.js';
import { findPostsBySlugs, getPost } from '../../src/wordpress/posts.js';
import { listTerms, resolveTermIds } from '../../src/wordpress/terms.js';
import { credentialHints, verifySite } from '../../src/wordpress/verify.js';

interface Seen {
  method: string;
  /** The REST route (`/wp/v2/categories`), whichever root form carried it. */
  route: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
}
interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
}
type Handler = (req: Seen) => Reply;

interface Fake {
  url: string;
  seen: Seen[];
  unexpected: string[];
  on(methodRoute: string, handler: Handler): void;
  close(): Promise<void>;
}

async function startFake(
  options: { permalinks?: 'pretty' | 'plain'; linkHeader?: boolean } = {},
): Promise<Fake> {
  const permalinks = options.permalinks ?? 'pretty';
  const handlers = new Map<string, Handler>();
  const seen: Seen[] = [];
  const unexpected: string[] = [];
  let base = '';
  const root = (): string =>
    permalinks === 'pretty' ? `${base}/wp-json/` : `${base}/index.php?rest_route=/`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const link = options.linkHeader === false ? {} : { link: `<${root()}>; rel="https://api.w.org/"` };
      let route: string | undefined;
      if (url.searchParams.has('rest_route')) route = url.searchParams.get('rest_route')!;
      else if (permalinks === 'pretty' && url.pathname.startsWith('/wp-json/')) route = url.pathname.slice(8);
      if (route === undefined && req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html', ...link });
        res.end('<html><title>Fake</title></html>');
        return;
      }
      const query = new URLSearchParams(url.searchParams);
      query.delete('rest_route');
      const request: Seen = {
        method: req.method!,
        route: route ?? url.pathname,
        query,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(request);
      const handler =
        route !== undefined ? handlers.get(`${req.method} ${route.replace(/\/$/, '') || '/'}`) : undefined;
      if (!handler) {
        unexpected.push(`${req.method} ${req.url}`);
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'fake_unexpected', message: `unexpected ${req.method} ${req.url}` }));
        return;
      }
      const reply = handler(request);
      const type = reply.json !== undefined ? { 'content-type': 'application/json; charset=UTF-8' } : {};
      res.writeHead(reply.status ?? 200, { ...type, ...link, ...reply.headers });
      res.end(reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? ''));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    seen,
    unexpected,
    on: (methodRoute, handler) => handlers.set(methodRoute, handler),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const clients: WordPressClient[] = [];
function clientFor(fake: Fake, password = 'abcd efgh ijkl mnop qrst uvwx'): WordPressClient {
  const c = new WordPressClient(
    { websiteUrl: fake.url, username: 'admin', password },
    { retry: { retries: 0 } },
  );
  clients.push(c);
  return c;
}
const fakes: Fake[] = [];
async function fake(options?: Parameters<typeof startFake>[0]): Promise<Fake> {
  const f = await startFake(options);
  fakes.push(f);
  return f;
}
afterEach(async () => {
  const used = fakes.splice(0);
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(used.map((f) => f.close()));
  for (const f of used) expect(f.unexpected).toEqual([]);
});

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Serves `terms` 100 a page the way WordPress does, optionally without X-WP-TotalPages. */
function serveTerms(
  f: Fake,
  taxonomy: string,
  terms: { id: number; name: string; slug: string }[],
  totalHeader = true,
) {
  f.on(`GET /wp/v2/${taxonomy}`, (req): Reply => {
    const per = Number(req.query.get('per_page'));
    const page = Number(req.query.get('page') ?? 1);
    // `include=3,4`: only those ids (unknown ones are simply absent, as in WordPress).
    const include = req.query.get('include')?.split(',').map(Number);
    const all = include ? terms.filter((t) => include.includes(t.id)) : terms;
    const pages = Math.max(1, Math.ceil(all.length / per));
    if (page > pages) return { status: 400, json: { code: 'rest_term_invalid_page_number' } };
    return {
      json: all.slice((page - 1) * per, page * per),
      headers: totalHeader
        ? { 'x-wp-total': String(all.length), 'x-wp-totalpages': String(pages) }
        : undefined,
    };
  });
}

const manyTerms = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `Term ${i + 1}`, slug: `term-${i + 1}` }));

describe('resolveTermIds', () => {
  it('pages through every term and lists each taxonomy once per client', async () => {
    const f = await fake();
    const terms = [
      ...manyTerms(240),
      { id: 900, name: 'Food &amp; Drink', slug: 'food-drink' },
      { id: 901, name: 'Café', slug: 'caf%c3%a9' },
    ];
    serveTerms(f, 'categories', terms);
    const c = clientFor(f);
    const [a, b] = await Promise.all([
      resolveTermIds(c, 'categories', ['term 239', 'TERM-5', 12, '7'], { create: false }),
      resolveTermIds(c, 'categories', ['food & drink', 'CAFÉ'], { create: false }),
    ]);
    expect(a).toEqual([239, 5, 12, 7]);
    expect(b).toEqual([900, 901]);
    expect(await resolveTermIds(c, 'categories', ['café', 'Term 1', 'term-1'], { create: false })).toEqual([
      901, 1,
    ]);
    const pages = f.seen.filter((s) => s.route === '/wp/v2/categories').map((s) => s.query.get('page'));
    expect(pages.sort()).toEqual(['1', '2', '3']);
    expect(f.seen[0]!.query.get('per_page')).toBe('100');
    expect(f.seen[0]!.query.get('orderby')).toBe('id');
  });

  it('reads pages until a short one when X-WP-TotalPages is missing', async () => {
    const f = await fake({ permalinks: 'plain' });
    serveTerms(f, 'tags', manyTerms(200), false);
    const c = clientFor(f);
    expect(await resolveTermIds(c, 'tags', ['Term 200'], { create: false })).toEqual([200]);
    expect((await listTerms(c, 'tags')).length).toBe(200);
    expect(f.seen.filter((s) => s.route === '/wp/v2/tags').length).toBe(3);
  });

  it('checks ids only with one include= lookup, asked once per client', async () => {
    const f = await fake();
    serveTerms(f, 'tags', manyTerms(300));
    const c = clientFor(f);
    expect(await resolveTermIds(c, 'tags', [3, '4', 3], { create: false })).toEqual([3, 4]);
    expect(await resolveTermIds(c, 'tags', ['4'], { create: false })).toEqual([4]);
    expect(f.seen.map((s) => s.query.get('include'))).toEqual(['3,4']);
  });

  it('refuses an id that is no term: WordPress would drop it silently', async () => {
    const f = await fake();
    serveTerms(f, 'categories', manyTerms(3));
    const error = await caught(resolveTermIds(clientFor(f), 'categories', ['9999'], { create: false }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(
      'unknown category id: 9999 (no category has this id, name or slug; WordPress would drop it silently)',
    );
    // The lookup, then the listing for a term named "9999".
    expect(f.seen.map((s) => s.query.get('include') ?? 'listing')).toEqual(['9999', 'listing']);
  });

  it('finds a term literally named "2024" when no term has that id; an id wins when one does', async () => {
    const f = await fake();
    serveTerms(f, 'tags', [
      ...manyTerms(3),
      { id: 127, name: '2024', slug: '2024' },
      { id: 128, name: 'Launch', slug: '3' },
      { id: 129, name: 'alpha beta', slug: 'alpha-beta' },
    ]);
    const c = clientFor(f);
    expect(await resolveTermIds(c, 'tags', ['2024'], { create: false })).toEqual([127]);
    expect(await resolveTermIds(c, 'tags', [2024, 'alpha-beta'], { create: false })).toEqual([127, 129]);
    expect(await resolveTermIds(c, 'tags', ['3'], { create: false })).toEqual([3]);
    const error = await caught(resolveTermIds(c, 'tags', ['2025', '2026', 'alpha'], { create: true }));
    expect(error.message).toBe(
      'unknown tag ids: 2025, 2026 (no tag has these ids, names or slugs; WordPress would drop them silently, and --create-terms does not create number-only names: create such a term in WordPress first)',
    );
    expect(f.seen.filter((s) => s.method === 'POST')).toEqual([]);
  });

  it('names every unknown term, and creates nothing, without create', async () => {
    const f = await fake();
    serveTerms(f, 'categories', manyTerms(3));
    const error = await caught(
      resolveTermIds(clientFor(f), 'categories', ['Foo', 'Term 1', 'Bar'], { create: false }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('unknown category: Foo, Bar (use --create-terms to create them)');
    serveTerms(f, 'tags', []);
    await expect(resolveTermIds(clientFor(f), 'tags', ['x'], { create: false })).rejects.toThrow(
      'unknown tag: x (use --create-terms to create it)',
    );
  });

  it('checks ids against the listing it fetched anyway', async () => {
    const f = await fake();
    serveTerms(f, 'categories', manyTerms(3));
    const error = await caught(resolveTermIds(clientFor(f), 'categories', ['Term 1', 99], { create: false }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/^unknown category id: 99 /);
  });

  it('refuses an ambiguous name unless a slug decides', async () => {
    const f = await fake();
    serveTerms(f, 'categories', [
      { id: 1, name: 'News', slug: 'news-world' },
      { id: 2, name: 'News', slug: 'news-local' },
      { id: 3, name: 'Other', slug: 'news' },
    ]);
    const c = clientFor(f);
    const error = await caught(resolveTermIds(c, 'categories', ['news'], { create: false }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/ambiguous category "news": matches 1 \(news-world\), 2 \(news-local\)/);
    expect(await resolveTermIds(c, 'categories', ['news-local'], { create: false })).toEqual([2]);
  });

  it('creates missing terms once, and takes term_exists as found', async () => {
    const f = await fake();
    serveTerms(f, 'tags', manyTerms(2));
    const posted: string[] = [];
    f.on('POST /wp/v2/tags', (req) => {
      const { name } = JSON.parse(req.body.toString()) as { name: string };
      posted.push(name);
      if (name === 'Raced')
        return {
          status: 400,
          json: {
            code: 'term_exists',
            message: 'A term with the name provided already exists.',
            data: { status: 400, term_id: 77 },
          },
        };
      if (name === 'Bad<')
        return {
          status: 400,
          json: { code: 'rest_invalid_param', message: 'Invalid &amp; bad', data: { status: 400 } },
        };
      return { status: 201, json: { id: 50 + posted.length, name, slug: name.toLowerCase() } };
    });
    const c = clientFor(f);
    const ids = await Promise.all([
      resolveTermIds(c, 'tags', ['Fresh', 'Term 2', 'Raced'], { create: true }),
      resolveTermIds(c, 'tags', ['fresh'], { create: true }),
    ]);
    expect(ids[0]).toEqual([ids[1][0], 2, 77]);
    expect(posted.sort()).toEqual(['Fresh', 'Raced']);
    const error = await caught(resolveTermIds(c, 'tags', ['Bad<'], { create: true }));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toBe('create the WordPress tag "Bad<" failed: HTTP 400: Invalid & bad');
    expect((error as RejectedError).context).toMatchObject({
      status: 400,
      peerCode: 'rest_invalid_param',
      endpoint: 'POST /wp-json/wp/v2/tags',
    });
  });

  it('two runs creating one name at once: the later twin is deleted, both use the oldest', async () => {
    const f = await fake();
    const terms = manyTerms(2);
    serveTerms(f, 'categories', terms);
    const deleted: string[] = [];
    f.on('POST /wp/v2/categories', (req) => {
      const { name } = JSON.parse(req.body.toString()) as { name: string };
      // WordPress let another run's request for "Twin" past its name check too: that one got in first.
      if (name === 'Twin') terms.push({ id: 59, name, slug: 'twin' }, { id: 60, name, slug: 'twin-2' });
      else terms.push({ id: 61, name, slug: name.toLowerCase() });
      const made = terms[terms.length - 1]!;
      return { status: 201, json: made };
    });
    for (const id of [59, 60, 61])
      f.on(`DELETE /wp/v2/categories/${id}`, (req) => {
        deleted.push(`${id} force=${req.query.get('force')}`);
        terms.splice(
          terms.findIndex((t) => t.id === id),
          1,
        );
        return { json: { deleted: true } };
      });
    expect(await resolveTermIds(clientFor(f), 'categories', ['Twin'], { create: true })).toEqual([59]);
    expect(deleted).toEqual(['60 force=true']);
    expect(terms.filter((t) => t.name === 'Twin').map((t) => t.id)).toEqual([59]);
    // A creation that is the oldest of its name keeps its term.
    expect(await resolveTermIds(clientFor(f), 'categories', ['Solo'], { create: true })).toEqual([61]);
    expect(deleted).toEqual(['60 force=true']);
    expect(f.unexpected).toEqual([]);
  });

  it('rejects empty names and zero ids before sending', async () => {
    const f = await fake();
    await expect(resolveTermIds(clientFor(f), 'tags', ['  '], { create: true })).rejects.toThrow(UsageError);
    await expect(resolveTermIds(clientFor(f), 'tags', ['0'], { create: true })).rejects.toThrow(
      /invalid tag id: 0/,
    );
    expect(f.seen).toEqual([]);
  });
});

describe('uploadMedia', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blogctl-media-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('posts the raw bytes with Content-Type and Content-Disposition', async () => {
    const f = await fake({ permalinks: 'plain' });
    f.on('POST /wp/v2/media', () => ({
      status: 201,
      json: { id: 31, source_url: 'http://x/wp-content/uploads/cover.png', media_type: 'image' },
    }));
    const file = join(dir, 'Café cover.PNG');
    await writeFile(file, Buffer.from([1, 2, 3]));
    expect(await uploadMedia(clientFor(f), file)).toEqual({
      id: 31,
      source_url: 'http://x/wp-content/uploads/cover.png',
    });
    const req = f.seen[0]!;
    expect(req.headers['content-type']).toBe('image/png');
    expect(req.headers['content-disposition']).toBe(
      `attachment; filename="Cafe cover.PNG"; filename*=UTF-8''Caf%C3%A9%20cover.PNG`,
    );
    expect([...req.body]).toEqual([1, 2, 3]);
  });

  it("turns WordPress's 500 for a refused type into a rejection", async () => {
    const f = await fake();
    f.on('POST /wp/v2/media', () => ({
      status: 500,
      json: {
        code: 'rest_upload_sideload_error',
        message: 'Sorry, you are not allowed to upload this file type.',
        data: { status: 500 },
      },
    }));
    const file = join(dir, 'logo.svg');
    await writeFile(file, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const error = await caught(uploadMedia(clientFor(f), file));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toBe(
      'upload logo.svg to WordPress failed: HTTP 500 POST /wp-json/wp/v2/media: Sorry, you are not allowed to upload this file type.',
    );
    expect((error as RejectedError).context.hints?.[0]).toMatch(/SVG/);
    f.on('POST /wp/v2/media', () => ({
      status: 500,
      json: { code: 'internal_server_error', message: 'boom' },
    }));
    expect(await caught(uploadMedia(clientFor(f), file))).toBeInstanceOf(UnavailableError);
  });

  it('checks the file before sending anything', async () => {
    const f = await fake();
    const c = clientFor(f);
    const missing = join(dir, 'missing.png');
    await expect(uploadMedia(c, missing)).rejects.toThrow(new UsageError(`${missing}: no such file`));
    await expect(uploadMedia(c, join(dir, 'notes.txt'))).rejects.toThrow(
      /cannot tell the image type from the extension/,
    );
    await writeFile(join(dir, 'empty.gif'), '');
    await expect(uploadMedia(c, join(dir, 'empty.gif'))).rejects.toThrow(/the file is empty/);
    await expect(uploadMedia(c, `${dir}/.`)).rejects.toThrow(UsageError);
    expect(f.seen).toEqual([]);
  });
});

describe('contentDisposition and mediaTypeFor', () => {
  it('keeps plain names and escapes what WordPress would misread', () => {
    expect(contentDisposition('cover.png')).toBe('attachment; filename="cover.png"');
    expect(contentDisposition('a"b;c\\d.png')).toBe(
      `attachment; filename="a_b_c_d.png"; filename*=UTF-8''a%22b%3Bc%5Cd.png`,
    );
    expect(contentDisposition('写真.jpg')).toBe(
      `attachment; filename="upload.jpg"; filename*=UTF-8''%E5%86%99%E7%9C%9F.jpg`,
    );
    expect(contentDisposition("it's (1).png")).toBe(`attachment; filename="it's (1).png"`);
    expect(contentDisposition('line\r\nbreak.png')).toMatch(
      /^attachment; filename="line__break.png"; filename\*=/,
    );
  });
  it('maps extensions case-insensitively', () => {
    expect(mediaTypeFor('a.JPG')).toBe('image/jpeg');
    expect(mediaTypeFor('a.webp')).toBe('image/webp');
    expect(mediaTypeFor('a.svg')).toBe('image/svg+xml');
    expect(mediaTypeFor('a.exe')).toBeUndefined();
    expect(mediaTypeFor('toString')).toBeUndefined();
  });
});

const ME = {
  id: 1,
  name: 'Ada &amp; co',
  slug: 'ada',
  username: 'ada',
  roles: ['author'],
  // An Author: may publish, upload and create tags (edit_posts), not categories (manage_categories).
  capabilities: { publish_posts: true, upload_files: true, edit_posts: true, author: true },
};
const INDEX_WITH_APP_PASSWORDS = {
  name: 'Fake',
  namespaces: ['wp/v2'],
  authentication: { 'application-passwords': { endpoints: { authorization: 'x' } } },
};

describe('verifySite', () => {
  it.each(['pretty', 'plain'] as const)(
    'reports user, roles and abilities (%s permalinks)',
    async (permalinks) => {
      const f = await fake({ permalinks });
      f.on('GET /', () => ({ json: INDEX_WITH_APP_PASSWORDS }));
      f.on('GET /wp/v2/users/me', (req) => {
        expect(req.query.get('context')).toBe('edit');
        return { json: ME };
      });
      const result = await verifySite(clientFor(f));
      expect(result).toEqual({
        restRoot: permalinks === 'pretty' ? `${f.url}/wp-json/` : `${f.url}/index.php?rest_route=/`,
        permalinks,
        applicationPasswords: true,
        siteName: 'Fake',
        syncState: { kind: 'marker' },
        seo: {
          plugin: null,
          writable: [],
          missing: Object.fromEntries(
            ['title', 'description', 'focus_keyword', 'canonical', 'noindex'].map((f) => [
              f,
              'no SEO plugin on the site',
            ]),
          ),
        },
        user: { id: 1, name: 'Ada & co', slug: 'ada', username: 'ada', roles: ['author'] },
        can: { publish: true, uploadMedia: true, createCategories: false, createTags: true, sync: false },
      });
    },
  );

  it('falls back to ?rest_route= without a Link header', async () => {
    const f = await fake({ permalinks: 'plain', linkHeader: false });
    f.on('GET /', () => ({ json: { ...INDEX_WITH_APP_PASSWORDS, authentication: [] } }));
    f.on('GET /wp/v2/users/me', () => ({ json: ME }));
    const result = await verifySite(clientFor(f));
    expect(result.restRoot).toBe(`${f.url}/?rest_route=/`);
    expect(result.permalinks).toBe('plain');
    expect(result.applicationPasswords).toBe(false);
    // The index read during discovery is not read again.
    expect(f.seen.filter((s) => s.route === '/').length).toBe(1);
  });

  it('explains a 401 with the likely causes', async () => {
    const f = await fake();
    f.on('GET /', () => ({ json: INDEX_WITH_APP_PASSWORDS }));
    f.on('GET /wp/v2/users/me', () => ({
      status: 401,
      json: {
        code: 'rest_not_logged_in',
        message: 'You are not currently logged in.',
        data: { status: 401 },
      },
    }));
    const error = (await caught(verifySite(clientFor(f)))) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe(
      `WordPress at ${f.url} did not accept the credentials of "admin": HTTP 401 GET /wp-json/wp/v2/users/me: You are not currently logged in.`,
    );
    expect(error.context).toMatchObject({ status: 401, peerCode: 'rest_not_logged_in' });
    // The index offers Application Passwords: that cause is ruled out.
    const hints = error.context.hints!;
    expect(hints).toHaveLength(3);
    expect(hints[0]).toMatch(/Application Password is wrong/);
    expect(hints[1]).toMatch(/not the name given to the Application Password/);
    expect(hints[2]).toMatch(/strip the Authorization header/);
  });

  it('says so first when the index offers no Application Passwords', async () => {
    const f = await fake();
    f.on('GET /', () => ({ json: { ...INDEX_WITH_APP_PASSWORDS, authentication: [] } }));
    f.on('GET /wp/v2/users/me', () => ({ status: 401, json: { code: 'rest_not_logged_in', message: 'x' } }));
    const error = (await caught(verifySite(clientFor(f)))) as AuthError;
    expect(error.context.hints![0]).toMatch(
      /^Application Passwords are not available on this site: .*plain HTTP/,
    );
  });

  it('still explains when the whole REST API refuses unknown callers', async () => {
    const f = await fake();
    f.on('GET /', () => ({
      status: 401,
      json: { code: 'rest_cannot_access', message: 'Only authenticated users.' },
    }));
    f.on('GET /wp/v2/users/me', () => ({
      status: 401,
      json: { code: 'rest_cannot_access', message: 'Only authenticated users.' },
    }));
    const error = (await caught(verifySite(clientFor(f)))) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.context.hints).toHaveLength(4);
    expect(error.context.hints![1]).toMatch(/may be unavailable: WordPress turns them off on plain HTTP/);
  });

  it('a REST API without wp/v2: exit 7 saying so, before the credentials are tried', async () => {
    for (const index of [
      { ...INDEX_WITH_APP_PASSWORDS, namespaces: ['oembed/1.0', 'acme/v1'] },
      { name: 'Fake', routes: { '/': {}, '/oembed/1.0': {} } },
    ]) {
      const f = await fake();
      f.on('GET /', () => ({ json: index }));
      const error = (await caught(verifySite(clientFor(f)))) as UnavailableError;
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error.exitCode).toBe(7);
      expect(error.message).toBe(
        `WordPress at ${f.url}: REST API present but wp/v2 missing (the REST index at ${f.url}/wp-json/ lists the namespaces: ${'namespaces' in index ? 'oembed/1.0, acme/v1' : 'none'})`,
      );
      expect(error.context.hints![0]).toMatch(/needs wp\/v2 for posts/);
      expect(f.seen.map((s) => s.route)).toEqual(['/']);
    }
    // Routes alone (no namespaces list) are enough when they include wp/v2.
    const f = await fake();
    f.on('GET /', () => ({ json: { name: 'Fake', routes: { '/wp/v2/posts': {} } } }));
    f.on('GET /wp/v2/users/me', () => ({ json: ME }));
    expect((await verifySite(clientFor(f))).user.id).toBe(1);
  });

  it('is unavailable (exit 7) when nothing listens or the site is not WordPress', async () => {
    const f = await fake({ linkHeader: false });
    const url = f.url;
    const notWp = await caught(verifySite(clientFor(f)));
    expect(notWp).toBeInstanceOf(UnavailableError);
    expect(notWp.message).toMatch(/does not look like a WordPress site/);
    f.unexpected.length = 0;
    await f.close();
    fakes.splice(fakes.indexOf(f), 1);
    const c = new WordPressClient(
      { websiteUrl: url, username: 'a', password: 'b' },
      { retry: { retries: 0 } },
    );
    clients.push(c);
    const down = await caught(verifySite(c));
    expect(down).toBeInstanceOf(UnavailableError);
    expect((down as UnavailableError).exitCode).toBe(7);
  });

  it('credentialHints leaves out what the index rules out', () => {
    const hints = credentialHints({
      siteUrl: 'https://example.com',
      username: 'ada',
      applicationPasswords: true,
    });
    expect(hints).toHaveLength(3);
    expect(hints.join('\n')).not.toMatch(/unavailable|not available/);
  });
});

describe('posts', () => {
  it('finds posts by slug in every status (trash included) with the edit context', async () => {
    const f = await fake({ permalinks: 'plain' });
    f.on('GET /wp/v2/posts', (req) => {
      expect(Object.fromEntries(req.query)).toMatchObject({
        slug: 'hello',
        status: 'publish,future,draft,pending,private,trash',
        context: 'edit',
      });
      return {
        json: [
          { id: 4, status: 'draft', slug: 'hello', title: { raw: 'Hello', rendered: 'Hello' }, meta: [] },
        ],
      };
    });
    const posts = await findPostsBySlugs(clientFor(f), ['hello'], 'look up');
    expect(posts.map((p) => [p.id, p.status, p.title?.raw])).toEqual([[4, 'draft', 'Hello']]);
  });

  it('reads one post; a missing one is not found (exit 5)', async () => {
    const f = await fake();
    f.on('GET /wp/v2/posts/4', () => ({
      json: { id: 4, status: 'future', sticky: true, meta: { blogctl_source: 'x' } },
    }));
    f.on('GET /wp/v2/posts/5', () => ({
      status: 404,
      json: { code: 'rest_post_invalid_id', message: 'Invalid post ID.' },
    }));
    const c = clientFor(f);
    expect(await getPost(c, 4)).toMatchObject({
      id: 4,
      status: 'future',
      sticky: true,
      meta: { blogctl_source: 'x' },
    });
    expect(f.seen.at(-1)!.query.get('context')).toBe('edit');
    const error = await caught(getPost(c, 5, { context: 'view' }));
    expect((error as UsageError).exitCode).toBe(5);
  });
});

describe('WordPressClient', () => {
  it('fails a 2xx that is not JSON: POST /wp-json/ under plain permalinks answers the home page', async () => {
    const f = await fake();
    const c = new WordPressClient(
      { websiteUrl: f.url, username: 'a', password: 'b' },
      { retry: { retries: 0 }, restRoot: `${f.url}/wp-json/` },
    );
    clients.push(c);
    f.on('POST /wp/v2/posts', () => ({
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      text: '<html><title>Home</title></html>',
    }));
    const error = await caught(c.createPost({ title: 't', content: 'c', status: 'draft' }));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe(
      'create the WordPress post: the server answered HTTP 200 with an HTML page (Home)',
    );
    // restRoot given: no discovery request.
    expect(f.seen.map((s) => s.route)).toEqual(['/wp/v2/posts']);
  });

  it('describes endpoints under both root forms', () => {
    expect(routeEndpoint('POST', 'http://x/wp-json/', 'wp/v2/posts')).toBe('POST /wp-json/wp/v2/posts');
    expect(routeEndpoint('GET', 'http://x/index.php?rest_route=/', 'wp/v2/posts')).toBe(
      'GET /index.php?rest_route=/wp/v2/posts',
    );
    expect(permalinkMode('http://x/?rest_route=/')).toBe('plain');
    expect(permalinkMode('http://x/blog/wp-json/')).toBe('pretty');
  });
});

describe('credentials stay on the site', () => {
  /** A loopback server recording every request with its Authorization header; answers like WordPress. */
  async function recorder(link?: () => string) {
    const seen: { method: string; url: string; authorization: string | undefined }[] = [];
    let base = '';
    const server = createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
      const url = new URL(req.url!, base);
      const route =
        url.searchParams.get('rest_route') ??
        (url.pathname.startsWith('/wp-json/') ? url.pathname.slice(8) : undefined);
      const headers: Record<string, string> = link ? { link: `<${link()}>; rel="https://api.w.org/"` } : {};
      if (route === undefined) {
        res.writeHead(200, { 'content-type': 'text/html', ...headers }).end('<html></html>');
      } else if (route === '/' || route === '') {
        res.writeHead(200, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(INDEX_WITH_APP_PASSWORDS));
      } else if (route === '/wp/v2/users/me') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ME));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"rest_no_route"}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    return { url: base, port, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  it.each([
    ['another port on the same host', (other: { url: string }) => `${other.url}/wp-json/`],
    ['another host name', (other: { port: number }) => `http://localhost:${other.port}/wp-json/`],
  ])('a Link naming %s is not followed: ?rest_route= on the site instead', async (_, target) => {
    const other = await recorder();
    let otherTarget = '';
    const site = await recorder(() => otherTarget);
    otherTarget = target(other);
    const password = 'abcd efgh ijkl mnop qrst uvwx';
    try {
      const c = new WordPressClient(
        { websiteUrl: site.url, username: 'admin', password },
        { retry: { retries: 0 } },
      );
      clients.push(c);
      const result = await verifySite(c);
      expect(result.restRoot).toBe(`${site.url}/?rest_route=/`);
      expect(other.seen).toEqual([]);
      const basic = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
      expect(site.seen.map((r) => [r.method, r.url, r.authorization])).toEqual([
        // Discovery's GET / goes without the Application Password: it needs none.
        ['GET', '/', undefined],
        ['GET', '/?rest_route=/', basic],
        ['GET', '/?rest_route=%2Fwp%2Fv2%2Fusers%2Fme&context=edit', basic],
      ]);
    } finally {
      await Promise.all([site.close(), other.close()]);
    }
  });

  it('a Link on the same host and port is followed, and GET / carries no credentials', async () => {
    let base = '';
    const site = await recorder(() => `${base}/wp-json/`);
    base = site.url;
    try {
      const c = new WordPressClient(
        { websiteUrl: site.url, username: 'admin', password: 'pw' },
        { retry: { retries: 0 } },
      );
      clients.push(c);
      expect((await verifySite(c)).restRoot).toBe(`${site.url}/wp-json/`);
      expect(site.seen.map((r) => [r.url, r.authorization !== undefined])).toEqual([
        ['/', false],
        ['/wp-json/', true],
        ['/wp-json/wp/v2/users/me?context=edit', true],
      ]);
    } finally {
      await site.close();
    }
  });

  it('says where the foreign Link pointed when the site itself has no REST API', async () => {
    const other = await recorder();
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/' ? 200 : 404, {
        'content-type': 'text/html',
        link: `<${other.url}/wp-json/>; rel="https://api.w.org/"`,
      });
      res.end('<html></html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const c = new WordPressClient(
        { websiteUrl: url, username: 'a', password: 'secret-pw' },
        { retry: { retries: 0 } },
      );
      clients.push(c);
      const error = (await caught(verifySite(c))) as UnavailableError;
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error.message).toMatch(/its REST API link points to another host and no JSON at \?rest_route=/);
      expect(error.context.hints!.join('\n')).toContain(`the site names its REST API at ${other.url}`);
      expect(other.seen).toEqual([]);
    } finally {
      await Promise.all([new Promise<void>((r) => server.close(() => r())), other.close()]);
    }
  });

  it('mayCarryCredentials: same host and port, or http → https on the default ports', () => {
    expect(mayCarryCredentials('http://127.0.0.1:8080', 'http://127.0.0.1:8080/wp-json/')).toBe(true);
    expect(mayCarryCredentials('http://127.0.0.1:8080', 'http://127.0.0.1:8081/wp-json/')).toBe(false);
    expect(mayCarryCredentials('http://127.0.0.1:8080', 'http://localhost:8080/wp-json/')).toBe(false);
    expect(mayCarryCredentials('https://Blog.Example.com', 'https://blog.example.com:443/wp-json/')).toBe(
      true,
    );
    expect(mayCarryCredentials('https://blog.example.com', 'https://cdn.example.com/wp-json/')).toBe(false);
    expect(
      mayCarryCredentials('https://blog.example.com', 'https://blog.example.com.evil.test/wp-json/'),
    ).toBe(false);
    expect(mayCarryCredentials('http://blog.example.com', 'https://blog.example.com/wp-json/')).toBe(true);
    expect(mayCarryCredentials('https://blog.example.com', 'http://blog.example.com/wp-json/')).toBe(false);
    // keepHttps first turns an http root of an https site into https on the site's port.
    const kept = keepHttps('https://blog.example.com:8443', 'http://blog.example.com/wp-json/');
    expect(mayCarryCredentials('https://blog.example.com:8443', kept)).toBe(true);
  });
});

describe('restRootFromLink', () => {
  it('picks the api.w.org relation among the Link headers WordPress sends', () => {
    expect(
      restRootFromLink(
        '<https://s.example/wp-json/wp/v2/pages/5>; rel="alternate"; type="application/json", <https://s.example/?p=5>; rel=shortlink, <https://s.example/wp-json/>; rel="https://api.w.org/"',
      ),
    ).toBe('https://s.example/wp-json/');
    expect(restRootFromLink('<http://x/index.php?rest_route=/>; rel=https://api.w.org/')).toBe(
      'http://x/index.php?rest_route=/',
    );
    expect(restRootFromLink('<http://x/wp-json/>; rel="https://api.w.org/x"')).toBeUndefined();
    expect(restRootFromLink(undefined)).toBeUndefined();
  });
});

describe('keepHttps', () => {
  it('never downgrades the REST root of an https site to http on the same host', () => {
    expect(keepHttps('https://blog.example', 'http://blog.example/wp-json/')).toBe(
      'https://blog.example/wp-json/',
    );
    expect(keepHttps('https://blog.example:8443', 'http://blog.example:8080/?rest_route=/')).toBe(
      'https://blog.example:8443/?rest_route=/',
    );
    expect(keepHttps('http://blog.example', 'http://blog.example/wp-json/')).toBe(
      'http://blog.example/wp-json/',
    );
    expect(keepHttps('https://blog.example', 'http://cdn.example/wp-json/')).toBe(
      'http://cdn.example/wp-json/',
    );
  });
});
