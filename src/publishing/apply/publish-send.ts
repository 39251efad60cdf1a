// What a post's create and update share: the context of the run, the fields and marker sent, and the
// checks of what WordPress stored (the meta keys kept, the status given).
import type { BlogctlError } from '../../errors.js';
import type { BlogApi } from '../../api/blog-api.js';
import type { PostContent } from '../../schemas/wordpress.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { updatePost, type WpPostDetail } from '../../wordpress/posts.js';
import {
  DRIFT_FIELDS,
  seoOfMeta,
  SITE_SUM_PREFIX,
  siteSums,
  storedSums,
  type DriftField,
  type StoredValues,
} from '../sync/drift.js';
import { stripMarker, type Marker } from '../identity.js';
import { storedValues } from '../sync/look-up.js';
import { siteFailure } from '../publish-failure.js';
import type { PublishJob } from '../sources/publish-job.js';
import { prefix, type PublishOutcome } from '../publish-outcome.js';
import type { PlannedPost, PublishPostsOptions } from '../sync/publish-plan.js';
import type { ResolvedTerms } from './publish-terms.js';
import type { ImageUploads } from './inline-uploads.js';
import { contentChange, droppedMeta, droppedMetaWarning } from './stored-check.js';
import { markerStore, stampWritten, type SyncStateStore } from '../sync-state.js';

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
  /** The run's inline images: found on the site or uploaded, their URLs written into what is sent. */
  images?: ImageUploads;
}

/** Where the run keeps its posts' sync state. */
export const storeOf = (ctx: PostContext): SyncStateStore => ctx.options.syncState ?? markerStore;

