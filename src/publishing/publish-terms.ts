// Categories and tags by name, for every post a run will send, resolved before any is sent.
import { UsageError } from '../errors.js';
import type { WordPressClient } from '../wordpress/client.js';
import { resolveTermIds, type TermRef } from '../wordpress/terms.js';
import { siteFailure } from './publish-failure.js';
import type { PublishJob } from './publish-job.js';
import type { PlannedPost, PublishPostsOptions } from './publish-plan.js';

export interface ResolvedTerms {
  categories?: number[];
  tags?: number[];
}

/**
 * The categories and tags of every post that will be sent, before any is: an unknown name (without
 * --create-terms) fails the whole run with exit 2, naming each unknown term, and nothing is published.
 */
export async function resolveAllTerms(
  planned: PlannedPost[],
  wordpress: () => Promise<WordPressClient>,
  options: PublishPostsOptions,
  site: string,
): Promise<Map<PublishJob, ResolvedTerms>> {
  const problems: string[] = [];
  const resolved = new Map<PublishJob, ResolvedTerms>();
  const several = options.jobs.length > 1;
  for (const { job } of planned) {
    const one: ResolvedTerms = {};
    try {
      const categories = await resolveRefs(
        job.draft.categories,
        'categories',
        wordpress,
        options.createTerms,
      );
      const tags = await resolveRefs(job.draft.tags, 'tags', wordpress, options.createTerms);
      if (categories) one.categories = categories;
      if (tags) one.tags = tags;
    } catch (error) {
      if (!(error instanceof UsageError)) throw siteFailure(error, 'looking up categories and tags', site);
      problems.push(several ? `${job.name}: ${error.message}` : error.message);
    }
    resolved.set(job, one);
  }
  // "nothing was published" is in the line itself: a script's log gets no hint lines.
  if (problems.length === 1) throw new UsageError(`${problems[0]!}; nothing was published`);
  if (problems.length) {
    throw new UsageError(
      `unknown terms in ${problems.length} posts (first: ${problems[0]!}); nothing was published`,
      { details: problems },
    );
  }
  return resolved;
}

async function resolveRefs(
  refs: TermRef[] | undefined,
  taxonomy: 'categories' | 'tags',
  wordpress: () => Promise<WordPressClient>,
  create: boolean,
): Promise<number[] | undefined> {
  if (refs === undefined) return undefined;
  if (!refs.length) return [];
  // Ids too: WordPress drops an unknown id silently, and "2024" may be a tag's name rather than an id.
  return resolveTermIds(await wordpress(), taxonomy, refs, { create });
}
