// Posts on the site: found by blogctl's marker (which posts a publish made, publishing/identity.ts) and by
// slug (whose posts hold the slugs a publish asks for), updated in place, and read back by id (to report
// what WordPress made of a publish). Never by title: titles are neither unique nor stable.
import * as z from 'zod/mini';
import { NotFoundError } from '../errors.js';
import type { WordPressClient } from './client.js';
import { coveredRoutes, routeOfType } from './post-types.js';

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
 * the content (running every content filter) nor sends it.
 */
const LOOKUP_FIELDS =
  'id,status,slug,link,type,password,author,modified_gmt,title.raw,content.raw,excerpt.raw,categories,tags,featured_media,parent,menu_order,template';

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
 * Every post matching `filters` (`context=edit`, only `fields`) of each type the client covers (posts, and
 * the types a run's sources name: post-types.ts), 100 a page in id order; the pages after the first are
 * asked for together, at most 1,000 pages a type.
 */
export async function everyPost(
  client: WordPressClient,
  filters: Record<string, string | number>,
  fields: string,
  label: string,
): Promise<WpPostDetail[]> {
  const lists = await Promise.all(
    coveredRoutes(client).map((route) => everyPostAt(client, route, filters, fields, label)),
  );
  return lists.flat();
}

async function everyPostAt(
  client: WordPressClient,
  route: string,
  filters: Record<string, string | number>,
  fields: string,
  label: string,
): Promise<WpPostDetail[]> {
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
  const pages = Number(first.headers['x-wp-totalpages'] ?? 1);
  const rest = await Promise.all(
    Array.from({ length: Number.isSafeInteger(pages) && pages > 1 ? Math.min(pages, 1000) - 1 : 0 }, (_, i) =>
      page(i + 2),
    ),
  );
  return [first, ...rest].flatMap((res) => res.body);
}

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
        client.route(route, {
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
        }),
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
