// The one publish pipeline, for `wp publish` (one post or a batch of files) and `blog create --publish`:
//
//   journal check → terms by name (all posts, before any is sent) → per post, a few at a time over one
//   service connection pool: featured image upload → the service's publish endpoint → the post's status
//   read back from WordPress when the service's answer lacks it → journal record.
//
// Term lookup, media upload and reading a post back talk to WordPress directly with the site's credentials (one client per run,
// so the term listing is fetched once); the post itself goes through the service. The journal lock is held
// from the check to the last record, so an overlapping cron run of the same publish waits and then finds it.
//
// At most one post per publish, across runs: a doubt line in the in-doubt log (in-doubt.ts) is on disk before
// each request goes out, and settled once the outcome is known. A request that may have reached the service
// without a readable answer is never sent again in the same run; the next run finds the doubt, looks for the
// post on the site before anything else is done for it, and sends it only if it is not there, with the same
// Idempotency-Key (publish-recover.ts).
import { randomUUID } from 'node:crypto';
import type { InDoubtRecord } from './in-doubt.js';
import { foundOnSite, recheckInDoubt } from './publish-recover.js';
import { AuthError, BlogctlError, InterruptedError, UnavailableError, UsageError } from '../errors.js';
import { isUnreachable } from '../http/retry.js';
import type { Deps } from '../factory.js';
import type { Credentials, PostContent, PublishResult } from '../schemas/wordpress.js';
import type { WordPressClient } from '../wordpress/client.js';
import { uploadMedia } from '../wordpress/media.js';
import { resolveTermIds, type TermRef } from '../wordpress/terms.js';
import { journalSite, withJournalLock, type JournalSession } from './journal.js';
import type { PublishJob } from './publish-job.js';
import {
  alreadyPublished,
  failed,
  prefix,
  recordPublished,
  recordsOnDisk,
  rejection,
  repeated,
  type PublishOutcome,
  type RecordTarget,
} from './publish-outcome.js';
import { isAmbiguous, recoverAmbiguous } from './publish-recover.js';
import { readBackPost } from './read-back.js';

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
  /**
   * What the error line of a post left in doubt says instead of "the post may exist: the next run of this
   * publish looks for it first" — for `blog create --publish`, whose next run would generate another blog.
   */
  inDoubtHint?: string;
}

type FlowDeps = Pick<Deps, 'blogApi' | 'wordpress' | 'store' | 'signal'>;

