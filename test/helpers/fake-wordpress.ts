// A small fake WordPress on 127.0.0.1 (port 0) that answers like the real one (the e2e suite, test/e2e,
// checks the same behaviour against WordPress itself): discovery Link header, REST index, wp/v2/posts (create,
// by id, by slug), users/me, categories and tags (paged listing, creation with term_exists), media uploads,
// all with Application Password Basic auth. Anything it does not expect gets a loud 404 naming method and path.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from './http-server.js';

export interface FakeWordPressOptions {
  /** 'plain': REST lives at /index.php?rest_route=/ and POST /wp-json/… answers 200 with the HTML home page. */
  permalinks?: 'pretty' | 'plain';
  username?: string;
  password?: string;
  /** Whether the REST index advertises Application Passwords (default true, as a local WordPress does). */
  applicationPasswords?: boolean;
  /** The REST index's namespaces (default `oembed/1.0`, `wp/v2`): leave out wp/v2 to play a locked-down site. */
  namespaces?: string[];
  /** The user's role as users/me reports it, with that role's capabilities (default administrator). */
  role?: 'administrator' | 'editor' | 'author';
  /**
   * The meta keys registered for the REST API: the others are dropped on save and the post answers with
   * `meta: []` (none registered) or only those; default: every key kept, as the earlier fake did.
   */
  registeredMeta?: string[];
  /** Play a plugin that strips HTML comments from post content on save. */
  stripComments?: boolean;
  /**
   * What saving does to the content besides (kses stripping an element, a filter adding `rel="noopener"`):
   * applied to the content of every create and update, as WordPress's filters are.
   */
  filterContent?: (content: string) => string;
  /**
   * Play a search plugin that replaces WordPress's search (Relevanssi, SearchWP, ElasticPress): `search`
   * matches the title only, never the content.
   */
  searchTitlesOnly?: boolean;
  /**
   * Play an SEO plugin's own routes (add its namespace to `namespaces` for blogctl to find it). `rankmath`:
   * POST rankmath/v1/updateMeta {objectType, objectID, meta} writes the post's meta (an empty value deletes
   * the key), as includes/rest/class-shared.php does. `aioseo`: POST aioseo/v1/post {id, …} keeps the fields
   * in AIOSEO's own table and GET aioseo/v1/post?postId= answers {data: {currentPost}}, as
   * app/Common/Api/PostsTerms.php does.
   */
  seoRoutes?: 'rankmath' | 'aioseo';
  /** Statuses a plugin registers (PublishPress's `in-progress`), listed by wp/v2/statuses besides WordPress's. */
  customStatuses?: string[];
  /** Called after each search of posts is answered (a publish's look-up): a person acting during a run. */
  afterSearch?: () => void;
  /**
   * Hold the first N searches of posts (a publish's look-up) until all N have arrived, then answer them
   * together: N runs that overlap, each planning before any has created its posts.
   */
  searchBarrier?: number;
}

/** What users/me?context=edit lists for each role (WordPress 6.1's defaults, the ones blogctl reads). */
const ROLE_CAPABILITIES: Record<'administrator' | 'editor' | 'author', Record<string, boolean>> = {
  administrator: {
    publish_posts: true,
    upload_files: true,
    edit_posts: true,
    edit_others_posts: true,
    manage_categories: true,
  },
  editor: {
    publish_posts: true,
    upload_files: true,
    edit_posts: true,
    edit_others_posts: true,
    manage_categories: true,
  },
  author: { publish_posts: true, upload_files: true, edit_posts: true },
};

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

/** A post as stored: the request's fields plus what WordPress adds. */
export interface FakePost extends Record<string, unknown> {
  id: number;
  status: string;
  /** post_name: empty for a draft or pending post created without a slug, as in WordPress. */
  slug: string;
  title: string;
}

export interface FakeTerm {
  id: number;
  name: string;
  slug: string;
  parent: number;
}

export interface FakeWordPress {
  url: string;
  username: string;
  password: string;
  requests: RecordedRequest[];
  /** Requests the fake did not expect (each also answered 404). */
  unexpected: RecordedRequest[];
  /** Posts created (POST wp/v2/posts), in order; updates change them in place. */
  posts: FakePost[];
  /** Updates (POST wp/v2/posts/<id>): the post and the fields sent. */
  updates: { id: number; fields: string[] }[];
  terms: { categories: FakeTerm[]; tags: FakeTerm[] };
  /** Uploaded media: id, file name as sent, size, the slug WordPress gave it (asked for, else from the name). */
  media: { id: number; filename: string; bytes: number; slug: string; author: number; url: string }[];
  close(): Promise<void>;
}

