// A WordPress and the service's publish relay in one small process, for the sync row of the bench
// (sync-bench.mjs). It holds a site of many posts in memory and answers what a no-change `wp publish` asks:
//   GET  /                                   → the discovery Link header
//   GET  /wp-json/                           → the REST index
//   GET  /wp-json/wp/v2/users/me             → an administrator
//   GET  /wp-json/wp/v2/posts/<id>           → one post (a created post read back)
//   GET  /wp-json/wp/v2/categories, tags     → the one category every post is in, no tags (a pull's names)
//   GET  /wp-json/wp/v2/posts                → search (LIKE over title, excerpt, content), status, slug,
//                                              page/per_page, nested `_fields` (`content.raw`), as WordPress
//   POST /api/v1/public/integrations/wordpress/publish → a post made on this site
// With --plugin, also blogctl's companion plugin (wordpress-plugin/blogctl-sync) as its routes answer:
//   `blogctl/v1` in the index, GET /wp-json/blogctl/v1/info, GET /wp-json/blogctl/v1/posts?ns= (the posts
//   whose `_blogctl_state` meta names the namespace, or whose content carries `ns=<it>`), and the meta kept
//   from the publish and shown on wp/v2.
//   POST /wp-json/wp/v2/media?slug=          → an upload (raw body), its slug made unique as WordPress does
//   GET  /wp-json/wp/v2/media?slug=a,b       → the attachments holding those slugs
//   GET  /__bench/stats, POST /__bench/reset → requests, response bytes and uploads since the reset
// Anything else is a loud 404.
//   node test/bench/wp-server.mjs --other-namespace 2000 --unmarked 7800 [--content-bytes 2000] [--plugin]
//     [--content-file F]   (the unmarked posts' content: F's text, instead of --content-bytes of prose)
// Prints one line of JSON ({"url"}) on stdout once listening; exits when its stdin closes or on SIGTERM.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'other-namespace': { type: 'string', default: '0' },
    unmarked: { type: 'string', default: '0' },
    'content-bytes': { type: 'string', default: '2000' },
    plugin: { type: 'boolean', default: false },
    'content-file': { type: 'string' },
  },
});
const plugin = values.plugin;
const STATE = '_blogctl_state';
const contentBytes = Number(values['content-bytes']);
const hex = (text, n) => createHash('sha256').update(text).digest('hex').slice(0, n);
const sentence = 'Fresh beans, a steady grind and patient extraction make the difference in every cup. ';
const body = (i) =>
  `<p>${`${i} ${sentence}`.repeat(Math.ceil(contentBytes / sentence.length))}`.slice(0, contentBytes);

/** @type {{id:number,status:string,slug:string,title:string,content:string,excerpt:string,state?:string,ns?:string}[]} */
const posts = [];
let nextId = 1;
const add = (title, content, status = 'publish', meta = {}) => {
  const id = nextId++;
  const post = { id, status, slug: `post-${id}`, title, content, excerpt: '' };
  // The plugin keeps the state sent with the post, and the namespace it names for its listing.
  if (plugin && typeof meta[STATE] === 'string' && meta[STATE] !== '') {
    post.state = meta[STATE];
    post.ns = JSON.parse(meta[STATE]).ns;
  }
  posts.push(post);
  return id;
};
// Another project's posts (another namespace), then posts people wrote in WordPress.
const otherNs = hex('namespace:another-project', 16);
for (let i = 0; i < Number(values['other-namespace']); i++)
  add(
    `Another project's post ${i}`,
    `${body(i)}\n<!-- blogctl:v1 ns=${otherNs} key=${hex(`k${i}`, 24)} sums=content.${hex(`c${i}`, 8)},title.${hex(`t${i}`, 8)} -->`,
  );
const given = values['content-file'] === undefined ? undefined : readFileSync(values['content-file'], 'utf8');
for (let i = 0; i < Number(values.unmarked); i++) add(`An editor's post ${i}`, given ?? body(i));

let base = '';
const stats = { requests: 0, bytes: 0, uploads: 0 };
/** @type {{id:number,slug:string,url:string}[]} */
const media = [];