export async function publishPosts(options: PublishPostsOptions, deps: FlowDeps): Promise<PublishOutcome[]> {
  const { jobs, credentials } = options;
  const site = journalSite(credentials.websiteUrl);
  let client: Promise<WordPressClient> | undefined;
  const wordpress =
    options.wordpress ?? ((): Promise<WordPressClient> => (client ??= deps.wordpress(credentials)));
  const configDir = deps.store().dir;

  // The same publish named more than once in one run (a file given twice, overlapping globs): the first
  // mention is sent, and every later one takes its outcome. Workers sending both at once would each miss
  // the other in the journal. With --force too: it publishes again what earlier runs did, not twice now.
  const firstMention = new Map<string, number>();
  const repeats = new Map<number, number>();
  jobs.forEach((job, i) => {
    const first = firstMention.get(job.sourceKey);
    if (first === undefined) firstMention.set(job.sourceKey, i);
    else repeats.set(i, first);
  });
  const withRepeats = (outcomes: PublishOutcome[]): PublishOutcome[] => {
    for (const [i, first] of repeats) outcomes[i] = repeated(jobs[i]!, outcomes[first]!, jobs.length > 1);
    return outcomes;
  };

  const publishLocked = async (journal: JournalSession): Promise<PublishOutcome[]> => {
    const outcomes: PublishOutcome[] = new Array(jobs.length);
    const pending: number[] = [];
    const doubts = new Map<number, InDoubtRecord>();
    jobs.forEach((job, i) => {
      if (repeats.has(i)) return;
      if (!options.force) {
        const earlier =
          journal.find(site, job.sourceKey) ??
          (job.legacySourceKey !== undefined ? journal.find(site, job.legacySourceKey) : undefined);
        if (earlier) return void (outcomes[i] = alreadyPublished(job, earlier, jobs.length > 1));
        const doubt = journal.findDoubt(site, job.sourceKey);
        if (doubt) doubts.set(i, doubt);
      }
      pending.push(i);
    });
    if (!pending.length) return withRepeats(outcomes);

    const target: RecordTarget = {
      site,
      ...(options.siteId !== undefined && { siteId: options.siteId }),
      journal,
      several: jobs.length > 1,
      syncing: [],
    };
    // Posts an earlier run sent without getting an answer: looked for on the site before anything else
    // (terms, uploads) is done for them, and not sent when they are there.
    const resend = new Map<number, InDoubtRecord>();
    const said = new Map<number, { note?: string; warning?: string }>();
    for (const [i, doubt] of doubts) {
      const job = jobs[i]!;
      const recheck = await recheckInDoubt(doubt, wordpress);
      if (recheck.kind === 'resend') {
        resend.set(i, doubt);
        const by = prefix(job, target.several);
        said.set(i, {
          ...(recheck.note && { note: `${by}${recheck.note}` }),
          ...(recheck.warning && { warning: `${by}${recheck.warning}` }),
        });
        continue;
      }
      outcomes[i] =
        recheck.kind === 'failed' ? failed(job, recheck.error) : foundOnSite(job, recheck.post, target);
      pending.splice(pending.indexOf(i), 1);
    }
    if (!pending.length) {
      await recordsOnDisk(target);
      return withRepeats(outcomes);
    }

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
      ...target,
      configDir,
      options,
      wordpress,
      upload,
      api,
      resend,
    };

    // Write-ahead. A post's doubt line must be on disk before the post is sent, and an fsync takes about as
    // long as a request: waiting for each in turn halved a batch's throughput. So the posts are declared a
    // block at a time (`concurrency` posts, at least MIN_DOUBT_BLOCK), LEAD_BLOCKS blocks ahead of the
    // workers: the worker that takes the first post of a block declares the one LEAD_BLOCKS further on, whose
    // lines share one write and one fsync, and by the time the workers reach it they are on disk, even when an
    // fsync is slow. A run cut short (Ctrl-C, a crash) may leave lines for posts it never sent: the next run
    // looks for each on the site, finds nothing and sends it (same key).
    const declared = new Map<number, Promise<string>>();
    const declare = (slot: number): Promise<string> | undefined => {
      if (slot >= pending.length) return undefined;
      let key = declared.get(slot);
      if (!key) {
        key = declareDoubt(jobs[pending[slot]!]!, pending[slot]!, context);
        // Awaited by the post's own worker; a post never reached (the run ended) must not be unhandled.
        key.catch(() => undefined);
        declared.set(slot, key);
      }
      return key;
    };

    const block = Math.max(options.concurrency, MIN_DOUBT_BLOCK);
    for (let ahead = 0; ahead < (LEAD_BLOCKS + 1) * block; ahead++) void declare(ahead);
    let next = 0;
    let authFailure: AuthError | undefined;
    const worker = async (): Promise<void> => {
      while (next < pending.length) {
        const slot = next++;
        const job = jobs[pending[slot]!]!;
        if (slot % block === 0)
          for (
            let ahead = slot + (LEAD_BLOCKS + 1) * block;
            ahead < slot + (LEAD_BLOCKS + 2) * block;
            ahead++
          )
            void declare(ahead);
        // Every post after these would be refused, or wait through the same retries for the same answer.
        const stop = authFailure ?? context.unreachable;
        if (stop) {
          const reason = `not attempted: ${stop.message}`;
          outcomes[pending[slot]!] = failed(
            job,
            stop instanceof AuthError ? new AuthError(reason) : new UnavailableError(reason),
          );
          // Declared ahead but never sent.
          if (declared.has(slot)) journal.settle(site, job.sourceKey);
          continue;
        }
        const outcome = await publishOne(job, terms[slot]!, context, deps, declare(slot)!);
        // Failed for sure (before or after sending): nothing was made, whatever was declared is settled.
        if (outcome.state === 'failed' && !outcome.inDoubt) journal.settle(site, job.sourceKey);
        const { note, warning } = said.get(pending[slot]!) ?? {};
        if (note) outcome.notes.unshift(note);
        if (warning) outcome.warnings.unshift(warning);
        // Refused credentials (the service's API key, or WordPress's for an upload): every other post would
        // be refused the same way.
        if (outcome.error instanceof AuthError) authFailure = outcome.error;
        outcomes[pending[slot]!] = outcome;
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, pending.length) }, worker));
    // Every record on disk (or its outcome warned) before anything is reported.
    await recordsOnDisk(context);
    return withRepeats(outcomes);
  };
  // Ctrl-C while another run holds the journal ends the wait at once.
  return withJournalLock(deps.store().dir, publishLocked, { signal: deps.signal });
}

