// What became of each post of a publish — published (and recorded in the journal), already published (found
// in the journal), or failed — in one shape for `wp publish`, its batches and `blog create --publish`.
import { API_PREFIX } from '../api/blog-api.js';
import { BlogctlError, RejectedError } from '../errors.js';
import type { PublishResult } from '../schemas/wordpress.js';
import type { JournalEntry, JournalSession } from './journal.js';
import type { PublishJob } from './publish-job.js';

export const PUBLISH_ENDPOINT = `POST ${API_PREFIX}/integrations/wordpress/publish`;

export type PublishState = 'published' | 'already published' | 'failed';

export interface PublishedPost {
  id: string | null;
  link: string | null;
  status: string | null;
  type: string | null;
}

export interface PublishOutcome {
  source: string;
  state: PublishState;
  post?: PublishedPost;
  requestedStatus: string;
  /** The journal entry: the earlier one (already published) or the one just written. */
  entry?: JournalEntry;
  /** Found on the site after an earlier run got no answer, not from the service's answer. */
  recovered?: boolean;
  /** Failed without a readable answer: the post may exist, and its in-doubt record stays for the next run. */
  inDoubt?: boolean;
  error?: BlogctlError;
  /** Things a person should know (stderr): a status other than the one asked for, a journal problem. */
  warnings: string[];
  notes: string[];
}

export interface RecordTarget {
  /** journalSite() of the WordPress URL. */
  site: string;
  siteId?: string;
  journal: JournalSession;
  /** A batch: messages name the post they are about. */
  several: boolean;
  /**
   * Each record's fsync, settled with the outcome updated: the caller waits for all of them before it reports
   * anything, so a post reported as recorded is on disk, without holding up the next post meanwhile.
   */
  syncing: Promise<void>[];
}

/**
 * Every record of `target` on disk (or its outcome warned): the batch is done, so its last records are
 * written now rather than after waiting for company (JournalSession.record).
 */
export async function recordsOnDisk(target: RecordTarget): Promise<void> {
  target.journal.flush();
  await Promise.all(target.syncing);
}

/** `post.md: ` in a batch, nothing for a single post (the person knows which one they meant). */
export function prefix(job: Pick<PublishJob, 'name'>, several: boolean): string {
  return several ? `${job.name}: ` : '';
}

/**
 * Writes the journal entry and reports what WordPress made of the post; the outcome is final (entry or
 * warning) once the promise this adds to `target.syncing` settles.
 */
export function recordPublished(job: PublishJob, post: PublishedPost, target: RecordTarget): PublishOutcome {
  const outcome: PublishOutcome = {
    source: job.name,
    state: 'published',
    post,
    requestedStatus: job.draft.requestedStatus,
    warnings: [],
    notes: [],
  };
  if (post.status && post.status !== job.draft.requestedStatus) {
    outcome.warnings.push(
      `${prefix(job, target.several)}WordPress gave the post status "${post.status}", not "${job.draft.requestedStatus}" as asked`,
    );
  }
  const entry: JournalEntry = {
    site: target.site,
    ...(target.siteId !== undefined && { siteId: target.siteId }),
    sourceKey: job.sourceKey,
    source: job.source,
    postId: post.id !== null && /^\d+$/.test(post.id) ? Number(post.id) : (post.id ?? ''),
    link: post.link ?? '',
    status: post.status ?? '',
    publishedAt: new Date().toISOString(),
  };
  outcome.entry = entry;
  target.syncing.push(
    target.journal
      .record(entry)
      .then(
        // The entry, now on disk, settles the post's doubt (if any): never before, or a crash in between
        // could leave neither.
        () => target.journal.settle(target.site, job.sourceKey),
        (error: unknown) => {
          // The post is live: failing now would invite a second publish. Say loudly that it was not recorded;
          // its doubt stays, so the next run looks for the post on the site before sending.
          delete outcome.entry;
          outcome.warnings.push(
            `${prefix(job, target.several)}published, but the journal could not record it (${(error as Error).message}): the next run looks for the post on the site before sending it again`,
          );
        },
      )
      .catch(() => undefined),
  );
  return outcome;
}

/** Found in the journal: reported with the recorded id and link, and not sent. */
export function alreadyPublished(
  job: Pick<PublishJob, 'name' | 'draft'>,
  entry: JournalEntry,
  several: boolean,
  what = 'nothing sent',
): PublishOutcome {
  return {
    source: job.name,
    state: 'already published',
    post: { id: String(entry.postId), link: entry.link || null, status: entry.status || null, type: null },
    requestedStatus: job.draft.requestedStatus,
    entry,
    warnings: [],
    notes: [
      `${prefix(job, several)}already published to ${entry.site} as post ${entry.postId}${entry.link ? ` (${entry.link})` : ''} on ${entry.publishedAt}; ${what} (--force publishes it again)`,
    ],
  };
}

/**
 * A post named again in the same run (the same publish as an earlier mention): not sent, and reported with
 * the first mention's outcome — its post, or its failure (exit code and message: refused, or in doubt).
 */
export function repeated(
  job: Pick<PublishJob, 'name' | 'draft'>,
  first: PublishOutcome,
  several: boolean,
): PublishOutcome {
  if (first.error) {
    return failed(
      job,
      new BlogctlError(
        first.error.kind,
        first.error.exitCode,
        `not sent again: the same post as ${first.source}: ${first.error.message}`,
      ),
    );
  }
  return {
    source: job.name,
    state: 'already published',
    ...(first.post && { post: first.post }),
    requestedStatus: job.draft.requestedStatus,
    ...(first.entry && { entry: first.entry }),
    warnings: [],
    notes: [
      `${prefix(job, several)}the same post as ${first.source}, named earlier in this run${first.post?.id ? ` (post ${first.post.id})` : ''}; nothing sent again`,
    ],
  };
}

export function failed(job: Pick<PublishJob, 'name' | 'draft'>, error: BlogctlError): PublishOutcome {
  return {
    source: job.name,
    state: 'failed',
    requestedStatus: job.draft.requestedStatus,
    error,
    warnings: [],
    notes: [],
  };
}

/** `published: false` → exit 6 carrying the service's (WordPress's) reason. */
export function rejection(result: PublishResult): RejectedError {
  const reason = result.reason ?? 'the service gave no reason';
  return new RejectedError(`WordPress did not publish the post: ${reason}`, {
    endpoint: PUBLISH_ENDPOINT,
    ...(result.reason !== undefined && { serviceMessage: result.reason }),
  });
}
