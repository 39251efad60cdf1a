// Posts on the site: found by blogctl's marker (which posts a publish made, publishing/identity.ts) and by
// slug (whose posts hold the slugs a publish asks for), updated in place, and read back by id (to report
// what WordPress made of a publish). Never by title: titles are neither unique nor stable.
import * as z from 'zod/mini';
import { AuthError, NotFoundError, UnavailableError } from '../errors.js';
import type { ListLimits } from '../http/json-array.js';
import { listLimitsFromEnv } from '../http/limits.js';
import type { WordPressClient } from './client.js';
import { coveredRoutes, isOptionalRoute, routeOfType } from './post-types.js';

const rendered = z.looseObject({
  raw: z.optional(z.string()),
  rendered: z.optional(z.string()),
  protected: z.optional(z.boolean()),
});

/**
 * A post as `context=edit` returns it (the fields blogctl reads; the rest passes through). `raw` members are
 * present only in the edit context.
 */
export const wpPostDetail = z.looseObject({
  id: z.number(),
  status: z.string(),
  type: z.optional(z.string()),
  link: z.optional(z.string()),
  slug: z.optional(z.string()),
  generated_slug: z.optional(z.string()),
  date: z.optional(z.nullable(z.string())),
  date_gmt: z.optional(z.nullable(z.string())),
  modified_gmt: z.optional(z.nullable(z.string())),
  title: z.optional(rendered),
  content: z.optional(rendered),
  excerpt: z.optional(rendered),
  password: z.optional(z.string()),
  author: z.optional(z.number()),
  featured_media: z.optional(z.number()),
  comment_status: z.optional(z.string()),
  ping_status: z.optional(z.string()),
  sticky: z.optional(z.boolean()),
  template: z.optional(z.string()),
  // Pages and other hierarchical types only.
  parent: z.optional(z.nullable(z.number())),
  menu_order: z.optional(z.number()),
  format: z.optional(z.string()),
  // WordPress sends `[]` when no meta key is registered, an object otherwise.
  meta: z.optional(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())])),
  categories: z.optional(z.array(z.number())),
  tags: z.optional(z.array(z.number())),
});
export type WpPostDetail = z.infer<typeof wpPostDetail>;

export interface GetPostOptions {
  /** `edit` (default) includes raw title/content and private fields; needs credentials that may edit it. */
  context?: 'view' | 'edit';
  /** The post's type (WordPress's slug: `page`, `recipe`); default `post`. */
  type?: string;
}

/** Every status a post of blogctl's can be in, the trash included (`status=any` leaves the trash out). */
export const ALL_STATUSES = 'publish,future,draft,pending,private,trash';

/**
 * What the look-ups need of each post (`_fields`): the stored (raw) members only, so WordPress neither renders
 * the content (running every content filter) nor sends it; `meta` for the SEO fields stored there (drift).
 */
const LOOKUP_FIELDS =
  'id,status,slug,link,type,password,author,modified_gmt,title.raw,content.raw,excerpt.raw,categories,tags,featured_media,parent,menu_order,template,meta';

/**
 * Every post whose content contains `search`, in every status including the trash, in as few requests as
 * WordPress allows. Needs credentials: `context=edit` (for the raw content) is refused to anonymous callers.
 */
export function searchPosts(
  client: WordPressClient,
  search: string,
  label: string,
  statuses: string = ALL_STATUSES,
): Promise<WpPostDetail[]> {
  return everyPost(client, { search, status: statuses }, LOOKUP_FIELDS, label);
}

const statusList = z.record(z.string(), z.looseObject({ slug: z.optional(z.string()) }));

/**
 * Every status the site registers that a post may be in (`wp/v2/statuses`, edit context: the ones an editor
 * sees, custom ones included — PublishPress's `in-progress`, say), with the built-in ones and the trash
 * (which WordPress lists as internal), comma-separated for a `status` filter. A site that does not answer
 * the route gives the built-in ones.
 */
export function siteStatuses(client: WordPressClient, label: string): Promise<string> {
  let known = STATUSES.get(client);
  if (!known) {
    known = readStatuses(client, label);
    STATUSES.set(client, known);
    // A failed read is not kept: the next look-up asks again.
    known.catch(() => STATUSES.delete(client));
  }
  return known;
}

/** One read of the statuses per client (a run's look-ups share it). */
const STATUSES = new WeakMap<WordPressClient, Promise<string>>();

