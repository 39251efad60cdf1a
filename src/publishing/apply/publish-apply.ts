// The apply side of a publish run: one planned post at a time — left alone, reported, created through the
// service's publish endpoint (publish-create.ts), or updated in place on WordPress (publish-update.ts: only
// the fields that changed, an editor's body kept when the source's did not change).
import { RejectedError } from '../../errors.js';
import type { CancelPort } from '../ports.js';
import { getPost, type WpPostDetail } from '../../wordpress/posts.js';
import { sitePost } from '../sync/look-up.js';
import { planActions, type Action, type SitePost } from '../sync/plan.js';
import { siteFailure } from '../publish-failure.js';
import { createOne } from './publish-create.js';
import { guarded } from '../publish-failure.js';
import { failed, outcome, prefix, type PublishOutcome, type PublishedPost } from '../publish-outcome.js';
import { wantedValues, type PlannedPost } from '../sync/publish-plan.js';
import type { PostContext } from './publish-send.js';
import { updateOne } from './publish-update.js';

const postOf = (action: Action): SitePost | undefined => ('post' in action ? action.post : undefined);

/** A source whose post is in the trash: left there, by `wp publish` and `blog create --publish --key` alike. */
export const trashedWarning = (post: Pick<SitePost, 'id'>): string =>
  `its post ${post.id} is in WordPress's trash: left there (restore it in WordPress to keep it in step, or delete it permanently to publish anew)`;

export const sitePostView = (post: SitePost): PublishedPost => ({
  id: String(post.id),
  link: post.link ?? null,
  status: post.status,
  type: post.type ?? 'post',
});

/**
 * What a run says of a planned post before it sends anything: the same lines in a plan (--dry-run) and a
 * run. `error`: the conflict that keeps it from being sent (exit 6).
 */
export function plannedMessages(
  planned: PlannedPost,
  several: boolean,
  update: boolean,
): { warnings: string[]; notes: string[]; error?: RejectedError } {
  const { job, action } = planned;
  const by = prefix(job, several);
  const warnings = foundWarnings(planned, several);
  const notes: string[] = [];
  if (action.kind === 'trashed') warnings.unshift(`${by}${trashedWarning(action.post)}`);
  if (action.kind === 'conflict')
    return { warnings, notes, error: conflictError(action, planned.marker?.ns) };
  if ((action.kind === 'update' || action.kind === 'move') && !update) notes.push(leftNote(by, action));
  if ((action.kind === 'unchanged' || action.kind === 'update' || action.kind === 'move') && action.edited)
    notes.push(editedNote(by, action.post, action.edited));
  return { warnings, notes };
}

/** The look-up's findings about a source's post: copies of its marker an untrusted account made, twins. */
export function foundWarnings(planned: PlannedPost, several: boolean): string[] {
  const by = prefix(planned.job, several);
  const { action } = planned;
  return [
    ...(planned.untrusted ?? []).map(
      (post) =>
        `${by}post ${post.id} carries this source's marker, but user ${post.author ?? '?'} wrote it, not the publishing account: a copied marker is never taken for the project's post (left as it is; see docs/sync-safety.md)`,
    ),
    ...planned.duplicates.map(
      (duplicate) =>
        `${by}post ${duplicate.id} (${duplicate.status}) carries the same source; only post ${postOf(action)?.id ?? '?'} is kept in step: delete the other in WordPress`,
    ),
  ];
}

/** A post --no-update leaves as it is. */
const leftNote = (by: string, action: Extract<Action, { kind: 'update' | 'move' }>): string =>
  action.kind === 'move'
    ? `${by}its post ${action.post.id} moved here from another source; left as it is (--no-update)`
    : `${by}its source changed (${action.fields.join(', ')}); its post is left as it is (--no-update)`;

const editedNote = (by: string, post: SitePost, edited: string[]): string =>
  `${by}post ${post.id} was edited on the site (${edited.join(', ')}): kept as the editor left ${edited.length === 1 ? 'it' : 'them'}`;

/** The error of a conflict: why the post is not sent (exit 6). */
function conflictError(action: Extract<Action, { kind: 'conflict' }>, ns: string | undefined): RejectedError {
  return action.fields
    ? editConflict(action.post, action.fields)
    : action.lostMarker
      ? lostMarkerConflict(action.post)
      : action.unfound
        ? unfoundConflict(action.post)
        : slugConflict(action.post, ns);
}

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

/** A new source whose slug a post without blogctl's state holds: likely its own post, marker lost (exit 6). */
const lostMarkerConflict = (post: SitePost): RejectedError =>
  new RejectedError(
    `post ${post.id} (${post.status}${post.link ? `, ${post.link}` : ''}) holds the slug "${post.slug}" this source would get, and carries no blogctl marker: it is likely this source's post, its marker removed by an edit in WordPress; a new post would be a second copy ("${post.slug}-2"), so nothing was sent; to re-link this source to post ${post.id}, restore in WordPress its latest revision that ends with blogctl's marker comment (see docs/sync-safety.md); if post ${post.id} is not this source's, give the source a slug of its own`,
    {
      hints: [
        `to re-link this source to post ${post.id}: in WordPress, restore the latest revision of post ${post.id} that still ends with the "<!-- blogctl:v1 …" comment (Revisions), then copy any edit made since into the source; the next run finds the post again`,
        `if post ${post.id} is not this source's: give the source a "slug:" of its own (front matter) or another title`,
      ],
    },
  );

/** The source's own post, which the look-up (WordPress's search) did not return: exit 6, nothing sent. */
const unfoundConflict = (post: SitePost): RejectedError =>
  new RejectedError(
    `post ${post.id} carries this source's marker, but blogctl's look-up (WordPress's search for the marker) did not return it: a search plugin (Relevanssi, SearchWP, ElasticPress…) likely replaces WordPress's search; publishing would make a second copy, so nothing was sent`,
    {
      hints: [
        "install blogctl's companion WordPress plugin (docs/sync-safety.md): it lists a project's posts exactly, without WordPress's search",
      ],
    },
  );

/** An edit on the site and a change in the source to the same fields: nothing is overwritten (exit 6). */
const editConflict = (post: SitePost, fields: string[]): RejectedError =>
  new RejectedError(
    `post ${post.id} was edited on the site (${fields.join(', ')}) and the source changed ${fields.length === 1 ? 'that field' : 'those fields'} too: conflict, nothing sent`,
    {
      hints: [
        "bring the site's version into the source (the post in WordPress), or publish with --force to overwrite the edit with the source",
      ],
    },
  );
