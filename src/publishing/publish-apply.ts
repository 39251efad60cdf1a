// The apply side of a publish run: one planned post at a time — left alone, reported, created through the
// service's publish endpoint, or updated in place on WordPress (only the fields that changed, an editor's
// body kept when the source's did not change). What WordPress stored is checked: the marker (else exit 6),
// the meta keys (a warning for those dropped), and that a created post exists at all.
import { randomUUID } from 'node:crypto';
import { BlogctlError, InterruptedError, NotFoundError, RejectedError } from '../errors.js';
import type { Deps } from '../factory.js';
import { isUnreachable } from '../http/retry.js';
import type { PostContent } from '../schemas/wordpress.js';
import type { PublishResult } from '../schemas/wordpress-publish.js';
import type { WordPressClient } from '../wordpress/client.js';
import { getPost, updatePost, type WpPostDetail } from '../wordpress/posts.js';
import { siteSums, storedSums, type StoredValues } from './drift.js';
import { idempotencyKey, replaceMarker, withMarker, type Marker } from './identity.js';
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
import { droppedMeta, droppedMetaWarning, lostMarker } from './stored-check.js';

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
  const editedNote = (
    a: Extract<Action, { kind: 'unchanged' | 'update' | 'move' }>,
  ): Pick<PublishOutcome, 'edited' | 'notes'> =>
    a.edited
      ? {
          edited: a.edited,
          notes: [
            `${by}post ${a.post.id} was edited on the site (${a.edited.join(', ')}): kept as the editor left ${a.edited.length === 1 ? 'it' : 'them'}`,
          ],
        }
      : { notes: [] };
  switch (action.kind) {
    case 'unchanged':
      return withEdited(outcome(job, 'unchanged', sitePostView(action.post)), editedNote(action));
    case 'trashed':
      return outcome(job, 'trashed', sitePostView(action.post), {
        warnings: [`${by}${trashedWarning(action.post)}`],
      });
    case 'conflict':
      return failed(
        job,
        action.fields
          ? editConflict(action.post, action.fields)
          : slugConflict(action.post, planned.marker?.ns),
      );
    case 'update':
    case 'move':
      if (!ctx.options.update)
        return withEdited(
          outcome(job, 'changed', sitePostView(action.post), {
            fields: action.fields,
            notes: [
              action.kind === 'move'
                ? `${by}its post ${action.post.id} moved here from another source; left as it is (--no-update)`
                : `${by}its source changed (${action.fields.join(', ')}); its post is left as it is (--no-update)`,
            ],
          }),
          editedNote(action),
        );
      return guarded(job, deps, async () =>
        withEdited(await updateOne(planned, action, ctx), editedNote(action)),
      );
    case 'create':
      return guarded(job, deps, () => createOne(planned, ctx));
  }
}

function withEdited(done: PublishOutcome, extra: Pick<PublishOutcome, 'edited' | 'notes'>): PublishOutcome {
  if (extra.edited) done.edited = extra.edited;
  done.notes.push(...extra.notes);
  return done;
}

const slugConflict = (post: SitePost, ns: string | undefined): RejectedError =>
  new RejectedError(
    `the slug "${post.slug}" belongs to post ${post.id} (${post.status}), which ${!post.marker ? 'blogctl did not publish' : post.marker.ns === ns ? 'blogctl published for another source' : 'blogctl published for another project (another namespace)'}: it is never overwritten, and a new post would get another slug; nothing sent`,
    {
      hints: [
        'give this source another slug, or remove the slug from it so WordPress picks one',
        "to make that post this source's, delete it in WordPress (or change its slug) and publish again",
      ],
    },
  );

/** An edit on the site and a change in the source to the same fields: nothing is overwritten (exit 6). */
export const editConflict = (post: SitePost, fields: string[]): RejectedError =>
  new RejectedError(
    `post ${post.id} was edited on the site (${fields.join(', ')}) and the source changed ${fields.length === 1 ? 'that field' : 'those fields'} too: conflict, nothing sent`,
    {
      hints: [
        "bring the site's version into the source (the post in WordPress), or publish with --force to overwrite the edit with the source",
      ],
    },
  );

/** The post's fields as sent: categories and tags resolved, the featured image uploaded; no marker yet. */
async function contentToSend(
  planned: PlannedPost,
  ctx: PostContext,
  withImage: boolean,
): Promise<PostContent> {
  const { job } = planned;
  const content: PostContent = { ...job.draft.content, ...ctx.terms.get(job) };
  if (withImage && job.featuredImage && !ctx.options.serviceOnly)
    content.featured_media = await ctx.upload(job.featuredImage.path);
  return content;
}