/** A post as WordPress's REST API shows it (context=edit), every field, rendered ones included. */
const view = (p) => ({
  id: p.id,
  date: '2026-01-01T00:00:00',
  date_gmt: '2026-01-01T00:00:00',
  modified_gmt: '2026-01-01T00:00:00',
  slug: p.slug,
  status: p.status,
  type: 'post',
  link: `${base}/${p.slug}/`,
  password: '',
  title: { raw: p.title, rendered: p.title },
  content: { raw: p.content, rendered: `${p.content}\n`, protected: false, block_version: 0 },
  excerpt: { raw: p.excerpt, rendered: `<p>${p.content.slice(0, 200)}</p>\n`, protected: false },
  author: 1,
  featured_media: 0,
  comment_status: 'open',
  ping_status: 'open',
  sticky: false,
  template: '',
  format: 'standard',
  meta: plugin ? { [STATE]: p.state ?? '' } : [],
  categories: [1],
  tags: [],
});

/** A post as the plugin's listing shows it (Blogctl_Sync::item): the stored fields and its record. */
const listed = (p, full) => ({
  id: p.id,
  type: 'post',
  status: p.status,
  slug: p.slug,
  link: `${base}/${p.slug}/`,
  date_gmt: '2026-01-01T00:00:00',
  modified_gmt: '2026-01-01T00:00:00',
  author: 1,
  meta: { [STATE]: p.state ?? '' },
  blogctl:
    p.state === undefined
      ? { saves: null, written: null }
      : { saves: 0, written: { post: p.id, modified_gmt: '2026-01-01T00:00:00', saves: 0 } },
  ...(full && {
    password: '',
    title: { raw: p.title },
    content: { raw: p.content },
    excerpt: { raw: p.excerpt },
    featured_media: 0,
    categories: [1],
    tags: [],
  }),
});

