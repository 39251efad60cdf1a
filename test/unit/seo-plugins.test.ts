// The SEO plugins' routes as loopback servers shaped from the plugins' own sources, and blogctl's adapters
// (src/wordpress/seo.ts) against them: what is sent, what is read back, and which fields a site can take.
// - Rank Math: includes/rest/class-shared.php (rankmath/seo-by-rank-math): POST rankmath/v1/updateMeta takes
//   objectType, objectID and meta (all required); an empty value deletes the key; answers {slug, schemas}.
// - AIOSEO: app/Common/Api/Api.php and PostsTerms.php (awesomemotive/all-in-one-seo-pack): POST aioseo/v1/post
//   {id, …} answers {success, posts}; GET aioseo/v1/post?postId= answers {success, data: {currentPost}}.
// - Yoast: its keys are post meta, writable only where registered for REST (blogctl's companion plugin).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/wordpress/client.js';
import {
  detectSeoPlugin,
  readSeo,
  seoFromMeta,
  seoMeta,
  seoSupport,
  writeSeo,
} from '../../src/wordpress/seo.js';

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const send = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

/** A WordPress with one SEO plugin's routes; `stored` is what the plugin keeps for post 7. */
async function site(plugin: 'rankmath' | 'aioseo' | 'yoast', registered: boolean) {
  const stored: Record<string, unknown> = {};
  const requests: string[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const route = url.searchParams.get('rest_route') ?? '';
      requests.push(`${req.method} ${route}`);
      if (route === '/') return send(res, 200, { namespaces: ['wp/v2', `${plugin}/v1`] });
      if (plugin === 'rankmath' && route === '/rankmath/v1/updateMeta' && req.method === 'POST') {
        const b = await body(req);
        for (const k of ['objectType', 'objectID', 'meta'])
          if (b[k] === undefined || b[k] === '')
            return send(res, 400, { code: 'rest_missing_callback_param', data: { params: [k] } });
        for (const [key, value] of Object.entries(b['meta'] as Record<string, unknown>)) {
          if (value === '' || (Array.isArray(value) && !value.length)) delete stored[key];
          else stored[key] = value;
        }
        return send(res, 200, { slug: true, schemas: [] });
      }
      if (plugin === 'aioseo' && route === '/aioseo/v1/post') {
        if (req.method === 'POST') {
          const b = await body(req);
          if (!b['id']) return send(res, 400, { success: false, message: 'Post ID is missing.' });
          Object.assign(stored, b);
          return send(res, 200, { success: true, posts: b['id'] });
        }
        return send(res, 200, { success: true, data: { currentPost: { id: 7, ...stored } } });
      }
      if (route === '/wp/v2/posts/7') {
        // WordPress answers only registered keys in `meta`, [] when none is registered.
        return send(res, 200, { id: 7, meta: registered ? { ...stored } : [] });
      }
      send(res, 404, { code: 'rest_no_route' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new WordPressClient(
    { websiteUrl: url, username: 'editor', password: 'x' },
    { restRoot: `${url}/?rest_route=/` },
  );
  closers.push(() => void client.close());
  return { client, stored, requests };
}

const FIELDS = {
  title: 'Espresso at home, step by step',
  description:
    'How to pull a good espresso shot at home: grind, dose, tamp and time, with the mistakes to avoid.',
  focus_keyword: 'home espresso',
  canonical: 'https://blog.example.com/espresso/',
  noindex: true,
};

describe('SEO plugins', () => {
  it('detects the plugin from the REST index', () => {
    expect(detectSeoPlugin({ namespaces: ['wp/v2', 'yoast/v1'] })).toBe('yoast');
    expect(detectSeoPlugin({ namespaces: ['wp/v2', 'rankmath/v1'] })).toBe('rankmath');
    expect(detectSeoPlugin({ namespaces: ['wp/v2', 'aioseo/v1'] })).toBe('aioseo');
    expect(detectSeoPlugin({ namespaces: ['wp/v2'] })).toBeUndefined();
  });

  it('Rank Math: updateMeta with its own keys and types, read back from the registered meta', async () => {
    const { client, stored } = await site('rankmath', true);
    const back = await writeSeo(client, 'rankmath', 7, FIELDS);
    expect(stored).toEqual({
      rank_math_title: FIELDS.title,
      rank_math_description: FIELDS.description,
      rank_math_focus_keyword: FIELDS.focus_keyword,
      rank_math_canonical_url: FIELDS.canonical,
      rank_math_robots: ['noindex'],
    });
    expect(back).toEqual(FIELDS);
  });

  it('Rank Math without registered keys: sent, but cannot be read back (undefined, never "as sent")', async () => {
    const { client, stored } = await site('rankmath', false);
    expect(await writeSeo(client, 'rankmath', 7, { title: 'T' })).toBeUndefined();
    expect(stored).toEqual({ rank_math_title: 'T' });
  });

  it('AIOSEO: its post route, read back through its own GET', async () => {
    const { client, stored, requests } = await site('aioseo', false);
    const back = await writeSeo(client, 'aioseo', 7, FIELDS);
    expect(stored).toMatchObject({
      id: 7,
      title: FIELDS.title,
      description: FIELDS.description,
      canonicalUrl: FIELDS.canonical,
      default: false,
      noindex: true,
      keyphrases: { focus: { keyphrase: FIELDS.focus_keyword } },
    });
    expect(back).toEqual(FIELDS);
    expect(requests).toContain('GET /aioseo/v1/post');
  });

  it("Yoast: the fields travel as meta with Yoast's values; read back from the registered meta", async () => {
    expect(seoMeta('yoast', FIELDS)).toEqual({
      _yoast_wpseo_title: FIELDS.title,
      _yoast_wpseo_metadesc: FIELDS.description,
      _yoast_wpseo_focuskw: FIELDS.focus_keyword,
      _yoast_wpseo_canonical: FIELDS.canonical,
      '_yoast_wpseo_meta-robots-noindex': '1',
    });
    expect(seoFromMeta('yoast', { '_yoast_wpseo_meta-robots-noindex': '2' })).toEqual({ noindex: false });
    const { client, stored } = await site('yoast', true);
    Object.assign(stored, seoMeta('yoast', FIELDS));
    expect(await readSeo(client, 'yoast', 7)).toEqual(FIELDS);
  });

  it('which fields a site can take: registered keys only, with the reason for the others', () => {
    const partial = seoSupport('yoast', ['_yoast_wpseo_title', '_yoast_wpseo_metadesc']);
    expect(partial.writable).toEqual(['title', 'description']);
    expect(partial.missing.focus_keyword).toContain('_yoast_wpseo_focuskw is not registered');
    expect(seoSupport('aioseo', undefined).writable).toHaveLength(5);
    expect(seoSupport(undefined, undefined).missing.title).toBe('no SEO plugin on the site');
  });
});
