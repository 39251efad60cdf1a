// The one publish pipeline, for `wp publish` (one post or a batch of files) and `blog create --publish`:
//
//   journal check → terms by name (all posts, before any is sent) → per post, a few at a time over one
//   service connection pool: featured image upload → the service's publish endpoint → journal record.
//
// Term lookup and media upload talk to WordPress directly with the site's credentials (one client per run,
// so the term listing is fetched once); the post itself goes through the service. The journal lock is held
// from the check to the last record, so an overlapping cron run of the same publish waits and then finds it.
import { randomUUID } from 'node:crypto';
import { AuthError, BlogctlError, InterruptedError, UsageError } from '../errors.js';
import type { Deps } from '../factory.js';
import type { Credentials, PostContent, PublishResult } from '../schemas/wordpress.js';
import type { WordPressClient } from '../wordpress/client.js';
import { uploadMedia } from '../wordpress/media.js';
import { resolveTermIds, type TermRef } from '../wordpress/terms.js';
import { journalSite, withJournalLock, type JournalSession } from './journal.js';
import { hasNames } from './publish-draft.js';
import type { PublishJob } from './publish-job.js';
import {
  alreadyPublished,
  failed,
  prefix,
  recordPublished,
  rejection,
  type PublishedPost,
  type PublishOutcome,
} from './publish-outcome.js';
import { isAmbiguous, recoverAmbiguous } from './publish-recover.js';

export interface PublishPostsOptions {
  credentials: Credentials;
  /** The site profile used, recorded in the journal for people reading it. */
  siteId?: string;
  jobs: PublishJob[];
  concurrency: number;
  /** `--create-terms`. */
  createTerms: boolean;
  /** `--force`: publish even when the journal has it. */
  force: boolean;
  /** A WordPress client already made for this site (its term listing is reused); default: one per call. */
  wordpress?: () => Promise<WordPressClient>;
}

type FlowDeps = Pick<Deps, 'blogApi' | 'wordpress' | 'store' | 'signal'>;

export async function publishPosts(options: PublishPostsOptions, deps: FlowDeps): Promise<PublishOutcome[]> {
  const { jobs, credentials } = options;
  const site = journalSite(credentials.websiteUrl);
  let client: Promise<WordPressClient> | undefined;
  const wordpress =
    options.wordpress ?? ((): Promise<WordPressClient> => (client ??= deps.wordpress(credentials)));

  return withJournalLock(deps.store().dir, async (journal) => {
    const outcomes: PublishOutcome[] = new Array(jobs.length);
    const pending: number[] = [];
    jobs.forEach((job, i) => {
      const earlier = options.force
        ? undefined
        : (journal.find(site, job.sourceKey) ??
          (job.legacySourceKey !== undefined ? journal.find(site, job.legacySourceKey) : undefined));
      if (earlier) outcomes[i] = alreadyPublished(job, earlier, jobs.length > 1);
      else pending.push(i);
    });
    if (!pending.length) return outcomes;

    const terms = await resolveAllTerms(
      pending.map((i) => jobs[i]!),
      wordpress,
      options.createTerms,
      jobs.length > 1,
    );
    const api = await deps.blogApi({ connections: options.concurrency });
    const uploads = new Map<string, Promise<number>>();
    const upload = (path: string): Promise<number> => {
      let id = uploads.get(path);
      // One upload per file and run: a shared --featured-image is not added to the library once per post.
      if (!id) uploads.set(path, (id = wordpress().then((c) => uploadMedia(c, path).then((m) => m.id))));
      return id;
    };
    const context: PostContext = {
      options,
      site,
      ...(options.siteId !== undefined && { siteId: options.siteId }),
      journal,
      several: jobs.length > 1,
      wordpress,
      upload,
      api,
      syncing: [],
    };

    let next = 0;
    let authFailure: AuthError | undefined;
    const worker = async (): Promise<void> => {
      while (next < pending.length) {
        const slot = next++;
        const job = jobs[pending[slot]!]!;
        if (authFailure) {
          outcomes[pending[slot]!] = failed(job, new AuthError(`not attempted: ${authFailure.message}`));
          continue;
        }
        const outcome = await publishOne(job, terms[slot]!, context, deps);
        // Refused credentials (the service's API key, or WordPress's for an upload): every other post would
        // be refused the same way.
        if (outcome.error instanceof AuthError) authFailure = outcome.error;
        outcomes[pending[slot]!] = outcome;
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, pending.length) }, worker));
    // Every record on disk (or its outcome warned) before anything is reported.
    await Promise.all(context.syncing);
    return outcomes;
  });
}

