// The publish request and its answer (spec 4.2), whichever of the two documented shapes the service used.
import * as z from 'zod/mini';
import { credentials, postContent } from './wordpress.js';

/** Any JSON: the publish response, whose two documented shapes are told apart after (normalisePublishResponse). */
export const anyJson = z.unknown();

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