async function readStatuses(client: WordPressClient, label: string): Promise<string> {
  const statuses = new Set(ALL_STATUSES.split(','));
  try {
    const res = await client.route('wp/v2/statuses', {
      method: 'GET',
      params: { context: 'edit' },
      schema: statusList,
      label,
    });
    for (const [name, status] of Object.entries(res.body))
      if (/^[a-z0-9_-]{1,20}$/.test(status.slug ?? name)) statuses.add(status.slug ?? name);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  statuses.delete('inherit');
  statuses.delete('auto-draft');
  return [...statuses].join(',');
}

/**
 * A look-up's answer for a route the site refused (401, 403) or does not serve (404) where the route is covered
 * only because the site has the type (post-types.ts isOptionalRoute): the account has no post there.
 */
function noneIfRefused<T>(client: WordPressClient, route: string, none: T): (error: unknown) => T {
  return (error) => {
    if ((error instanceof AuthError || error instanceof NotFoundError) && isOptionalRoute(client, route))
      return none;
    throw error;
  };
}

/** Pages of posts asked for at once after the first. */
const PAGE_CONCURRENCY = 4;

/**
 * Every post matching `filters` (`context=edit`, only `fields`) of each type the client covers (posts, and
 * the types a run's sources name: post-types.ts, each type bounded alike), 100 a page in id order; the pages after the
 * first are asked for a few at a time. The whole is bounded as a list answer is (BLOGCTL_MAX_LIST_ITEMS,
 * BLOGCTL_MAX_LIST_MB): a site announcing more posts than the limit is refused after its first page, and
 * one whose pages pass the size limit stops at that page (exit 7 naming the limit), never dropping posts in
 * silence. No page is asked for after a limit is passed.
 */
export async function everyPost(
  client: WordPressClient,
  filters: Record<string, string | number>,
  fields: string,
  label: string,
  limits: ListLimits = listLimitsFromEnv(process.env),
): Promise<WpPostDetail[]> {
  const lists = await Promise.all(
    coveredRoutes(client).map(async (route) => {
      const pages: WpPostDetail[][] = [];
      await pagesAt(client, route, filters, fields, label, limits, newTally(), (posts) => {
        pages.push(posts);
      }).catch(noneIfRefused(client, route, undefined));
      return pages.flat();
    }),
  );
  return lists.flat();
}

/**
 * everyPost a page at a time, for a reader that need not hold them all (`wp pull`): `onPage` gets each page
 * in id order, one after the other (the next once it has returned), while at most a few pages after it are
 * asked for or wait, so memory holds a few pages whatever the site's size. The types covered are read one
 * after the other, and the limits bound them together (the whole run, not each type). A limit passed, a
 * failed page or an `onPage` that throws stops it: no later page is handed over.
 */
export async function forEachPostPage(
  client: WordPressClient,
  filters: Record<string, string | number>,
  fields: string,
  label: string,
  onPage: (posts: WpPostDetail[]) => unknown,
  limits: ListLimits = listLimitsFromEnv(process.env),
): Promise<void> {
  const tally = newTally();
  for (const route of coveredRoutes(client))
    await pagesAt(client, route, filters, fields, label, limits, tally, onPage).catch(
      noneIfRefused(client, route, undefined),
    );
}

/** What was read so far, against the limits. */
interface Tally {
  bytes: number;
  count: number;
}
const newTally = (): Tally => ({ bytes: 0, count: 0 });

async function pagesAt(
  client: WordPressClient,
  route: string,
  filters: Record<string, string | number>,
  fields: string,
  label: string,
  limits: ListLimits,
  tally: Tally,
  onPage: (posts: WpPostDetail[]) => unknown,
): Promise<void> {
  const page = (n: number) =>
    client.route(route, {
      method: 'GET',
      params: {
        ...filters,
        context: 'edit',
        per_page: 100,
        page: n,
        orderby: 'id',
        order: 'asc',
        _fields: fields,
      },
      schema: postList,
      label,
    });
  const first = await page(1);
  const announced = Number(first.headers['x-wp-totalpages'] ?? 1);
  const pages = Number.isSafeInteger(announced) && announced > 1 ? announced : 1;
  const total = Number(first.headers['x-wp-total']);
  const items = Number.isSafeInteger(total) && total > 0 ? total : pages * 100;
  if (tally.count + items > limits.maxItems || (pages - 1) * 100 >= limits.maxItems)
    throw new UnavailableError(
      `${label}: the site has ${tally.count + items} posts to read, more than ${limits.maxItems} (BLOGCTL_MAX_LIST_ITEMS raises the limit)`,
    );
  const take = (posts: WpPostDetail[]): void => {
    tally.bytes += sizeOf(posts);
    tally.count += posts.length;
    if (tally.bytes > limits.maxBytes)
      throw new UnavailableError(
        `${label}: the posts passed ${Math.round(limits.maxBytes / 1024 / 1024)} MiB (BLOGCTL_MAX_LIST_MB raises the limit)`,
      );
    if (tally.count > limits.maxItems)
      throw new UnavailableError(
        `${label}: the site sent more than ${limits.maxItems} posts (BLOGCTL_MAX_LIST_ITEMS raises the limit)`,
      );
  };
  // Pages asked for ahead of the one handed over, at most PAGE_CONCURRENCY: each settles into a result (a
  // failure is kept, not left unhandled) and is taken in order.
  type Answer = { posts: WpPostDetail[] } | { error: unknown };
  const ahead = new Map<number, Promise<Answer>>();
  let next = 2;
  const askAhead = (upTo: number): void => {
    for (; next <= Math.min(pages, upTo); next++)
      ahead.set(
        next,
        page(next).then(
          (res) => ({ posts: res.body }),
          (error: unknown) => ({ error }),
        ),
      );
  };
  take(first.body);
  askAhead(1 + PAGE_CONCURRENCY);
  await onPage(first.body);
  for (let n = 2; n <= pages; n++) {
    const answer = await ahead.get(n)!;
    ahead.delete(n);
    if ('error' in answer) throw answer.error;
    take(answer.posts);
    askAhead(n + PAGE_CONCURRENCY);
    await onPage(answer.posts);
  }
}

/** About the size of a page's posts as they came (UTF-16 units of their JSON: close to its bytes). */
const sizeOf = (posts: WpPostDetail[]): number => {
  let size = 0;
  for (const post of posts) size += JSON.stringify(post).length;
  return size;
};

const postList = z.array(wpPostDetail);

/**
 * The posts holding any of these slugs, in every status including the trash, 100 slugs a request. A draft
 * created without a slug has none yet (WordPress assigns it at publish), so it is not found here.
 */
export async function findPostsBySlugs(
  client: WordPressClient,
  slugs: string[],
  label: string,
  statuses: string = ALL_STATUSES,
): Promise<WpPostDetail[]> {
  const unique = [...new Set(slugs)];
  const batches: string[][] = [];
  for (let i = 0; i < unique.length; i += 100) batches.push(unique.slice(i, i + 100));
  // Slugs are unique within a type only: a page and a post may both be `about`.
  const answers = await Promise.all(
    coveredRoutes(client).flatMap((route) =>
      batches.map((batch) =>
        client
          .route(route, {
            method: 'GET',
            params: {
              slug: batch.join(','),
              status: statuses,
              context: 'edit',
              per_page: 100,
              _fields: LOOKUP_FIELDS,
            },
            schema: z.array(wpPostDetail),
            label,
          })
          .catch(noneIfRefused(client, route, { body: [] as WpPostDetail[] })),
      ),
    ),
  );
  return answers.flatMap((res) => res.body);
}

/**
 * Updates a post in place (same id, same link) with only the fields given; WordPress answers with the post as
 * stored. Goes to WordPress directly with the site's Application Password: the service has no update endpoint.
 */
export async function updatePost(
  client: WordPressClient,
  id: number,
  fields: Record<string, unknown>,
  type?: string,
): Promise<WpPostDetail> {
  const res = await client.route(`${await routeOfType(client, type)}/${id}`, {
    method: 'POST',
    json: fields,
    schema: wpPostDetail,
    label: `update WordPress post ${id}`,
  });
  return res.body;
}

/** One post by id; a missing id is a NotFoundError (exit 5). */
export async function getPost(
  client: WordPressClient,
  id: number,
  options: GetPostOptions = {},
): Promise<WpPostDetail> {
  const res = await client.route(`${await routeOfType(client, options.type)}/${id}`, {
    method: 'GET',
    params: { context: options.context ?? 'edit' },
    schema: wpPostDetail,
    label: `read WordPress post ${id}`,
  });
  return res.body;
}

/**
 * Removes a post: to WordPress's trash (it can be restored there), or with `forever` deleted for good (only
 * for a duplicate this run made itself). WordPress answers with the post as it was.
 */
export async function removePost(
  client: WordPressClient,
  id: number,
  options: { forever?: boolean; type?: string } = {},
): Promise<void> {
  await client.route(`${await routeOfType(client, options.type)}/${id}`, {
    method: 'DELETE',
    ...(options.forever && { params: { force: 'true' } }),
    // A retry after a lost answer finds the post already in the trash (410), or already gone (404).
    passStatuses: options.forever ? [404] : [410],
    label: `${options.forever ? 'delete' : 'trash'} WordPress post ${id}`,
  });
}

/**
 * Creates a post of a type other than `post` on WordPress directly, with the site's Application Password
 * (the service's publish endpoint creates posts only); WordPress answers with the post as stored.
 */
export async function createPostAt(
  client: WordPressClient,
  type: string,
  fields: Record<string, unknown>,
): Promise<WpPostDetail> {
  const res = await client.route(await routeOfType(client, type), {
    method: 'POST',
    json: fields,
    schema: wpPostDetail,
    label: `create the WordPress ${type}`,
  });
  return res.body;
}