/** `_fields` as rest_filter_response_fields applies it: top-level names and nested `a.b` paths. */
function pick(object, fields) {
  if (!fields) return object;
  const out = {};
  for (const field of fields.split(',')) {
    const [top, sub] = field.split('.');
    if (!(top in object)) continue;
    if (sub === undefined) out[top] = object[top];
    else if (object[top] && typeof object[top] === 'object' && sub in object[top])
      out[top] = { ...out[top], [sub]: object[top][sub] };
  }
  return out;
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', base);
    const reply = (status, value, headers = {}) => {
      const data = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
      if (!url.pathname.startsWith('/__bench/')) {
        stats.requests++;
        stats.bytes += data.length;
      }
      res.writeHead(status, {
        'content-type': typeof value === 'string' ? 'text/html' : 'application/json; charset=UTF-8',
        'content-length': data.length,
        link: `<${base}/wp-json/>; rel="https://api.w.org/"`,
        ...headers,
      });
      res.end(data);
    };
    const route = url.pathname.startsWith('/wp-json') ? url.pathname.slice('/wp-json'.length) : undefined;
    if (req.method === 'GET' && url.pathname === '/__bench/stats') return reply(200, stats);
    if (req.method === 'POST' && url.pathname === '/__bench/reset') {
      stats.requests = 0;
      stats.bytes = 0;
      stats.uploads = 0;
      return reply(200, { ok: true });
    }
    if (req.method === 'GET' && url.pathname === '/')
      return reply(200, '<!doctype html><title>WordPress</title>');
    if (req.method === 'GET' && (route === '/' || route === ''))
      return reply(200, {
        name: 'Bench WordPress',
        url: base,
        home: base,
        gmt_offset: 0,
        timezone_string: 'UTC',
        namespaces: ['oembed/1.0', 'wp/v2', ...(plugin ? ['blogctl/v1'] : [])],
        authentication: { 'application-passwords': { endpoints: { authorization: `${base}/wp-admin/` } } },
      });
    // The post types and taxonomies, as WordPress lists them (a site of posts: a project run reads them to
    // look up every type's orphans).
    if (req.method === 'GET' && route === '/wp/v2/types')
      return reply(200, {
        post: {
          slug: 'post',
          rest_base: 'posts',
          rest_namespace: 'wp/v2',
          hierarchical: false,
          taxonomies: ['category', 'post_tag'],
        },
        attachment: {
          slug: 'attachment',
          rest_base: 'media',
          rest_namespace: 'wp/v2',
          hierarchical: false,
          taxonomies: [],
        },
      });
    if (req.method === 'GET' && route === '/wp/v2/taxonomies')
      return reply(200, {
        category: { slug: 'category', rest_base: 'categories', rest_namespace: 'wp/v2' },
        post_tag: { slug: 'post_tag', rest_base: 'tags', rest_namespace: 'wp/v2' },
      });
    if (req.method === 'GET' && route === '/wp/v2/users/me')
      return reply(200, {
        id: 1,
        username: 'admin',
        name: 'admin',
        slug: 'admin',
        roles: ['administrator'],
        capabilities: {
          administrator: true,
          edit_posts: true,
          edit_others_posts: true,
          publish_posts: true,
          upload_files: true,
          manage_categories: true,
        },
      });
    if (req.method === 'GET' && route === '/wp/v2/posts') {
      const q = url.searchParams;
      const statuses = (q.get('status') ?? 'publish').split(',');
      const terms = (q.get('search') ?? '').split(/[\s,+]+/).filter(Boolean);
      const slugs = q.get('slug')?.split(',');
      const found = posts.filter(
        (p) =>
          (statuses.includes('any') ? p.status !== 'trash' : statuses.includes(p.status)) &&
          (!slugs || slugs.includes(p.slug)) &&
          terms.every((t) => p.title.includes(t) || p.excerpt.includes(t) || p.content.includes(t)),
      );
      const perPage = Number(q.get('per_page') ?? 10);
      const page = Number(q.get('page') ?? 1);
      const pages = Math.max(1, Math.ceil(found.length / perPage));
      return reply(
        200,
        found.slice((page - 1) * perPage, page * perPage).map((p) => pick(view(p), q.get('_fields'))),
        { 'x-wp-total': String(found.length), 'x-wp-totalpages': String(pages) },
      );
    }
    // The terms a pull names its posts' categories and tags by (every post is in category 1).
    if (req.method === 'GET' && (route === '/wp/v2/categories' || route === '/wp/v2/tags'))
      return reply(
        200,
        route === '/wp/v2/categories'
          ? [{ id: 1, name: 'Uncategorized', slug: 'uncategorized', parent: 0 }]
          : [],
        { 'x-wp-total': route === '/wp/v2/categories' ? '1' : '0', 'x-wp-totalpages': '1' },
      );
    if (plugin && req.method === 'GET' && route === '/blogctl/v1/info')
      return reply(200, {
        plugin: 'blogctl-sync',
        version: '1.0.0',
        state_version: 1,
        meta_key: STATE,
        post_types: ['post', 'page'],
        statuses: ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
        can_sync: true,
        max_per_page: 100,
      });
    if (plugin && req.method === 'GET' && route === '/blogctl/v1/posts') {
      const q = url.searchParams;
      const ns = q.get('ns') ?? '';
      const found = posts.filter((p) => p.ns === ns || p.content.includes(`ns=${ns}`));
      const perPage = Math.min(100, Number(q.get('per_page') ?? 100));
      const page = Number(q.get('page') ?? 1);
      return reply(
        200,
        found.slice((page - 1) * perPage, page * perPage).map((p) => listed(p, q.get('fields') !== 'ids')),
        {
          'x-wp-total': String(found.length),
          'x-wp-totalpages': String(Math.ceil(found.length / perPage)),
        },
      );
    }
    if (req.method === 'GET' && route === '/wp/v2/media') {
      const slugs = (url.searchParams.get('slug') ?? '').split(',');
      return reply(
        200,
        media.filter((m) => slugs.includes(m.slug)).map((m) => ({ ...m, source_url: m.url, author: 1 })),
      );
    }
    if (req.method === 'POST' && route === '/wp/v2/media') {
      const id = nextId++;
      const asked = url.searchParams.get('slug') ?? `media-${id}`;
      let slug = asked;
      for (let n = 2; media.some((m) => m.slug === slug); n++) slug = `${asked}-${n}`;
      const m = { id, slug, url: `${base}/wp-content/uploads/${slug}.png` };
      media.push(m);
      stats.uploads++;
      return reply(201, { id, slug, source_url: m.url, author: 1 });
    }
    const one = req.method === 'GET' && route ? /^\/wp\/v2\/posts\/(\d+)$/.exec(route) : null;
    if (one) {
      // A created post read back by its id (what blogctl does after every create).
      const post = posts.find((p) => p.id === Number(one[1]));
      if (!post) return reply(404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.' });
      return reply(200, pick(view(post), url.searchParams.get('_fields')));
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/public/integrations/wordpress/publish') {
      const { content } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = add(content.title, content.content, content.status, content.meta);
      return reply(200, {
        isPublished: true,
        id: String(id),
        link: `${base}/post-${id}/`,
        status: content.status,
        type: 'post',
      });
    }
    reply(404, `bench WordPress: unexpected request ${req.method} ${req.url}`);
  });
});

server.listen(0, '127.0.0.1', () => {
  base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${JSON.stringify({ url: base, posts: posts.length })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
