// The mark `--prune` leaves on a post before trashing it (apply/orphans.ts): that post may come back with its
// source (plan.ts). Its own module, without imports: a dry run's output reads it without the sums' hashing.
import type { SitePost } from './plan.js';

/** The sum `--prune` adds to a post's marker before trashing it: that post may come back. */
export const PRUNED = 'pruned';
export const PRUNED_SUM = '00000001';
export const wasPruned = (post: Pick<SitePost, 'marker'>): boolean =>
  post.marker?.sums[PRUNED] === PRUNED_SUM;
