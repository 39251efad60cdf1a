// Categories and tags by name, for every post a run will send, resolved before any is sent.
import { groupedLines } from '../../output/group.js';
import { UsageError } from '../../errors.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { resolveTermIds, type TermRef } from '../../wordpress/terms.js';
import { siteFailure } from '../publish-failure.js';
import type { PublishJob } from '../sources/publish-job.js';
import { fieldPlace } from '../sources/front-matter-lines.js';
import type { PlannedPost, PublishPostsOptions } from '../sync/publish-plan.js';

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
  const { problems, resolved, failing } = await termsOf(
    planned.map((p) => p.job),
    wordpress,
    options.createTerms,
    site,
  );
  const several = options.jobs.length > 1;
  // "nothing was published" is in the line itself: a script's log gets no hint lines.
  // One post: one line, each problem named by its field's line where it has one.
  if (failing.size === 1) {
    const [job] = failing;
    const parts = problems.map(([item, message]) =>
      several || item !== job!.name ? `${item}: ${message}` : message,
    );
    throw new UsageError(`${parts.join('; ')}; nothing was published`);
  }
  if (problems.length) {
    // Each unknown term once, with the posts that name it.
    const details = groupedLines(problems, 'post');
    if (details.length === 1) throw new UsageError(`${details[0]!}; nothing was published`);
    const posts = `${failing.size} post${failing.size === 1 ? '' : 's'}`;
    // Said one a line where the caller can (a CI log keeps them all), else folded into the error's list.
    if (options.sayInput) {
      for (const line of details) options.sayInput(line);
      throw new UsageError(`unknown terms in ${posts} (each named above); nothing was published`, {
        inputs: details,
      });
    }
    throw new UsageError(`unknown terms in ${posts} (first: ${details[0]!}); nothing was published`, {
      details,
    });
  }
  return resolved;
}

/**
 * The term ids of each job, and the unknown ones as problems (`posts/a.md:5`, message): nothing thrown for
 * them, so a caller can report them with others.
 */
export async function termsOf(
  jobs: PublishJob[],
  wordpress: () => Promise<WordPressClient>,
  create: boolean,
  site: string,
): Promise<{
  problems: [string, string][];
  resolved: Map<PublishJob, ResolvedTerms>;
  failing: Set<PublishJob>;
}> {
  const problems: [string, string][] = [];
  const resolved = new Map<PublishJob, ResolvedTerms>();
  const failing = new Set<PublishJob>();
  for (const job of jobs) {
    const one: ResolvedTerms = {};
    for (const taxonomy of ['categories', 'tags'] as const) {
      try {
        const ids = await resolveRefs(job.draft[taxonomy], taxonomy, wordpress, create);
        if (ids) one[taxonomy] = ids;
      } catch (error) {
        if (!(error instanceof UsageError)) throw siteFailure(error, 'looking up categories and tags', site);
        // A file's field is named by its line (`posts/a.md:5`), else the post is.
        const at = fieldPlace(job.draft.origin?.[taxonomy], taxonomy);
        problems.push([at ?? job.name, error.message]);
        failing.add(job);
      }
    }
    resolved.set(job, one);
  }
  return { problems, resolved, failing };
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
