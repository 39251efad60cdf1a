// The apply side of a publish run: one planned post at a time — left alone, reported, created through the
// service's publish endpoint, or updated in place on WordPress (only the fields that changed, an editor's
// body kept when the source's did not change).
import { randomUUID } from 'node:crypto';
import { BlogctlError, InterruptedError, RejectedError } from '../errors.js';
import type { Deps } from '../factory.js';
import { isUnreachable } from '../http/retry.js';
import type { PostContent } from '../schemas/wordpress.js';
import type { PublishResult } from '../schemas/wordpress-publish.js';
import type { WordPressClient } from '../wordpress/client.js';
import { updatePost, type WpPostDetail } from '../wordpress/posts.js';
import { idempotencyKey, replaceMarker, withMarker } from './identity.js';
import type { Action, SitePost } from './plan.js';
import { guarded, inDoubt, isAmbiguous, siteFailure } from './publish-failure.js';
import type { PublishJob } from './publish-job.js';
import {
  failed,
  outcome,
  prefix,
  rejection,
  type PublishOutcome,
  type PublishedPost,
} from './publish-outcome.js';
import type { PlannedPost, PublishPostsOptions } from './publish-plan.js';
import type { ResolvedTerms } from './publish-terms.js';
import { readBackPost } from './read-back.js';

export const postOf = (action: Action): SitePost | undefined => ('post' in action ? action.post : undefined);

export interface PostContext {
  options: PublishPostsOptions;
  site: string;
  several: boolean;
  wordpress: () => Promise<WordPressClient>;
  upload: (path: string) => Promise<number>;
  api: Awaited<ReturnType<Deps['blogApi']>> | undefined;
  terms: Map<PublishJob, ResolvedTerms>;
  /** The service could not be reached at all (after the retries): the posts not started are not sent. */
  unreachable?: BlogctlError;
}

/** A source whose post is in the trash: left there, by `wp publish` and `blog create --publish --key` alike. */
export const trashedWarning = (post: Pick<SitePost, 'id'>): string =>
  `its post ${post.id} is in WordPress's trash: left there (restore it in WordPress to keep it in step, or delete it permanently to publish anew)`;

export const sitePostView = (post: SitePost): PublishedPost => ({
  id: String(post.id),
  link: post.link ?? null,
  status: post.status,
  type: post.type ?? 'post',
});

export async function applyOne(
  planned: PlannedPost,
  ctx: PostContext,
  deps: Pick<Deps, 'signal'>,
): Promise<PublishOutcome> {
  const { job, action } = planned;
  const by = prefix(job, ctx.several);
  switch (action.kind) {
    case 'unchanged':
      return outcome(job, 'unchanged', sitePostView(action.post));
    case 'trashed':
      return outcome(job, 'trashed', sitePostView(action.post), {
        warnings: [`${by}${trashedWarning(action.post)}`],
      });
    case 'conflict':
      return failed(
        job,
        new RejectedError(
          `the slug "${action.post.slug}" belongs to post ${action.post.id} (${action.post.status}), which ${action.post.marker ? 'blogctl published for another source' : 'blogctl did not publish'}: it is never overwritten, and a new post would get another slug; nothing sent`,
          {
            hints: [
              'give this source another slug, or remove the slug from it so WordPress picks one',
              "to make that post this source's, delete it in WordPress (or change its slug) and publish again",
            ],
          },
        ),
      );
    case 'update':
      if (!ctx.options.update)
        return outcome(job, 'changed', sitePostView(action.post), {
          fields: action.fields,
          notes: [
            `${by}its source changed (${action.fields.join(', ')}); its post is left as it is (--no-update)`,
          ],
        });
      return guarded(job, deps, () => updateOne(planned, action, ctx));
    case 'create':
      return guarded(job, deps, () => createOne(planned, ctx));
  }
}

/** The post's content as sent: categories and tags resolved, the featured image uploaded, the marker added. */
async function contentToSend(
  planned: PlannedPost,
  ctx: PostContext,
  withImage: boolean,
): Promise<PostContent> {
  const { job, marker } = planned;
  const content: PostContent = { ...job.draft.content, ...ctx.terms.get(job) };
  if (marker) content.content = withMarker(content.content, marker);
  if (withImage && job.featuredImage && !ctx.options.serviceOnly)
    content.featured_media = await ctx.upload(job.featuredImage.path);
  return content;
}