/** The values sent that drift is tracked for (drift.ts), from a post's fields as WordPress takes them. */
function sentValues(fields: Record<string, unknown>): StoredValues {
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
function markerToSend(source: Marker, sent: StoredValues, before?: Marker): Marker {
  return { ...source, sums: { ...source.sums, ...(before && siteSums(before)), ...storedSums(sent) } };
}

async function createOne(planned: PlannedPost, ctx: PostContext): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const content = await contentToSend(planned, ctx, true);
  const written = marker && markerToSend(marker, sentValues(content));
  if (written) content.content = withMarker(content.content, written);
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
    const check = await readStored(answer, ctx, marker !== undefined);
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
    return finishCreate(planned, ctx, content, written, answer, check, notes);
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
async function readStored(answer: PublishedPost, ctx: PostContext, tracked: boolean): Promise<StoredRead> {
  // A post from flags alone has no marker to check nor a key an earlier answer could be replayed for: read
  // back only for a status or type the service did not give.
  if (!tracked || ctx.options.serviceOnly || answer.id === null || !/^\d+$/.test(answer.id)) {
    const back = await readBackPost(answer, ctx.wordpress, ctx.options.serviceOnly);
    return { post: back.post, ...(back.warning && { warning: back.warning }) };
  }
  try {
    const stored = await getPost(await ctx.wordpress(), Number(answer.id), { context: 'edit' });
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
  answer: PublishedPost,
  check: StoredRead,
  notes: string[],
): Promise<PublishOutcome> {
  const { job } = planned;
  const by = prefix(job, ctx.several);
  if (check.stored && written) {
    const lost = lostMarker(check.stored, written);
    if (lost) throw lost;
  }
  const done = outcome(job, 'created', check.post, { notes });
  statusWarning(done, job, ctx.several);
  if (check.warning) done.warnings.push(`${by}${check.warning}`);
  if (check.stored && written) await checkMeta(done, check.stored, content.meta, written, ctx, by);
  if (!written)
    done.warnings.push(
      `${by}${job.untracked ?? 'a post from flags alone has no source to be found by: publishing it again makes another post (give --slug or --key to keep it in step)'}`,
    );
  void answer;
  return done;
}

/**
 * Meta keys WordPress dropped: a warning naming them, and the marker rewritten without the meta's sum, so
 * the next run does not take them for sent (it sends them again, and says so again).
 */
async function checkMeta(
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
    await updatePost(await ctx.wordpress(), stored.id, {
      content: replaceMarker(raw, { ...written, sums }),
    });
  } catch (error) {
    throw siteFailure(error, `recording on post ${stored.id} that its meta was not stored`, ctx.site);
  }
}

/**
 * The fields that changed, as WordPress's update takes them, and the content always, since its marker
 * changes: the source's body when the body changed, else the site's own (an editor's edits kept) with only
 * the marker replaced. A move is the same update, under the new source's marker.
 */
async function updateOne(
  planned: PlannedPost,
  action: Extract<Action, { kind: 'update' | 'move' }>,
  ctx: PostContext,
): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const content = await contentToSend(planned, ctx, action.fields.includes('image'));
  const keep = !action.fields.includes('content') && action.post.raw !== undefined && marker;
  const body: Record<string, unknown> = keep ? {} : { content: content.content };
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
  const written = marker && markerToSend(marker, sentValues(body), action.post.marker);
  if (written)
    body['content'] = keep ? replaceMarker(action.post.raw!, written) : withMarker(content.content, written);
  let stored: WpPostDetail;
  try {
    stored = await updatePost(await ctx.wordpress(), action.post.id, body);
  } catch (error) {
    throw siteFailure(error, `updating post ${action.post.id}`, ctx.site);
  }
  if (written) {
    const lost = lostMarker(stored, written);
    if (lost) throw lost;
  }
  const done = outcome(
    job,
    action.kind === 'move' && action.post.formerNamespace === undefined ? 'moved' : 'updated',
    {
      id: String(stored.id),
      link: stored.link ?? action.post.link ?? null,
      status: stored.status,
      type: stored.type ?? 'post',
    },
    { fields: action.fields },
  );
  if (action.kind === 'move')
    done.notes.push(
      action.post.formerNamespace === ''
        ? `${prefix(job, ctx.several)}post ${action.post.id}, published without a file, is this source's: it now carries this project's namespace (same id and link)`
        : action.post.formerNamespace !== undefined
          ? `${prefix(job, ctx.several)}post ${action.post.id} carried project "${action.post.formerNamespace}"'s namespace (published from inside it without a file): it now carries none, so that project's runs no longer count it as an orphan`
          : `${prefix(job, ctx.several)}post ${action.post.id} moved here from a source that is gone: same id and link`,
    );
  if (action.fields.includes('status') || action.fields.includes('date'))
    statusWarning(done, job, ctx.several);
  if (written && action.fields.includes('meta'))
    await checkMeta(done, stored, content.meta, written, ctx, prefix(job, ctx.several));
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
  // A status the schedule foresaw (a past date made `future` into `publish`) was warned about already.
  if (status && status !== job.draft.requestedStatus && status !== job.draft.expectedStatus)
    done.warnings.push(
      `${prefix(job, several)}WordPress gave the post status "${status}", not "${job.draft.requestedStatus}" as asked`,
    );
}
