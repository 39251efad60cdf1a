// A post's SEO fields (title, description, focus keyword, canonical URL, noindex), written to whichever SEO
// plugin the site runs and read back through the same route, so they take part in the plan and drift like the
// post's own fields. Which plugin: the REST index's namespaces (`yoast/v1`, `rankmath/v1`, `aioseo/v1`).
//
// How each plugin takes them (from the plugins' own sources):
// - Yoast SEO: its REST API is read-only (yoast_head_json). Its post meta (`_yoast_wpseo_title`, `_metadesc`,
//   `_focuskw`, `_canonical`, `_meta-robots-noindex`) is protected and not registered for REST, so it is writable
//   only where something registers it: blogctl's companion plugin does (docs/wordpress-plugin.md). Then the keys
//   are plain `meta` on wp/v2/posts, read back from the same field.
// - Rank Math: `POST rankmath/v1/updateMeta` {objectType: 'post', objectID, meta: {rank_math_title, …}}
//   (includes/rest/class-shared.php, update_metadata: an empty value deletes the key). Rank Math has no route
//   that reads them back as stored (includes/rest/: its only GET, class-headless.php's getHead, is off by
//   default and answers the rendered <head>, variables replaced), so they are read from `meta` on the post's
//   route, where the companion plugin registers the `rank_math_*` keys; without it the fields cannot be read
//   at all: never sent (a warning names them), so never called edited.
// - All in One SEO: `POST aioseo/v1/post` {id, title, description, canonicalUrl, noindex, default, keyphrases}
//   (app/Common/Api/PostsTerms.php updatePosts; Models/Post.php sanitizeAndSetDefaults) and
//   `GET aioseo/v1/post?postId=` for what it stored (getPostData → data.currentPost).
import type { RestIndex, WordPressClient } from './client.js';
import { routeOfType } from './post-types.js';

export interface SeoFields {
  title?: string;
  description?: string;
  focus_keyword?: string;
  canonical?: string;
  noindex?: boolean;
}

export const SEO_FIELDS = ['title', 'description', 'focus_keyword', 'canonical', 'noindex'] as const;
export type SeoField = (typeof SEO_FIELDS)[number];

export type SeoPluginKind = 'yoast' | 'rankmath' | 'aioseo';

/**
 * The SEO values a write sends: a text field's `''` and noindex's `null` clear the field on the site (a field
 * removed from the source, or written `''`: the plugin's empty value, its own default).
 */
export type SeoValues = Omit<SeoFields, 'noindex'> & { noindex?: boolean | null };

/** The longest SEO text taken (what blogctl's companion plugin registers the keys with). */
const SEO_TEXT_MAX = 2048;

/**
 * The SEO fields of a mapping (front matter's `seo:`, blogctl.yml's `defaults.seo`), each checked for what the
 * SEO plugins store: one-line texts, an absolute http(s) URL as the canonical, true or false for noindex.
 * `fail` names the field; null leaves a field unset.
 */
