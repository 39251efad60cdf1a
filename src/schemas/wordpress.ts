// WordPress integration shapes from the specification (2.1–2.3, 4.1, 4.2).
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

/** Any JSON: the publish response, whose two documented shapes are told apart after (normalisePublishResponse). */
export const anyJson = z.unknown();

/** ISO 8601 date-time, with an offset or as site-local time (WordPress accepts both). */
export const isoDateTime = () => z.iso.datetime({ offset: true, local: true });
const id = () => z.int().check(z.nonnegative());
const nonEmpty = () => z.string().check(z.minLength(1));

/** Publish request: all three required. */
export const credentials = z.strictObject({
  websiteUrl: httpUrl(),
  username: nonEmpty(),
  password: nonEmpty(),
});
export type Credentials = z.infer<typeof credentials>;

/** Settings update: every member optional. */
export const partialCredentials = z.strictObject({
  websiteUrl: z.optional(httpUrl()),
  username: z.optional(nonEmpty()),
  password: z.optional(nonEmpty()),
});
export type PartialCredentials = z.infer<typeof partialCredentials>;

/** IntegrationWordPress in its typed shape (used when replacing the list): `id` required. */
export const siteIntegration = z.strictObject({
  id: nonEmpty(),
  label: z.optional(z.string()),
  isIntegrated: z.optional(z.boolean()),
  isWebsiteValid: z.optional(z.boolean()),
  autoPublish: z.optional(z.boolean()),
  credentials: z.optional(partialCredentials),
});
export type SiteIntegration = z.infer<typeof siteIntegration>;

/** A single-object settings update: every field optional, `id` included. */
export const siteIntegrationPatch = z.strictObject({
  id: z.optional(nonEmpty()),
  label: z.optional(z.string()),
  isIntegrated: z.optional(z.boolean()),
  isWebsiteValid: z.optional(z.boolean()),
  autoPublish: z.optional(z.boolean()),
  credentials: z.optional(partialCredentials),
});
export type SiteIntegrationPatch = z.infer<typeof siteIntegrationPatch>;

export const updateSettingsRequest = z.strictObject({
  settings: z.union([siteIntegrationPatch, z.array(siteIntegration)]),
});
export type UpdateSettingsRequest = z.infer<typeof updateSettingsRequest>;

/** What the service answers; lenient, since it may add fields. Passwords are never expected back. */
const siteIntegrationOut = z.looseObject({
  id: z.optional(z.string()),
  label: z.optional(z.string()),
  isIntegrated: z.optional(z.boolean()),
  isWebsiteValid: z.optional(z.boolean()),
  autoPublish: z.optional(z.boolean()),
  credentials: z.optional(z.looseObject({})),
});
export const updateSettingsResponse = z.looseObject({
  success: z.boolean(),
  integration: z.optional(z.union([siteIntegrationOut, z.array(siteIntegrationOut)])),
});
export type UpdateSettingsResponse = z.infer<typeof updateSettingsResponse>;

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

export const publishRequest = z.strictObject({ credentials, content: postContent });
export type PublishRequest = z.infer<typeof publishRequest>;

const idLike = z.union([z.string(), z.number()]);

/** The typed response shape (4.2). */
export const publishResponseTyped = z.looseObject({
  isPublished: z.boolean(),
  link: z.optional(z.nullable(z.string())),
  id: z.optional(z.nullable(idLike)),
  status: z.optional(z.nullable(z.string())),
  type: z.optional(z.nullable(z.string())),
});
/** The other documented shape (4.2 rule 4). */
export const publishResponseAlt = z.looseObject({
  success: z.boolean(),
  postUrl: z.optional(z.nullable(z.string())),
  postId: z.optional(z.nullable(idLike)),
});

/** One result, whichever shape the service used. */
export interface PublishResult {
  published: boolean;
  id?: string;
  link?: string;
  status?: string;
  type?: string;
  /** Why it was not published (the `status` text of rule 3, or a message of the other shape). */
  reason?: string;
  shape: 'typed' | 'alt';
}

const str = (v: unknown): string | undefined =>
  v === undefined || v === null || v === '' ? undefined : String(v);

/** Normalises either response shape; returns undefined when the body matches neither. */
export function normalisePublishResponse(body: unknown): PublishResult | undefined {
  const typed = publishResponseTyped.safeParse(body);
  if (typed.success) {
    const b = typed.data;
    const result: PublishResult = { published: b.isPublished, shape: 'typed' };
    if (b.isPublished) {
      assign(result, { id: str(b.id), link: str(b.link), status: str(b.status), type: str(b.type) });
    } else {
      assign(result, { id: str(b.id), link: str(b.link), reason: str(b.status) ?? messageOf(b) });
    }
    return result;
  }
  const alt = publishResponseAlt.safeParse(body);
  if (alt.success) {
    const b = alt.data;
    const result: PublishResult = { published: b.success, shape: 'alt' };
    assign(result, {
      id: str(b.postId),
      link: str(b.postUrl),
      status: str(b['status']),
      type: str(b['type']),
      reason: b.success ? undefined : messageOf(b),
    });
    return result;
  }
  return undefined;
}

function messageOf(body: Record<string, unknown>): string | undefined {
  for (const key of ['message', 'error', 'reason', 'status']) {
    const v = body[key];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

function assign(target: PublishResult, values: Partial<PublishResult>): void {
  for (const [k, v] of Object.entries(values))
    if (v !== undefined) (target as unknown as Record<string, unknown>)[k] = v;
}
