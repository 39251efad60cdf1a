// A post created through the service's publish endpoint, then checked on WordPress: the marker stored (else
// exit 6), the meta keys kept (a warning for those dropped), and that the post exists at all.
import { randomUUID } from 'node:crypto';
import { BlogctlError, InterruptedError, NotFoundError, RejectedError } from '../../errors.js';
import { isUnreachable } from '../../http/retry.js';
import type { PostContent } from '../../schemas/wordpress.js';
import type { PublishResult } from '../../schemas/wordpress-publish.js';
import { createPostAt, getPost, type WpPostDetail } from '../../wordpress/posts.js';
import { idempotencyKey, type Marker } from '../identity.js';
import { inDoubt, isAmbiguous } from '../publish-failure.js';
import { outcome, prefix, rejection, type PublishOutcome, type PublishedPost } from '../publish-outcome.js';
import type { PlannedPost } from '../sync/publish-plan.js';
import {
  contentToSend,
  markerToSend,
  sentValues,
  settleStored,
  statusWarning,
  storeOf,
  type PostContext,
} from './publish-send.js';
import { readBackPost } from './read-back.js';
import { planSeoWrite, withTrackedSeo } from './seo-write.js';

export async function createOne(planned: PlannedPost, ctx: PostContext): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const content = await contentToSend(planned, ctx, true);
  const seo = await planSeoWrite(planned, ctx);
  if (seo?.meta) content.meta = { ...content.meta, ...seo.meta };
  const written = marker && markerToSend(marker, withTrackedSeo(sentValues(content), seo));
  if (written) {
    // No time of the write (SyncState.written): a create is the same request from any runner, so that the
    // service answers a create sent again after a lost answer with its first outcome (its Idempotency-Key).
    // The post's first stamp comes with its next write.
    const fields = storeOf(ctx).fieldsFor(content.content, written);
    content.content = fields.content;
    if (fields.meta) content.meta = { ...content.meta, ...fields.meta };
  }
  const site = ctx.options.credentials.websiteUrl;
  // A post from flags alone cannot be found again: its key guards only this request. A source's key is the
  // same on any machine: a create sent again after a lost answer is answered with the first outcome.
  let key = marker ? idempotencyKey(site, marker) : randomUUID();
  const notes: string[] = [];
  for (let attempt = 0; ; attempt++) {
    const result = await sendCreate(planned, ctx, content, key);
    if (!('published' in result)) return result;
    if (!result.published) throw rejection(result);
    const answer: PublishedPost = {
      id: result.id ?? null,
      link: result.link ?? null,
      status: result.status ?? null,
      type: result.type ?? null,
    };
    const check = await readStored(answer, ctx, marker !== undefined, job.postType?.slug);
    if (check.gone && attempt === 0 && marker) {
      // The service answered from an earlier request with this key (it keeps answers for a while), for a
      // post since deleted for good: published anew, under a key of its own that every machine derives alike.
      notes.push(
        `${prefix(job, ctx.several)}the service answered with post ${answer.id}, which no longer exists on the site (deleted for good): published anew`,
      );
      key = idempotencyKey(`${site}\nanew after ${answer.id}`, marker);
      continue;
    }
    if (check.gone)
      throw new RejectedError(
        `the service answered with post ${answer.id}, which does not exist on ${ctx.site}: not published (the service may have published to another site, or the post was deleted at once)`,
      );
    const done = await finishCreate(planned, ctx, content, written, check, notes);
    if (seo && done.post?.id && /^\d+$/.test(done.post.id))
      await seo.finish(done, Number(done.post.id), check.stored);
    return done;
  }
}

