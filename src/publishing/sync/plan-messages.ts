// What a run says of each planned post before it sends anything — warnings, notes, the conflict that keeps
// it from being sent — and of each orphan: the same lines in a plan (--dry-run) and a run, so the plan is
// the run. Light on purpose: a dry run prints them without loading what sends.
import { RejectedError } from '../../errors.js';
import { orphanName } from '../apply/orphan-name.js';
import { prefix } from '../publish-outcome.js';
import type { Action, SitePost } from './plan.js';
import { SAVED } from './saved.js';
import { wasPruned } from './pruned.js';
import type { PlannedPost, PublishPostsOptions } from './publish-plan.js';

const postOf = (action: Action): SitePost | undefined => ('post' in action ? action.post : undefined);

/** A source whose post is in the trash: left there, by `wp publish` and `blog create --publish --key` alike. */
export const trashedWarning = (post: Pick<SitePost, 'id'>): string =>
  `its post ${post.id} is in WordPress's trash: left there (restore it in WordPress to keep it in step, or delete it permanently to publish anew)`;

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
export const leftNote = (by: string, action: Extract<Action, { kind: 'update' | 'move' }>): string =>
  action.kind === 'move'
    ? `${by}its post ${action.post.id} moved here from another source; left as it is (--no-update)`
    : `${by}its source changed (${action.fields.join(', ')}); its post is left as it is (--no-update)`;

export const editedNote = (by: string, post: SitePost, edited: string[]): string =>
  edited.includes(SAVED)
    ? `${by}post ${post.id} was ${SAVED_TEXT}: kept as the editor left it`
    : `${by}post ${post.id} was edited on the site (${edited.join(', ')}): kept as the editor left ${edited.length === 1 ? 'it' : 'them'}`;

const SAVED_TEXT =
  "saved on the site after blogctl's last write (a restored revision, an edit) with no field telling what changed";

/** The error of a conflict: why the post is not sent (exit 6). */
export function conflictError(
  action: Extract<Action, { kind: 'conflict' }>,
  ns: string | undefined,
): RejectedError {
  return action.fields
    ? editConflict(action.post, action.fields)
    : action.lostMarker
      ? lostMarkerConflict(action.post)
      : action.unfound
        ? unfoundConflict(action.post)
        : slugConflict(action.post, ns);
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
    fields.includes(SAVED)
      ? `post ${post.id} was ${SAVED_TEXT}, and the source changed since: conflict, nothing sent`
      : `post ${post.id} was edited on the site (${fields.join(', ')}) and the source changed ${fields.length === 1 ? 'that field' : 'those fields'} too: conflict, nothing sent`,
    {
      hints: [
        "bring the site's version into the source (the post in WordPress), or publish with --force to overwrite the edit with the source",
      ],
    },
  );

/**
 * What a run does with an orphan, the same in a plan (--dry-run) and a run: trashed with --prune, unless a
 * person restored it after --prune trashed it once (then only with --force); else left. The note says which.
 */
export function orphanFate(
  post: SitePost,
  options: Pick<PublishPostsOptions, 'prune' | 'force'>,
): { prune: boolean; note: string } {
  // Trashed by --prune once, and out of the trash now: a person restored it on purpose.
  const restored = wasPruned(post) && post.status !== 'trash';
  if (restored && !(options.prune && options.force))
    return {
      prune: false,
      note: `${orphanName(post)}: restored on site after --prune trashed it (its source is still gone); left as it is${options.prune ? ' (--prune --force trashes it again)' : ''}`,
    };
  if (!options.prune)
    return {
      prune: false,
      note: `${orphanName(post)}: its source is gone from the project; left as it is (--prune moves it to the trash)`,
    };
  return { prune: true, note: `${orphanName(post)}: its source is gone: moved to WordPress's trash` };
}