/**
 * How many blocks of doubt lines are declared ahead of the posts being sent, and the fewest posts in a block.
 * With blocks of `concurrency` (8) a 500-post batch made some 60 fsyncs of doubt lines, each of which also
 * costs the event loop about 0.1 ms to hand to the thread pool on this kind of 2-core VM; blocks of 32 make
 * 16, and one block ahead (32 to 64 posts, 15–30 ms of sending) still outruns an ext4 commit (5–12 ms). The
 * bench's 500-post publish went 6–14 % faster on the wire. A run cut short may leave lines for up to three
 * blocks of posts it never sent (96; was 48).
 */
const LEAD_BLOCKS = 1;
const MIN_DOUBT_BLOCK = 32;

interface PostContext {
  options: PublishPostsOptions;
  site: string;
  siteId?: string;
  journal: JournalSession;
  several: boolean;
  syncing: Promise<void>[];
  configDir: string;
  wordpress: () => Promise<WordPressClient>;
  upload: (path: string) => Promise<number>;
  api: Awaited<ReturnType<Deps['blogApi']>>;
  /** By job index: the in-doubt record of a post the site showed is not there, to send with its key. */
  resend: Map<number, InDoubtRecord>;
  /** The service could not be reached at all (after the retries): the posts not started are not sent. */
  unreachable?: BlogctlError;
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

/**
 * Writes the post's doubt line and resolves with the Idempotency-Key to send once it is on disk. A re-send
 * after the site showed the post is not there has its line already and reuses the first request's key: should
 * that request still have landed meanwhile, a service that honours the key answers with its outcome.
 */
async function declareDoubt(job: PublishJob, index: number, ctx: PostContext): Promise<string> {
  const earlier = ctx.resend.get(index);
  if (earlier) return earlier.idempotencyKey;
  const idempotencyKey = randomUUID();
  const { content } = job.draft;
  await ctx.journal
    .doubt({
      site: ctx.site,
      ...(ctx.siteId !== undefined && { siteId: ctx.siteId }),
      sourceKey: job.sourceKey,
      source: job.source,
      idempotencyKey,
      title: content.title,
      ...(content.slug?.trim() && { slug: content.slug.trim() }),
      ...((content.date_gmt !== undefined || content.date !== undefined) && { dated: true }),
      // When it was declared, a little before it is sent: the look-up's window only grows.
      sentAt: new Date().toISOString(),
    })
    .catch((error: unknown) => {
      throw new BlogctlError(
        'unexpected',
        1,
        `could not record the publish in ${ctx.configDir} before sending it (${(error as Error).message}): nothing was sent`,
      );
    });
  return idempotencyKey;
}

async function publishOne(
  job: PublishJob,
  terms: ResolvedTerms,
  ctx: PostContext,
  deps: Pick<Deps, 'signal'>,
  declared: Promise<string>,
): Promise<PublishOutcome> {
  try {
    const content: PostContent = { ...job.draft.content, ...terms };
    if (job.featuredImage) content.featured_media = await ctx.upload(job.featuredImage);
    // Its doubt line on disk before the request goes out: whatever happens to this run, the next looks first.
    const idempotencyKey = await declared;
    let result: PublishResult;
    try {
      result = await ctx.api.publishToWordPress(ctx.options.credentials, content, { idempotencyKey });
    } catch (error) {
      if (deps.signal.aborted || !(error instanceof BlogctlError) || error instanceof InterruptedError)
        throw error;
      // Never sent again in this run: the record stays, and the next run looks before it sends.
      if (isAmbiguous(error)) return recoverAmbiguous(job, error, ctx.several, ctx.options.inDoubtHint);
      // Never connected, after the retries: the service is down or the URL wrong, for every post after this.
      if (isUnreachable(error)) ctx.unreachable ??= error;
      // A definite "no" (like isPublished: false below): the caller settles the doubt of every post that
      // failed for sure.
      return failed(job, error);
    }
    if (!result.published) return failed(job, rejection(result));
    const { post, warning } = await readBackPost(
      {
        id: result.id ?? null,
        link: result.link ?? null,
        status: result.status ?? null,
        type: result.type ?? null,
      },
      ctx.wordpress,
    );
    const outcome = recordPublished(job, post, ctx);
    if (warning) outcome.warnings.push(`${prefix(job, ctx.several)}${warning}`);
    return outcome;
  } catch (error) {
    // Ctrl-C ends the whole run (exit 130), not one post.
    if (deps.signal.aborted || !(error instanceof BlogctlError) || error instanceof InterruptedError)
      throw error;
    return failed(job, error);
  }
}
