// Reading posts back: by id (to report what WordPress made of a publish) and by slug (to look for a post
// before trying a publish again, so a retry after a lost answer does not create a duplicate).
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
