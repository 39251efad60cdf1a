// Orphans: posts of the project (its namespace) whose source is gone. Reported on every run that publishes
// the whole project, counted by --exit-code; with --prune moved to WordPress's trash, where a person can
// still restore them. Never deleted for good, never another namespace's.
import { AuthError, BlogctlError, UnavailableError } from '../../errors.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { removePost } from '../../wordpress/posts.js';
import type { SitePost } from '../sync/plan.js';
import { siteFailure } from '../publish-failure.js';
import type { PublishOutcome } from '../publish-outcome.js';
import type { PublishPostsOptions } from '../sync/publish-plan.js';
import { PRUNED, PRUNED_SUM, wasPruned } from '../sync/plan.js';
import { updatePost } from '../../wordpress/posts.js';
import { markerStore, stampWritten, type SyncStateStore } from '../sync-state.js';
import { orphanName } from './orphan-name.js';
import { orphanFate } from '../sync/plan-messages.js';

export const orphanView = (post: SitePost): PublishOutcome['post'] => ({
  id: String(post.id),
  link: post.link ?? null,
  status: post.status,
  type: post.type ?? 'post',
});

/** Each orphan reported, or (--prune) trashed; `stop` is a failure that ended the run's sending. */
export async function applyOrphans(
  orphans: SitePost[],
  options: Pick<PublishPostsOptions, 'prune' | 'force' | 'history'>,
  wordpress: () => Promise<WordPressClient>,
  site: string,
  stop: BlogctlError | undefined,
  store?: SyncStateStore,
): Promise<PublishOutcome[]> {
  const outcomes: PublishOutcome[] = [];
  for (const post of orphans) {
    const base = { source: orphanName(post), requestedStatus: post.status, warnings: [], notes: [] };
    const fate = orphanFate(post, options);
    if (!fate.prune) {
      outcomes.push({ ...base, state: 'orphaned', post: orphanView(post), notes: [fate.note] });
      continue;
    }
    if (stop) {
      const reason = `not attempted: ${stop.message}`;
      outcomes.push({
        ...base,
        state: 'failed',
        error: stop instanceof AuthError ? new AuthError(reason) : new UnavailableError(reason),
      });
      continue;
    }
    try {
      const client = await wordpress();
      // Said in its marker first: when its source comes back, the same post is restored (plan.ts).
      if (post.marker && post.raw !== undefined && !wasPruned(post)) {
        // With the run's commit: a run older than this one must not bring the post back (stale-run.ts).
        const head = options.history?.head;
        const marked = {
          ...post.marker,
          sums: { ...post.marker.sums, [PRUNED]: PRUNED_SUM },
          ...(head && { commit: head.sha, committed: head.date }),
        };
        await updatePost(
          client,
          post.id,
          (store ?? markerStore).fieldsFor(post.raw, stampWritten(marked, client)),
          post.type,
        );
      }
      await removePost(client, post.id, { ...(post.type && { type: post.type }) });
      outcomes.push({
        ...base,
        state: 'pruned',
        post: { ...orphanView(post)!, status: 'trash' },
        notes: [fate.note],
      });
    } catch (error) {
      const failure = siteFailure(error, `moving post ${post.id} to the trash`, site);
      if (!(failure instanceof BlogctlError)) throw failure;
      outcomes.push({ ...base, state: 'failed', error: failure });
    }
  }
  return outcomes;
}
