// What a post's create and update share: the context of the run, the fields and marker sent, and the
// checks of what WordPress stored (the meta keys kept, the status given).
import type { BlogctlError } from '../../errors.js';
import type { BlogApi } from '../../api/blog-api.js';
import type { PostContent } from '../../schemas/wordpress.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { updatePost, type WpPostDetail } from '../../wordpress/posts.js';
import { siteSums, storedSums, type StoredValues } from '../sync/drift.js';
import { replaceMarker, type Marker } from '../identity.js';
import { siteFailure } from '../publish-failure.js';
import type { PublishJob } from '../sources/publish-job.js';
import { prefix, type PublishOutcome } from '../publish-outcome.js';
import type { PlannedPost, PublishPostsOptions } from '../sync/publish-plan.js';
import type { ResolvedTerms } from './publish-terms.js';
import { droppedMeta, droppedMetaWarning } from './stored-check.js';

export interface PostContext {
  options: PublishPostsOptions;
  site: string;
  several: boolean;
  wordpress: () => Promise<WordPressClient>;
  upload: (path: string) => Promise<number>;
  api: BlogApi | undefined;
  terms: Map<PublishJob, ResolvedTerms>;
  /**
   * The post id of a source's parent: known from the plan, or once this run created it (parents are sent
   * first: publish-flow.ts). Throws when the parent could not be published.
   */
  parentId: (job: PublishJob) => Promise<number>;
  /** The service could not be reached at all (after the retries): the posts not started are not sent. */
  unreachable?: BlogctlError;
}

/** The post's fields as sent: categories and tags resolved, the featured image uploaded; no marker yet. */
export async function contentToSend(
  planned: PlannedPost,
  ctx: PostContext,
  withImage: boolean,
): Promise<PostContent> {
  const { job } = planned;
  const content: PostContent = { ...job.draft.content, ...ctx.terms.get(job) };
  if (withImage && job.featuredImage && !ctx.options.serviceOnly)
    content.featured_media = await ctx.upload(job.featuredImage.path);
  // A page's (or another hierarchical type's) place: sent to WordPress directly, never to the service.
  const place = content as PostContent & { parent?: number; menu_order?: number };
  if (job.parent) place.parent = await ctx.parentId(job);
  if (job.kind?.menuOrder) place.menu_order = job.kind.menuOrder.value;
  return content;
}

/** The values sent that drift is tracked for (drift.ts), from a post's fields as WordPress takes them. */
export function sentValues(fields: Record<string, unknown>): StoredValues {
  const text = (k: string): string | undefined => (typeof fields[k] === 'string' ? fields[k] : undefined);
  const ids = (k: string): number[] | undefined =>
    Array.isArray(fields[k]) ? (fields[k] as number[]) : undefined;
  const values: StoredValues = {};
  for (const k of ['title', 'content', 'excerpt', 'slug', 'status'] as const) {
    const v = text(k);
    if (v !== undefined) values[k] = v;
  }
  for (const k of ['categories', 'tags'] as const) {
    const v = ids(k);
    if (v !== undefined) values[k] = v;
  }
  if (typeof fields['featured_media'] === 'number') values.featured_media = fields['featured_media'];
  return values;
}

/**
 * The marker written with a post: the source's sums, and the sums of the values as sent (what drift is
 * measured from); a field not sent keeps the sum of what was sent before.
 */
export function markerToSend(source: Marker, sent: StoredValues, before?: Marker): Marker {
  return { ...source, sums: { ...source.sums, ...(before && siteSums(before)), ...storedSums(sent) } };
}

/**
 * Meta keys WordPress dropped: a warning naming them, and the marker rewritten without the meta's sum, so
 * the next run does not take them for sent (it sends them again, and says so again).
 */
export async function checkMeta(
  done: PublishOutcome,
  stored: WpPostDetail,
  meta: Record<string, unknown> | undefined,
  written: Marker,
  ctx: PostContext,
  by: string,
): Promise<void> {
  const dropped = droppedMeta(meta, stored);
  if (!dropped.length) return;
  done.warnings.push(`${by}${droppedMetaWarning(dropped)}`);
  const { meta: _sent, ...sums } = written.sums;
  const raw = stored.content?.raw;
  if (raw === undefined) return;
  try {
    await updatePost(
      await ctx.wordpress(),
      stored.id,
      { content: replaceMarker(raw, { ...written, sums }) },
      stored.type,
    );
  } catch (error) {
    throw siteFailure(error, `recording on post ${stored.id} that its meta was not stored`, ctx.site);
  }
}

export function statusWarning(done: PublishOutcome, job: PublishJob, several: boolean): void {
  const status = done.post?.status;
  // A status the schedule foresaw (a past date made `future` into `publish`) was warned about already.
  if (status && status !== job.draft.requestedStatus && status !== job.draft.expectedStatus)
    done.warnings.push(
      `${prefix(job, several)}WordPress gave the post status "${status}", not "${job.draft.requestedStatus}" as asked`,
    );
}
