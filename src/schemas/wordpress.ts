// What a WordPress post and the credentials of its site are (spec 2.1, 2.3): what `wp publish` and
// `blog create --publish` check before anything is sent. The settings update (2.2, 4.1) is in
// wordpress-settings.ts and the publish request and answer (4.2) in wordpress-publish.ts: a dry run checks a
// post without building those (zod/mini builds a schema when its module loads, which Node 20 pays on every run).
import * as z from 'zod/mini';
import { httpUrl } from './url.js';
import { openClosed, postFormats, postStatuses } from './wordpress-values.js';

export {
  openClosed,
  postFormats,
  postStatuses,
  type PostFormat,
  type PostStatus,
} from './wordpress-values.js';

/** ISO 8601 date-time, with an offset or as site-local time (WordPress accepts both). */
export const isoDateTime = () => z.iso.datetime({ offset: true, local: true });
const id = () => z.int().check(z.nonnegative());
export const nonEmpty = () => z.string().check(z.minLength(1));

/** Publish request: all three required. */
export const credentials = z.strictObject({
  websiteUrl: httpUrl(),
  username: nonEmpty(),
  password: nonEmpty(),
});
export type Credentials = z.infer<typeof credentials>;

/** PublishToWordPressPayloadContent: the 18 WordPress post fields (spec 2.3). */
export const postContent = z.strictObject({
  title: z.string(),
  content: z.string(),
  status: z.enum(postStatuses),
  date: z.optional(isoDateTime()),
  date_gmt: z.optional(isoDateTime()),
  slug: z.optional(z.string()),
  password: z.optional(z.string()),
  author: z.optional(id()),
  excerpt: z.optional(z.string()),
  featured_media: z.optional(id()),
  comment_status: z.optional(z.enum(openClosed)),
  ping_status: z.optional(z.enum(openClosed)),
  format: z.optional(z.enum(postFormats)),
  meta: z.optional(z.record(z.string(), z.unknown())),
  sticky: z.optional(z.boolean()),
  template: z.optional(z.string()),
  categories: z.optional(z.array(id())),
  tags: z.optional(z.array(id())),
});
export type PostContent = z.infer<typeof postContent>;
export const postContentFields = Object.keys(postContent.shape) as (keyof PostContent)[];