export function checkSeo(
  value: Record<string, unknown>,
  fail: (field: string, problem: string) => never,
): SeoFields {
  const out: SeoFields = {};
  for (const key of Object.keys(value)) {
    if (!(SEO_FIELDS as readonly string[]).includes(key))
      fail(key, `unknown SEO field (known: ${SEO_FIELDS.join(', ')})`);
  }
  for (const field of SEO_FIELDS) {
    const v = value[field];
    if (v === undefined || v === null) continue;
    if (field === 'noindex') {
      if (typeof v !== 'boolean') fail(field, `expected true or false, got ${shown(v)}`);
      out.noindex = v;
      continue;
    }
    if (typeof v !== 'string' && typeof v !== 'number') fail(field, `expected text, got ${shown(v)}`);
    const text = String(v).trim();
    // `''` clears the field on the site (the plugin's default then applies), as removing it from a source does.
    if (!text) {
      out[field] = '';
      continue;
    }
    if (/[\r\n]/.test(text)) fail(field, 'must be on one line');
    if (text.length > SEO_TEXT_MAX) fail(field, `longer than ${SEO_TEXT_MAX} characters`);
    if (field === 'canonical') {
      let url: URL | undefined;
      try {
        url = new URL(text);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
        fail(field, `expected an absolute http(s) URL, got ${shown(v)}`);
    }
    out[field] = text;
  }
  return out;
}

/** A value as messages show it: a mapping or list by its kind (its own toString is never called). */
function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'a mapping';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The SEO plugin the site runs, from its REST index; the first found when several are (a site mid-migration). */
export function detectSeoPlugin(index: RestIndex | undefined): SeoPluginKind | undefined {
  const namespaces = index?.namespaces ?? [];
  if (namespaces.includes('yoast/v1')) return 'yoast';
  if (namespaces.includes('rankmath/v1')) return 'rankmath';
  if (namespaces.includes('aioseo/v1')) return 'aioseo';
  return undefined;
}

/** The meta keys each plugin reads, per field (Yoast's and Rank Math's own names). */
export const SEO_META_KEYS: Record<'yoast' | 'rankmath', Record<SeoField, string>> = {
  yoast: {
    title: '_yoast_wpseo_title',
    description: '_yoast_wpseo_metadesc',
    focus_keyword: '_yoast_wpseo_focuskw',
    canonical: '_yoast_wpseo_canonical',
    // Yoast: '1' is noindex, '2' index, '0' (or absent) the post type's default.
    noindex: '_yoast_wpseo_meta-robots-noindex',
  },
  rankmath: {
    title: 'rank_math_title',
    description: 'rank_math_description',
    focus_keyword: 'rank_math_focus_keyword',
    canonical: 'rank_math_canonical_url',
    // Rank Math: an array of robots directives (['noindex'] or ['index']).
    noindex: 'rank_math_robots',
  },
};

/**
 * The post meta keys the site registers for the REST API, from the schema `OPTIONS wp/v2/posts` answers
 * (`schema.properties.meta.properties`): one cheap request, no post needed. WordPress lists every key
 * registered with show_in_rest there, whoever asks; writing one is still checked per account (auth_callback).
 * Undefined when the site does not describe the route.
 */
export async function registeredPostMeta(client: WordPressClient): Promise<string[] | undefined> {
  const res = await client.route('wp/v2/posts', {
    method: 'OPTIONS',
    passStatuses: [400, 404, 405, 500, 501],
    label: 'read which post meta the site registers',
  });
  if (res.status < 200 || res.status >= 300) return undefined;
  const meta = (res.body as { schema?: { properties?: { meta?: { properties?: unknown } } } } | undefined)
    ?.schema?.properties?.meta?.properties;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  return Object.keys(meta);
}

/** The SEO plugin of the site and which fields it can take: reads the registered meta only where it matters. */
export async function seoReport(client: WordPressClient, index: RestIndex | undefined): Promise<SeoSupport> {
  const plugin = detectSeoPlugin(index);
  if (plugin !== 'yoast' && plugin !== 'rankmath') return seoSupport(plugin, undefined);
  return seoSupport(plugin, await registeredPostMeta(client));
}

export interface SeoSupport {
  plugin: SeoPluginKind | undefined;
  /** The fields this site takes and can read back. */
  writable: SeoField[];
  /** Why the others cannot be written, per field. */
  missing: Partial<Record<SeoField, string>>;
}

/**
 * Which fields the site can take: all five for AIOSEO (its own routes); for Yoast and Rank Math, those whose
 * meta key the site registers for REST (the `meta` object of a post it answered with `context=edit`).
 */
export function seoSupport(
  plugin: SeoPluginKind | undefined,
  registeredMeta: readonly string[] | undefined,
): SeoSupport {
  if (plugin === undefined) {
    const missing = Object.fromEntries(SEO_FIELDS.map((f) => [f, 'no SEO plugin on the site']));
    return { plugin, writable: [], missing };
  }
  if (plugin === 'aioseo') return { plugin, writable: [...SEO_FIELDS], missing: {} };
  const keys = SEO_META_KEYS[plugin];
  const writable: SeoField[] = [];
  const missing: Partial<Record<SeoField, string>> = {};
  for (const field of SEO_FIELDS) {
    if (registeredMeta?.includes(keys[field])) writable.push(field);
    else if (registeredMeta === undefined)
      missing[field] =
        `the site did not say which post meta it registers (OPTIONS wp/v2/posts), so ${keys[field]} cannot be checked`;
    else
      missing[field] =
        `${keys[field]} is not registered for the REST API (install blogctl's companion plugin: docs/wordpress-plugin.md)`;
  }
  return { plugin, writable, missing };
}

/**
 * The `meta` members that carry `fields` for Yoast or Rank Math, in the types each plugin stores. A clear is
 * the plugin's empty value: `''` (Rank Math's updateMeta deletes the key for it), Yoast's noindex `'0'` (the
 * post type's default), Rank Math's robots `[]`.
 */
export function seoMeta(plugin: 'yoast' | 'rankmath', fields: SeoValues): Record<string, unknown> {
  const keys = SEO_META_KEYS[plugin];
  const meta: Record<string, unknown> = {};
  for (const field of SEO_FIELDS) {
    const value = fields[field];
    if (value === undefined) continue;
    if (field === 'noindex')
      meta[keys.noindex] =
        plugin === 'yoast'
          ? value === null
            ? '0'
            : value
              ? '1'
              : '2'
          : value === null
            ? []
            : value
              ? ['noindex']
              : ['index'];
    else meta[keys[field]] = value;
  }
  return meta;
}

/** The SEO fields a post's `meta` holds for Yoast or Rank Math (what WordPress stored). */
export function seoFromMeta(plugin: 'yoast' | 'rankmath', meta: unknown): SeoFields {
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return {};
  const m = meta as Record<string, unknown>;
  const keys = SEO_META_KEYS[plugin];
  const out: SeoFields = {};
  for (const field of ['title', 'description', 'focus_keyword', 'canonical'] as const) {
    const value = m[keys[field]];
    if (typeof value === 'string' && value !== '') out[field] = value;
  }
  const robots = m[keys.noindex];
  if (plugin === 'yoast' && (robots === '1' || robots === '2')) out.noindex = robots === '1';
  if (plugin === 'rankmath' && Array.isArray(robots) && robots.length)
    out.noindex = robots.includes('noindex');
  return out;
}

/**
 * Writes a post's SEO fields where the plugin takes them outside the post itself (Rank Math, AIOSEO); Yoast's go
 * in the post request's `meta` (seoMeta). Returns the fields as the plugin stored them (read back), or undefined
 * where the plugin cannot say (Rank Math without registered keys).
 */
export async function writeSeo(
  client: WordPressClient,
  plugin: SeoPluginKind,
  postId: number,
  fields: SeoValues,
  { readBack = true, type }: { readBack?: boolean; type?: string } = {},
): Promise<SeoFields | undefined> {
  if (plugin === 'rankmath') {
    await client.route('rankmath/v1/updateMeta', {
      method: 'POST',
      json: { objectType: 'post', objectID: postId, meta: seoMeta('rankmath', fields) },
      label: 'write the Rank Math SEO fields',
    });
    return readBack ? readSeo(client, plugin, postId, type) : undefined;
  }
  if (plugin === 'aioseo') {
    const body: Record<string, unknown> = { id: postId };
    if (fields.title !== undefined) body['title'] = fields.title;
    if (fields.description !== undefined) body['description'] = fields.description;
    if (fields.canonical !== undefined) body['canonicalUrl'] = fields.canonical;
    if (fields.noindex !== undefined) {
      // `default: true` makes AIOSEO ignore the post's own robots settings (a clear: back to the default).
      body['default'] = fields.noindex === null;
      body['noindex'] = fields.noindex === true;
    }
    if (fields.focus_keyword !== undefined)
      body['keyphrases'] = { focus: { keyphrase: fields.focus_keyword } };
    await client.route('aioseo/v1/post', { method: 'POST', json: body, label: 'write the AIOSEO fields' });
    return readBack ? readSeo(client, plugin, postId, type) : undefined;
  }
  return readBack ? readSeo(client, plugin, postId, type) : undefined;
}

/**
 * The SEO fields of a post as its plugin stored them; undefined where they cannot be read. `type` is the
 * post's type (a page's Yoast or Rank Math keys are read at wp/v2/pages); AIOSEO's route takes any type.
 */
export async function readSeo(
  client: WordPressClient,
  plugin: SeoPluginKind,
  postId: number,
  type?: string,
): Promise<SeoFields | undefined> {
  if (plugin === 'aioseo') {
    const res = await client.route('aioseo/v1/post', {
      method: 'GET',
      params: { postId },
      label: 'read the AIOSEO fields',
    });
    const post = (res.body as { data?: { currentPost?: Record<string, unknown> } } | undefined)?.data
      ?.currentPost;
    if (!post) return undefined;
    const out: SeoFields = {};
    if (typeof post['title'] === 'string' && post['title']) out.title = post['title'];
    if (typeof post['description'] === 'string' && post['description']) out.description = post['description'];
    if (typeof post['canonicalUrl'] === 'string' && post['canonicalUrl'])
      out.canonical = post['canonicalUrl'];
    const focus = (post['keyphrases'] as { focus?: { keyphrase?: unknown } } | undefined)?.focus?.keyphrase;
    if (typeof focus === 'string' && focus) out.focus_keyword = focus;
    if (post['default'] === false && typeof post['noindex'] === 'boolean') out.noindex = post['noindex'];
    return out;
  }
  const route = await routeOfType(client, type);
  const res = await client.route(`${route}/${postId}`, {
    method: 'GET',
    params: { context: 'edit', _fields: 'id,meta' },
    label: 'read the SEO fields',
  });
  const meta = (res.body as { meta?: unknown } | undefined)?.meta;
  const keys = Object.values(SEO_META_KEYS[plugin]);
  if (!meta || typeof meta !== 'object' || Array.isArray(meta) || !keys.some((k) => k in meta))
    return undefined;
  return seoFromMeta(plugin, meta);
}

/** AIOSEO's fields are read a few posts at a time (its route takes one post a request). */
const READS_AT_ONCE = 4;

/**
 * The SEO fields each post holds as its plugin stored them (`wp pull`): Yoast's and Rank Math's from the posts'
 * own `meta` (where their keys are registered for REST), AIOSEO's through its route, a few at a time. Posts with
 * none are left out of `fields`. `unread` says why nothing could be read: Yoast's or Rank Math's keys are not
 * registered for REST (a registered key shows in every post's meta, empty or not).
 */
export async function seoOfPosts(
  client: WordPressClient,
  posts: { id: number; meta?: unknown }[],
): Promise<{ fields: Map<number, SeoFields>; unread?: string }> {
  const fields = new Map<number, SeoFields>();
  if (!posts.length) return { fields };
  const plugin = detectSeoPlugin(await client.index());
  if (!plugin) return { fields };
  const keep = (id: number, seo: SeoFields | undefined): void => {
    if (seo && Object.keys(seo).length) fields.set(id, seo);
  };
  if (plugin !== 'aioseo') {
    const keys = Object.values(SEO_META_KEYS[plugin]);
    const shows = (meta: unknown): boolean =>
      typeof meta === 'object' && meta !== null && !Array.isArray(meta) && keys.some((k) => k in meta);
    if (!posts.some((p) => shows(p.meta)))
      return {
        fields,
        unread: `the site runs ${plugin === 'yoast' ? 'Yoast SEO' : 'Rank Math'}, whose fields are not registered for the REST API, so they cannot be read: no file has seo: (blogctl's companion plugin registers them: docs/wordpress-plugin.md)`,
      };
    for (const p of posts) keep(p.id, seoFromMeta(plugin, p.meta));
    return { fields };
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < posts.length) {
      const post = posts[next++]!;
      keep(post.id, await readSeo(client, plugin, post.id));
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, posts.length) }, worker));
  return { fields };
}