/** The create request, or the outcome when its failure says what to do (in doubt). */
async function sendCreate(
  planned: PlannedPost,
  ctx: PostContext,
  content: PostContent,
  idempotency: string,
): Promise<PublishResult | PublishOutcome> {
  try {
    // The service's publish endpoint creates posts: a page or a custom type's post goes to WordPress
    // directly, at its type's route, with the site's Application Password (as updates do).
    if (planned.job.postType) return await createDirect(ctx, planned.job.postType.slug, content);
    return await ctx.api!.publishToWordPress(ctx.options.credentials, content, {
      idempotencyKey: idempotency,
    });
  } catch (error) {
    if (!(error instanceof BlogctlError) || error instanceof InterruptedError) throw error;
    // Never sent again in this run: the service may still be relaying it. The next run finds it by its marker.
    if (isAmbiguous(error)) return inDoubt(planned.job, error, ctx.options.inDoubtHint);
    // Never connected, after the retries: the service is down or the URL wrong, for every post after this.
    if (isUnreachable(error)) ctx.unreachable ??= error;
    throw error;
  }
}

/** A post of another type than `post` created on WordPress, answered as the service would. */
async function createDirect(ctx: PostContext, type: string, content: PostContent): Promise<PublishResult> {
  const post = await createPostAt(await ctx.wordpress(), type, content);
  return {
    published: true,
    shape: 'typed',
    id: String(post.id),
    ...(post.link !== undefined && { link: post.link }),
    status: post.status,
    type: post.type ?? type,
  };
}

interface StoredRead {
  post: PublishedPost;
  /** The post as WordPress stores it (read back by id). */
  stored?: WpPostDetail;
  /** WordPress has no post with the id the service gave. */
  gone?: boolean;
  warning?: string;
}

/**
 * A created post read back from WordPress by the id the service gave: its status and type when the service's
 * answer lacked them, and what was stored. Never throws for a failed read: the post is live, and failing
 * now would invite a second publish.
 */
async function readStored(
  answer: PublishedPost,
  ctx: PostContext,
  tracked: boolean,
  type?: string,
): Promise<StoredRead> {
  // A post from flags alone has no marker to check nor a key an earlier answer could be replayed for: read
  // back only for a status or type the service did not give.
  if (!tracked || ctx.options.serviceOnly || answer.id === null || !/^\d+$/.test(answer.id)) {
    const back = await readBackPost(answer, ctx.wordpress, ctx.options.serviceOnly);
    return { post: back.post, ...(back.warning && { warning: back.warning }) };
  }
  try {
    const stored = await getPost(await ctx.wordpress(), Number(answer.id), {
      context: 'edit',
      ...(type && { type }),
    });
    return {
      post: {
        ...answer,
        status: answer.status ?? stored.status,
        type: answer.type ?? stored.type ?? 'post',
        link: answer.link ?? stored.link ?? null,
      },
      stored,
    };
  } catch (error) {
    if (error instanceof NotFoundError) return { post: answer, gone: true };
    const missing = answer.status === null || answer.type === null;
    return {
      post: answer,
      warning: `reading post ${answer.id} back from WordPress failed (${(error as Error).message}): ${missing ? 'its status is unknown, and ' : ''}whether the marker was stored is unchecked`,
    };
  }
}

/** The outcome of a create, once WordPress's stored post is checked. */
async function finishCreate(
  planned: PlannedPost,
  ctx: PostContext,
  content: PostContent,
  written: Marker | undefined,
  check: StoredRead,
  notes: string[],
): Promise<PublishOutcome> {
  const { job } = planned;
  const by = prefix(job, ctx.several);
  if (check.stored && written) {
    const lost = storeOf(ctx).lost(check.stored, written);
    if (lost) throw lost;
  }
  const done = outcome(job, 'created', check.post, { notes });
  statusWarning(done, job, ctx.several);
  if (check.warning) done.warnings.push(`${by}${check.warning}`);
  if (check.stored && written) await settleStored(done, check.stored, content, written, ctx, by);
  if (!written)
    done.warnings.push(
      `${by}${job.untracked ?? 'a post from flags alone has no source to be found by: publishing it again makes another post (give --slug or --key to keep it in step)'}`,
    );
  return done;
}