/** The post's fields as sent: categories and tags resolved, the featured image uploaded; no marker yet. */
export async function contentToSend(
  planned: PlannedPost,
  ctx: PostContext,
  withImage: boolean,
  /** Whether the body is sent: only then are its inline images looked up or uploaded. */
  withBody = true,
): Promise<PostContent> {
  const { job } = planned;
  const content: PostContent = { ...job.draft.content, ...ctx.terms.get(job) };
  if (withBody && job.images?.length && ctx.images && typeof content.content === 'string')
    content.content = (await ctx.images.rewrite(job.images, content.content)).content;
  if (withImage && job.featuredImage && !ctx.options.serviceOnly)
    content.featured_media = await ctx.upload(job.featuredImage.path);
  // A page's (or another hierarchical type's) place: sent to WordPress directly, never to the service.
  const place = content as PostContent & { parent?: number; menu_order?: number };
  if (job.parent) place.parent = await ctx.parentId(job);
  if (job.kind?.menuOrder) place.menu_order = job.kind.menuOrder.value;
  // A custom taxonomy's terms, each by its REST base (`cuisines: [3, 7]`), resolved as the post is sent.
  if (job.kind?.terms) {
    const client = await ctx.wordpress();
    const { resolveTermIds } = await import('../../wordpress/terms.js');
    for (const [base, refs] of Object.entries(job.kind.terms.value))
      (place as Record<string, unknown>)[base] = await resolveTermIds(client, base, refs, {
        create: ctx.options.createTerms,
      });
  }
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
  for (const k of ['parent', 'menu_order'] as const) if (typeof fields[k] === 'number') values[k] = fields[k];
  // The SEO fields sent in the post's own meta (Yoast's keys, seo-write.ts).
  const seo = seoOfMeta(fields['meta']);
  if (seo) values.seo = seo;
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
 * The marker as it must stand once WordPress stored a write: every `wp_` sum blogctl wrote recomputed from the
 * value WordPress stored (it may change a value on save: kses drops an element, a filter adds
 * `rel="noopener"`, a code block's last line break), so the next run, from any machine, compares the site
 * with what it stored, never with what was sent. The marker rides in the content it sums, but the content's
 * sum leaves the marker out: replacing the marker changes no sum, so a second write settles it, and only a
 * write WordPress changed needs one. Says what WordPress changed in the content (a warning when it dropped
 * something, a note otherwise) and which meta keys it dropped (said once: their sum stays recorded, so the
 * next runs send them again only when the source's meta changes).
 */
export async function settleStored(
  done: PublishOutcome,
  stored: WpPostDetail,
  sent: { content?: string; meta?: Record<string, unknown> },
  written: Marker,
  ctx: PostContext,
  by: string,
  /** The fields this write sent (drift.ts names): only their sums are taken from what was stored. */
  sentFields: readonly DriftField[] = DRIFT_FIELDS,
): Promise<void> {
  const dropped = droppedMeta(sent.meta, stored);
  if (dropped.length) done.warnings.push(`${by}${droppedMetaWarning(dropped)}`);
  const raw = stored.content?.raw;
  if (raw === undefined) return;
  if (sent.content !== undefined) {
    const change = contentChange(stripMarker(sent.content), stripMarker(raw));
    if (change)
      (change.lost ? done.warnings : done.notes).push(
        `${by}WordPress changed the content of post ${stored.id} on save (${change.summary}): what it stored is what later runs compare with${change.lost ? '; the account or a plugin filters what it may publish (kses: an Editor without unfiltered_html, DISALLOW_UNFILTERED_HTML)' : ''}`,
      );
  }
  const settled = storedMarker(written, storedValues(stored), sentFields);
  if (sameSums(settled, written)) return;
  let again: WpPostDetail;
  try {
    const client = await ctx.wordpress();
    again = await updatePost(
      client,
      stored.id,
      storeOf(ctx).fieldsFor(raw, stampWritten(settled, client)),
      stored.type,
    );
  } catch (error) {
    throw siteFailure(error, `recording on post ${stored.id} what WordPress stored`, ctx.site);
  }
  const lost = storeOf(ctx).lost(again, settled);
  if (lost) throw lost;
  // A filter that changes the content on every save (not only the first): said, since each run will see it.
  const twice = storedMarker(settled, storedValues(again), sentFields);
  if (!sameSums(twice, settled))
    done.warnings.push(
      `${by}WordPress changes post ${stored.id} on every save (${siteFieldsDiffering(twice, settled).join(', ')}): later runs will call it edited on the site`,
    );
}

/**
 * `written` with the `wp_` sums of the fields sent taken from the stored values (those the post shows); the
 * others keep what an earlier write recorded, so an editor's change to them stays an edit.
 */
function storedMarker(written: Marker, stored: StoredValues, fields: readonly DriftField[]): Marker {
  const now = storedSums(stored);
  const sums = { ...written.sums };
  for (const field of fields) {
    const name = `${SITE_SUM_PREFIX}${field}`;
    if (written.sums[name] !== undefined && now[name] !== undefined) sums[name] = now[name];
  }
  return { ...written, sums };
}

/** The drift fields among a write's fields (`featured_media` is the image). */
export const driftFieldsOf = (sent: StoredValues): DriftField[] =>
  DRIFT_FIELDS.filter((f) =>
    f === 'image'
      ? sent.featured_media !== undefined
      : f.startsWith('seo_')
        ? sent.seo?.[f.slice('seo_'.length) as keyof NonNullable<StoredValues['seo']>] !== undefined
        : sent[f as Exclude<DriftField, 'image' | `seo_${string}`>] !== undefined,
  );

const sameSums = (a: Marker, b: Marker): boolean =>
  Object.keys(a.sums).length === Object.keys(b.sums).length &&
  Object.entries(a.sums).every(([k, v]) => b.sums[k] === v);

const siteFieldsDiffering = (a: Marker, b: Marker): string[] =>
  Object.keys(siteSums(a))
    .filter((k) => a.sums[k] !== b.sums[k])
    .map((k) => k.slice(SITE_SUM_PREFIX.length));

export function statusWarning(done: PublishOutcome, job: PublishJob, several: boolean): void {
  const status = done.post?.status;
  // A status the schedule foresaw (a past date made `future` into `publish`) was warned about already.
  if (status && status !== job.draft.requestedStatus && status !== job.draft.expectedStatus)
    done.warnings.push(
      `${prefix(job, several)}WordPress gave the post status "${status}", not "${job.draft.requestedStatus}" as asked`,
    );
}
