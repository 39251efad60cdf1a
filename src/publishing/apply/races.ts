// Overlapping runs: two runs of one project at the same moment, against a service that does not honour
// Idempotency-Key, may both create a source's post. After creating, a run looks its keys up again; where
// two posts carry one key, the later one (the higher id) is deleted by the run that made it, and that run
// reports the survivor. Both runs apply the same rule, so exactly one post per source remains.
import { BlogctlError, InterruptedError } from '../../errors.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { removePost } from '../../wordpress/posts.js';
import { lookUpSite } from '../sync/look-up.js';
import type { SitePost } from '../sync/plan.js';
import { sitePostView } from './publish-apply.js';
import { siteFailure } from '../publish-failure.js';
import type { PublishOutcome } from '../publish-outcome.js';
import { prefix } from '../publish-outcome.js';
import type { PlannedPost } from '../sync/publish-plan.js';
import type { SyncStateStore } from '../sync-state.js';

export async function settleRaces(
  plan: PlannedPost[],
  outcomes: PublishOutcome[],
  wordpress: () => Promise<WordPressClient>,
  site: string,
  deps: { signal: AbortSignal },
  store?: SyncStateStore,
  /** The publishing account: only its posts can be another run's twin of a post this run made. */
  account?: number,
): Promise<void> {
  const created = plan.flatMap((p, i) => {
    const id = Number(outcomes[i]?.post?.id);
    return outcomes[i]?.state === 'created' && p.marker && Number.isSafeInteger(id) ? [{ i, p, id }] : [];
  });
  if (!created.length) return;
  let marked: SitePost[];
  try {
    // The run's namespace, as its markers carry it: only its posts can be this run's duplicates.
    const ns = created[0]!.p.marker!.ns;
    ({ marked } = await lookUpSite(wordpress, { zoned: [], slugs: [], ns, site, ...(store && { store }) }));
  } catch (error) {
    if (deps.signal.aborted || !(error instanceof BlogctlError) || error instanceof InterruptedError)
      throw error;
    for (const { i, p } of created)
      outcomes[i]!.warnings.push(
        `${prefix(p.job, plan.length > 1)}checking for a post made at the same moment by another run failed (${error.message})`,
      );
    return;
  }
  const several = plan.length > 1;
  for (const { i, p, id } of created) {
    const earlier = marked
      .filter(
        (post) =>
          post.marker?.ns === p.marker!.ns &&
          post.marker.key === p.marker!.key &&
          post.status !== 'trash' &&
          (account === undefined || post.author === undefined || post.author === account) &&
          post.id < id,
      )
      .sort((a, b) => a.id - b.id)[0];
    if (!earlier) continue;
    const by = prefix(p.job, several);
    try {
      await removePost(await wordpress(), id, {
        forever: true,
        ...(p.job.postType && { type: p.job.postType.slug }),
      });
    } catch (error) {
      const failure = siteFailure(error, `deleting post ${id}`, site);
      outcomes[i]!.warnings.push(
        `${by}post ${earlier.id} was published for this source by another run at the same moment, and deleting this run's post ${id} failed (${failure instanceof Error ? failure.message : String(failure)}): delete post ${id} in WordPress`,
      );
      continue;
    }
    outcomes[i] = {
      ...outcomes[i]!,
      state: 'unchanged',
      post: sitePostView(earlier),
      notes: [
        ...outcomes[i]!.notes,
        `${by}another run published this source at the same moment as post ${earlier.id}: kept; post ${id}, made by this run, was deleted`,
      ],
    };
  }
}
