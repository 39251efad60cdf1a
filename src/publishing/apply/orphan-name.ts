// How an orphan is named in a run's rows, apart from orphans.ts: a dry run's plan names orphans without
// loading what trashes them (the marker's hashing and node:crypto among it).
import type { SitePost } from '../sync/plan.js';

/** Its source is gone, so its post: `post 12 "Title"`, or its slug when it has no title. */
export const orphanName = (post: Pick<SitePost, 'id' | 'slug' | 'stored'>): string => {
  const title = post.stored?.title?.trim();
  return `post ${post.id}${title ? ` "${title}"` : post.slug ? ` (${post.slug})` : ''}`;
};