interface PostContext {
  options: PublishPostsOptions;
  site: string;
  siteId?: string;
  journal: JournalSession;
  several: boolean;
  wordpress: () => Promise<WordPressClient>;
  upload: (path: string) => Promise<number>;
  api: Awaited<ReturnType<Deps['blogApi']>>;
  syncing: Promise<void>[];
}

interface ResolvedTerms {
  categories?: number[];
  tags?: number[];
}

/**
 * Every post's categories and tags, before any post is sent: an unknown name (without --create-terms) fails
 * the whole run with exit 2, naming each unknown term, and nothing is published.
 */
async function resolveAllTerms(
  jobs: PublishJob[],
  wordpress: () => Promise<WordPressClient>,
  create: boolean,
  several: boolean,
): Promise<ResolvedTerms[]> {
  const problems: string[] = [];
  const resolved: ResolvedTerms[] = [];
  for (const job of jobs) {
    const one: ResolvedTerms = {};
    try {
      const categories = await resolveRefs(job.draft.categories, 'categories', wordpress, create);
      const tags = await resolveRefs(job.draft.tags, 'tags', wordpress, create);
      if (categories) one.categories = categories;
      if (tags) one.tags = tags;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(several ? `${job.name}: ${error.message}` : error.message);
    }
    resolved.push(one);
  }
  if (problems.length === 1) throw new UsageError(problems[0]!, { hints: ['nothing was published'] });
  if (problems.length) {
    throw new UsageError(`unknown terms in ${problems.length} posts`, {
      hints: [...problems, 'nothing was published'],
    });
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
  // Ids alone need no request (WordPress is only asked when a name is there to look up).
  if (!hasNames(refs)) return [...new Set(refs.map(Number))];
  return resolveTermIds(await wordpress(), taxonomy, refs, { create });
}

async function publishOne(
  job: PublishJob,
  terms: ResolvedTerms,
  ctx: PostContext,
  deps: Pick<Deps, 'signal'>,
): Promise<PublishOutcome> {
  try {
    const content: PostContent = { ...job.draft.content, ...terms };
    if (job.featuredImage) content.featured_media = await ctx.upload(job.featuredImage);
    // One key for this post's attempts, a retry included: a service that honours it never acts twice.
    const idempotencyKey = randomUUID();
    const send = (): Promise<PublishResult> =>
      ctx.api.publishToWordPress(ctx.options.credentials, content, { idempotencyKey });
    const startedAt = new Date();
    let result: PublishResult;
    try {
      result = await send();
    } catch (error) {
      if (!isAmbiguous(error) || deps.signal.aborted) throw error;
      const recovery = await recoverAmbiguous(error, {
        content,
        startedAt,
        client: ctx.wordpress,
        retry: send,
      });
      if (recovery.kind === 'failed') return failed(job, recovery.error);
      if (recovery.kind === 'found') {
        const { post } = recovery;
        const found: PublishedPost = {
          id: String(post.id),
          link: post.link ?? null,
          status: post.status,
          type: post.type ?? 'post',
        };
        const outcome = recordPublished(job, found, ctx);
        outcome.recovered = true;
        outcome.notes.push(
          `${prefix(job, ctx.several)}no answer came back, but the post is on the site (slug "${recovery.slug}", id ${post.id}): recorded as published, not sent again`,
        );
        return outcome;
      }
      result = recovery.result;
    }
    if (!result.published) return failed(job, rejection(result));
    return recordPublished(
      job,
      {
        id: result.id ?? null,
        link: result.link ?? null,
        status: result.status ?? null,
        type: result.type ?? null,
      },
      ctx,
    );
  } catch (error) {
    // Ctrl-C ends the whole run (exit 130), not one post.
    if (deps.signal.aborted || !(error instanceof BlogctlError) || error instanceof InterruptedError)
      throw error;
    return failed(job, error);
  }
}
