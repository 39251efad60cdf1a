// The apply side of a publish run: one planned post at a time — left alone, reported, created through the
// service's publish endpoint (publish-create.ts), or updated in place on WordPress (publish-update.ts: only
// the fields that changed, an editor's body kept when the source's did not change).
import { RejectedError } from '../../errors.js';
import type { CancelPort } from '../ports.js';
import type { Action, SitePost } from '../sync/plan.js';
import { createOne } from './publish-create.js';
import { guarded } from '../publish-failure.js';
import { failed, outcome, prefix, type PublishOutcome, type PublishedPost } from '../publish-outcome.js';
import type { PlannedPost } from '../sync/publish-plan.js';
import type { PostContext } from './publish-send.js';
import { updateOne } from './publish-update.js';

export const postOf = (action: Action): SitePost | undefined => ('post' in action ? action.post : undefined);

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
  deps: CancelPort,
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
const editConflict = (post: SitePost, fields: string[]): RejectedError =>
  new RejectedError(
    `post ${post.id} was edited on the site (${fields.join(', ')}) and the source changed ${fields.length === 1 ? 'that field' : 'those fields'} too: conflict, nothing sent`,
    {
      hints: [
        "bring the site's version into the source (the post in WordPress), or publish with --force to overwrite the edit with the source",
      ],
    },
  );
