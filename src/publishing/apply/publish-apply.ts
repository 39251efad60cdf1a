// The apply side of a publish run: one planned post at a time — left alone, reported, created through the
// service's publish endpoint (publish-create.ts), or updated in place on WordPress (publish-update.ts: only
// the fields that changed, an editor's body kept when the source's did not change).
import type { CancelPort } from '../ports.js';
import { getPost, type WpPostDetail } from '../../wordpress/posts.js';
import { sitePost } from '../sync/look-up.js';
import { planActions, type Action, type SitePost } from '../sync/plan.js';
import { siteFailure } from '../publish-failure.js';
import { createOne } from './publish-create.js';
import { guarded } from '../publish-failure.js';
import { failed, outcome, prefix, type PublishOutcome, type PublishedPost } from '../publish-outcome.js';
import { wantedValues, type PlannedPost } from '../sync/publish-plan.js';
import { conflictError, editedNote, leftNote, trashedWarning } from '../sync/plan-messages.js';
import type { PostContext } from './publish-send.js';
import { updateOne } from './publish-update.js';

export { trashedWarning };

export const sitePostView = (post: SitePost): PublishedPost => ({
  id: String(post.id),
  link: post.link ?? null,
  status: post.status,
  type: post.type ?? 'post',
});

export async function applyOne(
  planned: PlannedPost,
  ctx: PostContext,
  deps: CancelPort,
): Promise<PublishOutcome> {
  const { job, action } = planned;
  const by = prefix(job, ctx.several);
  const editedNotes = (
    a: Extract<Action, { kind: 'unchanged' | 'update' | 'move' }>,
  ): Pick<PublishOutcome, 'edited' | 'notes'> =>
    a.edited ? { edited: a.edited, notes: [editedNote(by, a.post, a.edited)] } : { notes: [] };
  switch (action.kind) {
    case 'unchanged':
      return withEdited(outcome(job, 'unchanged', sitePostView(action.post)), editedNotes(action));
    case 'trashed':
      return outcome(job, 'trashed', sitePostView(action.post), {
        warnings: [`${by}${trashedWarning(action.post)}`],
      });
    case 'conflict':
      return failed(job, conflictError(action, planned.marker?.ns));
    case 'update':
    case 'move':
      if (!ctx.options.update)
        return withEdited(
          outcome(job, 'changed', sitePostView(action.post), {
            fields: action.fields,
            notes: [leftNote(by, action)],
          }),
          editedNotes(action),
        );
      return guarded(job, deps, async () => {
        // Saved on the site since the look-up (an editor, during this run): planned again from what is there.
        const now = await replanned(planned, action, ctx);
        if (now.kind === 'update' || now.kind === 'move')
          return withEdited(await updateOne(planned, now, ctx), editedNotes(now));
        return applyOne({ ...planned, action: now }, ctx, deps);
      });
    case 'create':
      return guarded(job, deps, () => createOne(planned, ctx));
  }
}

/**
 * The post read again right before it is updated: saved since the look-up (its `modified_gmt` differs), the
 * action is planned again from the post as it is now, so a save made during the run is drift like any
 * other (kept, reported, or a conflict), never overwritten by an update of another field.
 */
async function replanned(
  planned: PlannedPost,
  action: Extract<Action, { kind: 'update' | 'move' }>,
  ctx: PostContext,
): Promise<Action> {
  // A move takes an orphan under a new key: not planned again (the orphan's marker names its old source).
  if (action.kind === 'move' || action.post.modified === undefined || !planned.marker) return action;
  let fresh: WpPostDetail;
  try {
    fresh = await getPost(await ctx.wordpress(), action.post.id, {
      context: 'edit',
      ...(action.post.type && { type: action.post.type }),
    });
  } catch (error) {
    throw siteFailure(error, `reading post ${action.post.id} again before updating it`, ctx.site);
  }
  if (fresh.modified_gmt === action.post.modified) return action;
  const now = sitePost(fresh, ctx.options.syncState);
  // Its marker gone or another's now: left alone, said by the conflict.
  if (!now.marker || now.marker.key !== action.post.marker?.key)
    return { kind: 'conflict', post: now, lostMarker: true };
  const job = planned.job;
  const wanted = {
    marker: planned.marker,
    ...(job.draft.content.password !== undefined && { password: job.draft.content.password }),
    stored: wantedValues(job),
  };
  const [again] = planActions([wanted], [now], [], { force: Boolean(ctx.options.force) });
  return again!.action;
}

function withEdited(done: PublishOutcome, extra: Pick<PublishOutcome, 'edited' | 'notes'>): PublishOutcome {
  if (extra.edited) done.edited = extra.edited;
  done.notes.push(...extra.notes);
  return done;
}