async function createOne(planned: PlannedPost, ctx: PostContext): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const content = await contentToSend(planned, ctx, true);
  let result: PublishResult;
  try {
    // A post from flags alone cannot be found again: its key guards only this request.
    result = await ctx.api!.publishToWordPress(ctx.options.credentials, content, {
      idempotencyKey: marker ? idempotencyKey(ctx.options.credentials.websiteUrl, marker) : randomUUID(),
    });
  } catch (error) {
    if (!(error instanceof BlogctlError) || error instanceof InterruptedError) throw error;
    // Never sent again in this run: the service may still be relaying it. The next run finds it by its marker.
    if (isAmbiguous(error)) return inDoubt(job, error, ctx.options.inDoubtHint);
    // Never connected, after the retries: the service is down or the URL wrong, for every post after this.
    if (isUnreachable(error)) ctx.unreachable ??= error;
    throw error;
  }
  if (!result.published) throw rejection(result);
  const { post, warning } = await readBackPost(
    {
      id: result.id ?? null,
      link: result.link ?? null,
      status: result.status ?? null,
      type: result.type ?? null,
    },
    ctx.wordpress,
    ctx.options.serviceOnly,
  );
  const done = outcome(job, 'created', post);
  statusWarning(done, job, ctx.several);
  if (warning) done.warnings.push(`${prefix(job, ctx.several)}${warning}`);
  if (!marker)
    done.warnings.push(
      `${prefix(job, ctx.several)}a post from flags alone has no source to be found by: publishing it again makes another post (give --slug or --key to keep it in step)`,
    );
  return done;
}

/**
 * The fields that changed, as WordPress's update takes them, and the content always, since its marker
 * changes: the source's body when the body changed, else the site's own (an editor's edits kept) with only
 * the marker replaced.
 */
async function updateOne(
  planned: PlannedPost,
  action: Extract<Action, { kind: 'update' }>,
  ctx: PostContext,
): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const content = await contentToSend(planned, ctx, action.fields.includes('image'));
  const keep = !action.fields.includes('content') && action.post.raw !== undefined && marker;
  const body: Record<string, unknown> = {
    content: keep ? replaceMarker(action.post.raw!, marker) : content.content,
  };
  for (const field of action.fields) {
    if (field === 'content') continue;
    if (field === 'image') {
      body['featured_media'] = content.featured_media ?? 0;
      continue;
    }
    const value = (content as Record<string, unknown>)[field];
    if (value !== undefined) body[field] = value;
    else {
      // Removed from the source: cleared on the site where WordPress has an empty value for it.
      const cleared = CLEARED[field];
      if (cleared !== undefined) body[field] = cleared;
    }
  }
  let stored: WpPostDetail;
  try {
    stored = await updatePost(await ctx.wordpress(), action.post.id, body);
  } catch (error) {
    throw siteFailure(error, `updating post ${action.post.id}`, ctx.site);
  }
  const done = outcome(
    job,
    'updated',
    {
      id: String(stored.id),
      link: stored.link ?? action.post.link ?? null,
      status: stored.status,
      type: stored.type ?? 'post',
    },
    { fields: action.fields },
  );
  if (action.fields.includes('status') || action.fields.includes('date'))
    statusWarning(done, job, ctx.several);
  return done;
}

/** What a field removed from the source becomes on the site. */
const CLEARED: Record<string, unknown> = {
  excerpt: '',
  password: '',
  template: '',
  featured_media: 0,
  sticky: false,
  format: 'standard',
  categories: [],
  tags: [],
};

function statusWarning(done: PublishOutcome, job: PublishJob, several: boolean): void {
  const status = done.post?.status;
  if (status && status !== job.draft.requestedStatus)
    done.warnings.push(
      `${prefix(job, several)}WordPress gave the post status "${status}", not "${job.draft.requestedStatus}" as asked`,
    );
}
