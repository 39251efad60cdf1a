// Reading posts back: by id (to report what WordPress made of a publish), and by slug or by title (to look
// for a post an earlier run may have created before sending it again, so a lost answer never becomes a
// duplicate).
import * as z from 'zod/mini';
import type { WordPressClient } from './client.js';

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
}

/**
 * Posts with this slug in any status but trash (drafts, pending, scheduled and private included), newest
 * first. Needs credentials: `status=any` and `context=edit` are refused (401) to anonymous callers.
 * A draft created without a slug has none yet (WordPress assigns it at publish), so it cannot be found here.
 */
export async function findPostsBySlug(client: WordPressClient, slug: string): Promise<WpPostDetail[]> {
  const res = await client.route('wp/v2/posts', {
    method: 'GET',
    params: { slug, status: 'any', context: 'edit', per_page: 100, orderby: 'date', order: 'desc' },
    schema: z.array(wpPostDetail),
    label: `look for WordPress posts with slug "${slug}"`,
  });
  return res.body;
}

/**
 * Candidates for a post titled `title` written since `since`, in any status but trash, most recently
 * modified first: WordPress's search narrowed to one word of the title (its search ANDs every word, drops
 * stop words and reads a leading `-` as "without", so the whole title could miss), and to posts modified in
 * a window reaching a day before `since` (`modified_after` is compared in the site's time zone, which
 * blogctl cannot see). Callers compare the exact title and times themselves; WordPress before 5.7 ignores
 * `modified_after`, which only widens the list.
 */
export async function findPostsByTitle(
  client: WordPressClient,
  title: string,
  since: Date,
): Promise<WpPostDetail[]> {
  const word = searchWord(title);
  const res = await client.route('wp/v2/posts', {
    method: 'GET',
    params: {
      ...(word !== undefined && { search: word }),
      status: 'any',
      context: 'edit',
      modified_after: new Date(since.getTime() - 24 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      per_page: 100,
      orderby: 'modified',
      order: 'desc',
    },
    schema: z.array(wpPostDetail),
    label: 'look for WordPress posts by title',
  });
  return res.body;
}

/** The longest run of letters and digits in a title (entities and tags left out), or undefined if none. */
export function searchWord(title: string): string | undefined {
  const text = title.replace(/<[^>]*>/g, ' ').replace(/&[#\w]+;/g, ' ');
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.reduce<string | undefined>(
    (best, w) => (best && best.length >= w.length ? best : w),
    undefined,
  );
}

/** One post by id; a missing id is a NotFoundError (exit 5). */
export async function getPost(
  client: WordPressClient,
  id: number,
  options: GetPostOptions = {},
): Promise<WpPostDetail> {
  const res = await client.route(`wp/v2/posts/${id}`, {
    method: 'GET',
    params: { context: options.context ?? 'edit' },
    schema: wpPostDetail,
    label: `read WordPress post ${id}`,
  });
  return res.body;
}