const CANNOT_CREATE = {
  code: 'rest_cannot_create',
  message: 'Sorry, you are not allowed to create posts as this user.',
  data: { status: 401 },
};
const NOT_LOGGED_IN = {
  code: 'rest_not_logged_in',
  message: 'You are not currently logged in.',
  data: { status: 401 },
};
const FORBIDDEN_CONTEXT = {
  code: 'rest_forbidden_context',
  message: 'Sorry, you are not allowed to edit posts in this post type.',
  data: { status: 401 },
};

const slugify = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export async function startFakeWordPress(options: FakeWordPressOptions = {}): Promise<FakeWordPress> {
  const permalinks = options.permalinks ?? 'pretty';
  const username = options.username ?? 'admin';
  const password = options.password ?? 'abcd EFGH 1234 ijkl MNOP 5678';
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  const posts: FakePost[] = [];
  const updates: FakeWordPress['updates'] = [];
  const terms = {
    categories: [{ id: 1, name: 'Uncategorized', slug: 'uncategorized', parent: 0 }],
    tags: [] as FakeTerm[],
  };
  const media: FakeWordPress['media'] = [];
  // Posts and attachments share one id sequence, as in WordPress; terms have their own.
  let nextId = 1;
  let nextTermId = 2;
  let base = '';

  const restRoot = (): string =>
    permalinks === 'pretty' ? `${base}/wp-json/` : `${base}/index.php?rest_route=/`;
  const json = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=UTF-8',
      link: `<${restRoot()}>; rel="https://api.w.org/"`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const home = (res: ServerResponse): void => {
    res.writeHead(200, {
      'content-type': 'text/html; charset=UTF-8',
      link: `<${restRoot()}>; rel="https://api.w.org/"`,
    });
    res.end(
      '<!doctype html><html><head><title>Fake WordPress</title></head><body><h1>Fake WordPress</h1></body></html>',
    );
  };
  // WordPress ignores the spaces in an Application Password.
  const authorised = (header: string | undefined): boolean => {
    const m = /^Basic (.+)$/.exec(header ?? '');
    if (!m) return false;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const [user, pass] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    return user === username && pass.replace(/\s+/g, '') === password.replace(/\s+/g, '');
  };
  const now = (): string => new Date().toISOString().slice(0, 19);
  const registered = options.registeredMeta;
  /** AIOSEO's own table (aioseo_posts), by post id. */
  const aioseo = new Map<number, Record<string, unknown>>();
  let held: (() => void)[] | undefined = options.searchBarrier ? [] : undefined;
  const metaView = (meta: unknown): unknown => {
    if (registered === undefined) return meta;
    const kept = Object.entries((meta ?? {}) as Record<string, unknown>).filter(([k]) =>
      registered.includes(k),
    );
    return registered.length ? Object.fromEntries(kept) : [];
  };
  /** What a save keeps of the content (a plugin may strip comments). */
  const saved = (input: Record<string, unknown>): Record<string, unknown> => {
    if (typeof input['content'] !== 'string') return input;
    let content = input['content'];
    if (options.stripComments) content = content.replace(/<!--[\s\S]*?-->/g, '');
    if (options.filterContent) content = options.filterContent(content);
    return { ...input, content };
  };
  const view = (p: FakePost): Record<string, unknown> => {
    const link =
      p.status === 'publish' && permalinks === 'pretty' && p.slug
        ? `${base}/${p.slug}/`
        : `${base}/?p=${p.id}`;
    return {
      ...p,
      ...((p['meta'] !== undefined || registered !== undefined) && { meta: metaView(p['meta']) }),
      // The site's account (user 1) wrote every post unless it says otherwise (another user's, planted).
      author: typeof p['author'] === 'number' ? p['author'] : 1,
      type: 'post',
      link,
      title: { raw: p.title, rendered: p.title },
      content: { raw: p['content'] ?? '', rendered: p['content'] ?? '', protected: false },
      excerpt: { raw: p['excerpt'] ?? '', rendered: p['excerpt'] ?? '', protected: false },
    };
  };

  /** wp_insert_post's rules: future < 60 s ahead (or no date) publishes now; publish ≥ 60 s ahead is scheduled. */
  const scheduledStatus = (status: string, dateGmt: unknown): string => {
    const when =
      typeof dateGmt === 'string'
        ? Date.parse(/Z$|[+-]\d\d:?\d\d$/.test(dateGmt) ? dateGmt : `${dateGmt}Z`)
        : NaN;
    const ahead = Number.isNaN(when) ? undefined : (when - Date.now()) / 1000;
    if (status === 'future' && (ahead === undefined || ahead < 60)) return 'publish';
    if (status === 'publish' && ahead !== undefined && ahead >= 60) return 'future';
    return status;
  };

  const createPost = (record: RecordedRequest, res: ServerResponse): void => {
    if (!authorised(record.authorization)) return json(res, 401, CANNOT_CREATE);
    const input = saved(JSON.parse(record.body || '{}') as Record<string, unknown>);
    if (input['author'] !== undefined && input['author'] !== 1)
      return json(res, 400, {
        code: 'rest_invalid_author',
        message: 'Invalid author ID.',
        data: { status: 400 },
      });
    if (input['sticky'] === true && input['password'])
      return json(res, 400, {
        code: 'rest_invalid_field',
        message: 'A post can not be sticky and have a password.',
        data: { status: 400 },
      });
    const id = nextId++;
    const title = String(input['title'] ?? '');
    // The site's zone is UTC (a fresh install's): a local `date` is the same instant as `date_gmt`.
    const when = input['date_gmt'] ?? input['date'];
    const status = scheduledStatus(String(input['status'] ?? 'draft'), when);
    const given = String(input['slug'] ?? '');
    const draft = status === 'draft' || status === 'pending';
    const stored: FakePost = {
      ...input,
      id,
      status,
      title,
      slug: given || (draft ? '' : slugify(title) || String(id)),
      date: typeof when === 'string' ? when.slice(0, 19) : now(),
      date_gmt: typeof when === 'string' ? when.slice(0, 19) : now(),
      modified_gmt: now(),
      categories: (input['categories'] as number[] | undefined) ?? [1],
    };
    posts.push(stored);
    // The answer keeps the slug a person would see (a draft's generated one), as the earlier fake did.
    json(res, 201, { ...view(stored), slug: stored.slug || slugify(title) || String(id) });
  };

  const taxonomy = (route: string): 'categories' | 'tags' | undefined => {
    const m = /^\/wp\/v2\/(categories|tags)$/.exec(route);
    return m ? (m[1] as 'categories' | 'tags') : undefined;
  };

  const rest = (
    route: string,
    req: IncomingMessage,
    record: RecordedRequest,
    url: URL,
    res: ServerResponse,
  ): boolean => {
    const auth = authorised(record.authorization);
    if (req.method === 'GET' && (route === '/' || route === '')) {
      json(res, 200, {
        name: 'Fake WordPress',
        url: base,
        home: base,
        namespaces: options.namespaces ?? ['oembed/1.0', 'wp/v2'],
        authentication:
          options.applicationPasswords === false
            ? []
            : {
                'application-passwords': {
                  endpoints: { authorization: `${base}/wp-admin/authorize-application.php` },
                },
              },
      });
      return true;
    }
    if (options.seoRoutes === 'rankmath' && req.method === 'POST' && route === '/rankmath/v1/updateMeta') {
      const b = JSON.parse(record.body || '{}') as Record<string, unknown>;
      const missing = ['objectType', 'objectID', 'meta'].filter((k) => b[k] === undefined || b[k] === '');
      if (missing.length) {
        json(res, 400, { code: 'rest_missing_callback_param', data: { status: 400, params: missing } });
        return true;
      }
      const post = posts.find((p) => p.id === Number(b['objectID']));
      if (!post) {
        json(res, 404, { code: 'rest_post_invalid_id', data: { status: 404 } });
        return true;
      }
      const meta = { ...((post['meta'] as Record<string, unknown> | undefined) ?? {}) };
      for (const [key, value] of Object.entries(b['meta'] as Record<string, unknown>)) {
        if (value === '' || (Array.isArray(value) && !value.length)) delete meta[key];
        else meta[key] = value;
      }
      post['meta'] = meta;
      json(res, 200, { slug: true, schemas: [] });
      return true;
    }
    if (options.seoRoutes === 'aioseo' && route === '/aioseo/v1/post') {
      if (req.method === 'POST') {
        const b = JSON.parse(record.body || '{}') as Record<string, unknown>;
        if (!b['id']) {
          json(res, 400, { success: false, message: 'Post ID is missing.' });
          return true;
        }
        aioseo.set(Number(b['id']), { ...aioseo.get(Number(b['id'])), ...b });
        json(res, 200, { success: true, posts: b['id'] });
        return true;
      }
      const id = Number(url.searchParams.get('postId'));
      json(res, 200, { success: true, data: { currentPost: { id, default: true, ...aioseo.get(id) } } });
      return true;
    }
    // The route's schema, as WordPress answers OPTIONS (to anyone): the registered meta keys under
    // schema.properties.meta.properties (WP_REST_Meta_Fields::get_field_schema).
    if (req.method === 'OPTIONS' && route === '/wp/v2/posts') {
      const meta = Object.fromEntries((options.registeredMeta ?? []).map((k) => [k, { type: 'string' }]));
      json(res, 200, {
        namespace: 'wp/v2',
        methods: ['GET', 'POST'],
        schema: { title: 'post', type: 'object', properties: { meta: { type: 'object', properties: meta } } },
      });
      return true;
    }
    if (req.method === 'POST' && route === '/wp/v2/posts') {
      createPost(record, res);
      return true;
    }
    if (req.method === 'GET' && route === '/wp/v2/statuses') {
      // WordPress lists the non-internal statuses (the trash is internal); edit context needs a login.
      const names = ['publish', 'future', 'draft', 'pending', 'private', ...(options.customStatuses ?? [])];
      if (url.searchParams.get('context') === 'edit' && !auth) json(res, 401, FORBIDDEN_CONTEXT);
      else json(res, 200, Object.fromEntries(names.map((slug) => [slug, { name: slug, slug }])));
      return true;
    }
    if (req.method === 'GET' && route === '/wp/v2/posts' && url.searchParams.has('search') && held) {
      held.push(() => rest(route, req, record, url, res));
      if (held.length >= (options.searchBarrier ?? 0)) {
        const waiting = held;
        held = undefined;
        for (const answer of waiting) answer();
      }
      return true;
    }
    if (req.method === 'GET' && route === '/wp/v2/posts') {
      // `status` is a list (`publish,draft,trash`) or `any` (every status but the trash); `slug` a list too;
      // `search` matches the title, excerpt or content, as WordPress's LIKE does. Paged, 10 a page by default.
      const statusParam = url.searchParams.get('status');
      const wantsPrivate =
        (statusParam !== null && statusParam !== 'publish') || url.searchParams.get('context') === 'edit';
      // WordPress checks the parameters before the permissions: a status beyond `publish` asked for by a
      // caller it does not recognise is an invalid parameter (400), before context=edit is refused (401).
      if (statusParam !== null && statusParam !== 'publish' && !auth)
        json(res, 400, {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): status',
          data: { status: 400, params: { status: 'Status is forbidden.' } },
        });
      else if (wantsPrivate && !auth) json(res, 401, FORBIDDEN_CONTEXT);
      else {
        const statuses = statusParam === null ? ['publish'] : statusParam.split(',');
        const slugs = url.searchParams.get('slug')?.split(',');
        const search = url.searchParams.get('search');
        const found = posts.filter(
          (p) =>
            (statuses.includes('any') ? p.status !== 'trash' : statuses.includes(p.status)) &&
            (slugs === undefined || slugs.includes(p.slug)) &&
            (search === null ||
              (options.searchTitlesOnly ? [p.title] : [p.title, p['excerpt'], p['content']]).some(
                (t) => typeof t === 'string' && t.includes(search),
              )),
        );
        const ordered = url.searchParams.get('orderby') === 'id' ? found : [...found].reverse();
        const perPage = Number(url.searchParams.get('per_page') ?? 10);
        const page = Number(url.searchParams.get('page') ?? 1);
        const pages = Math.max(1, Math.ceil(ordered.length / perPage));
        json(res, 200, ordered.slice((page - 1) * perPage, page * perPage).map(view), {
          'x-wp-total': String(ordered.length),
          'x-wp-totalpages': String(pages),
        });
        if (search !== null) options.afterSearch?.();
      }
      return true;
    }
    const update = /^\/wp\/v2\/posts\/(\d+)$/.exec(route);
    if ((req.method === 'POST' || req.method === 'PUT') && update) {
      const post = posts.find((p) => p.id === Number(update[1]));
      if (!auth)
        json(res, 401, {
          code: 'rest_cannot_edit',
          message: 'Sorry, you are not allowed to edit this post.',
          data: { status: 401 },
        });
      else if (!post)
        json(res, 404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
      else {
        const input = saved(JSON.parse(record.body || '{}') as Record<string, unknown>);
        // As WordPress: an update's `meta` writes the keys it names, and leaves the others stored.
        const meta = input['meta'];
        if (
          meta &&
          typeof meta === 'object' &&
          !Array.isArray(meta) &&
          post['meta'] &&
          typeof post['meta'] === 'object'
        )
          input['meta'] = {
            ...(post['meta'] as Record<string, unknown>),
            ...(meta as Record<string, unknown>),
          };
        Object.assign(post, input, { modified_gmt: now() });
        if (typeof input['status'] === 'string')
          post.status = scheduledStatus(input['status'], post['date_gmt']);
        updates.push({ id: post.id, fields: Object.keys(input) });
        json(res, 200, view(post));
      }
      return true;
    }
    const byId = /^\/wp\/v2\/posts\/(\d+)$/.exec(route);
    if (req.method === 'DELETE' && byId) {
      // Without force=true to the trash (410 when already there); with it, deleted for good.
      const index = posts.findIndex((p) => p.id === Number(byId[1]));
      const post = posts[index];
      if (!auth)
        json(res, 401, {
          code: 'rest_cannot_delete',
          message: 'Sorry, you are not allowed to delete this post.',
          data: { status: 401 },
        });
      else if (!post)
        json(res, 404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
      else if (url.searchParams.get('force') === 'true') {
        posts.splice(index, 1);
        json(res, 200, { deleted: true, previous: view(post) });
      } else if (post.status === 'trash')
        json(res, 410, {
          code: 'rest_already_trashed',
          message: 'The post has already been deleted.',
          data: { status: 410 },
        });
      else {
        post.status = 'trash';
        json(res, 200, view(post));
      }
      return true;
    }
    if (req.method === 'GET' && byId) {
      const post = posts.find((p) => p.id === Number(byId[1]));
      if (!post)
        json(res, 404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
      else if (!auth && post.status !== 'publish') json(res, 401, FORBIDDEN_CONTEXT);
      else json(res, 200, view(post));
      return true;
    }
    if (req.method === 'GET' && route === '/wp/v2/users/me') {
      if (!auth) json(res, 401, NOT_LOGGED_IN);
      else
        json(res, 200, {
          id: 1,
          name: 'Fake Admin',
          slug: username,
          username,
          roles: [options.role ?? 'administrator'],
          capabilities: {
            ...ROLE_CAPABILITIES[options.role ?? 'administrator'],
            [options.role ?? 'administrator']: true,
          },
        });
      return true;
    }
    const tax = taxonomy(route);
    if (tax && req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      const page = Number(url.searchParams.get('page') ?? 1);
      // `include=3,4`: only those ids; unknown ones are simply absent, as in WordPress.
      const include = url.searchParams.get('include')?.split(',').map(Number);
      const all = include ? terms[tax].filter((t) => include.includes(t.id)) : terms[tax];
      const pages = Math.max(1, Math.ceil(all.length / perPage));
      if (page > pages)
        json(res, 400, {
          code: 'rest_term_invalid_page_number',
          message: 'The page number requested is larger than the number of pages available.',
          data: { status: 400 },
        });
      else
        json(res, 200, all.slice((page - 1) * perPage, page * perPage), {
          'x-wp-total': String(all.length),
          'x-wp-totalpages': String(pages),
        });
      return true;
    }
    if (tax && req.method === 'POST') {
      if (!auth) {
        json(res, 401, {
          code: 'rest_cannot_create',
          message: 'Sorry, you are not allowed to create terms in this taxonomy.',
          data: { status: 401 },
        });
        return true;
      }
      const name = String((JSON.parse(record.body || '{}') as { name?: unknown }).name ?? '').trim();
      const existing = terms[tax].find((t) => t.name.toLowerCase() === name.toLowerCase());
      if (existing)
        json(res, 400, {
          code: 'term_exists',
          message: 'A term with the name provided already exists with this parent.',
          data: { status: 400, term_id: existing.id },
        });
      else {
        const term = { id: nextTermId++, name: name.replace(/&/g, '&amp;'), slug: slugify(name), parent: 0 };
        terms[tax].push(term);
        json(res, 201, term);
      }
      return true;
    }
    // GET media?slug=a,b: the attachments holding exactly those slugs, oldest first (the posts controller's
    // `slug` filter, which WP_REST_Attachments_Controller inherits: wp-includes/rest-api/endpoints/
    // class-wp-rest-posts-controller.php get_collection_params; public, as attachments are).
    if (req.method === 'GET' && route === '/wp/v2/media') {
      const slugs = (url.searchParams.get('slug') ?? '').split(',').filter(Boolean);
      const found = media
        .filter((m) => !slugs.length || slugs.includes(m.slug))
        .sort((a, b) => a.id - b.id)
        .slice(0, Number(url.searchParams.get('per_page') ?? 10));
      json(
        res,
        200,
        found.map((m) => ({ id: m.id, slug: m.slug, source_url: m.url, author: m.author })),
      );
      return true;
    }
    if (req.method === 'POST' && route === '/wp/v2/media') {
      const disposition = req.headers['content-disposition'];
      const filename = /filename="([^"]+)"/.exec(disposition ?? '')?.[1];
      if (!auth)
        json(res, 401, {
          code: 'rest_cannot_create',
          message: 'Sorry, you are not allowed to upload media as this user.',
          data: { status: 401 },
        });
      else if (!filename)
        json(res, 400, {
          code: 'rest_upload_no_content_disposition',
          message: 'No Content-Disposition supplied.',
          data: { status: 400 },
        });
      else {
        const id = nextId++;
        // WordPress takes a raw upload's fields from the query (`?slug=`), makes the slug unique among all
        // posts (`x-2`), and names the file uniquely too (`cover-1.png`): wp-includes/rest-api/endpoints/
        // class-wp-rest-attachments-controller.php insert_attachment, wp_unique_post_slug, wp_unique_filename.
        const asked = slugify(url.searchParams.get('slug') ?? filename.replace(/\.[^.]+$/, '')) || `${id}`;
        let slug = asked;
        for (let n = 2; media.some((m) => m.slug === slug); n++) slug = `${asked}-${n}`;
        const dot = filename.lastIndexOf('.');
        let file = filename;
        for (let n = 1; media.some((m) => m.url.endsWith(`/${file}`)); n++)
          file = dot > 0 ? `${filename.slice(0, dot)}-${n}${filename.slice(dot)}` : `${filename}-${n}`;
        const sourceUrl = `${base}/wp-content/uploads/${file}`;
        media.push({
          id,
          filename,
          bytes: Buffer.byteLength(record.body, 'latin1'),
          slug,
          author: 1,
          url: sourceUrl,
        });
        json(res, 201, {
          id,
          slug,
          source_url: sourceUrl,
          mime_type: record.contentType,
          media_type: 'image',
          author: 1,
        });
      }
      return true;
    }
    return false;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        ...(req.headers.authorization && { authorization: req.headers.authorization }),
        ...(req.headers['content-type'] && { contentType: req.headers['content-type'] }),
        body: req.headers['content-type']?.startsWith('image/')
          ? body.toString('latin1')
          : body.toString('utf8'),
      };
      requests.push(record);
      const url = new URL(record.url, base);
      const restRoute = url.searchParams.get('rest_route');
      const handled =
        restRoute !== null && (url.pathname === '/' || url.pathname === '/index.php')
          ? rest(restRoute, req, record, url, res)
          : url.pathname === '/' && req.method === 'GET'
            ? (home(res), true)
            : url.pathname.startsWith('/wp-json/')
              ? permalinks === 'pretty'
                ? rest(url.pathname.slice('/wp-json'.length), req, record, url, res)
                : req.method === 'POST' && (home(res), true) // the false success of plain permalinks
              : false;
      if (!handled) {
        unexpected.push(record);
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end(`fake WordPress: unexpected request ${record.method} ${record.url}`);
      }
    });
  });
  const listening = await listenLocal(server);
  base = listening.url;
  return {
    url: base,
    username,
    password,
    requests,
    unexpected,
    posts,
    updates,
    terms,
    media,
    close: listening.close,
  };
}

/** A URL on 127.0.0.1 where nothing listens: a WordPress that is down. */
export { unusedLocalUrl } from './http-server.js';
