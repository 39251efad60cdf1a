// When a publish request may have reached the service but no readable answer came back (a timeout, a reset,
// a cut or unreadable body, a 5xx), the post may or may not exist. Sending again blindly could make two;
// reporting success could hide a post that was never made. So blogctl never sends twice in one run: the
// publish stays "in doubt" (in-doubt.ts) and the run fails with exit 7. The next run of the same publish
// looks for the post on the site first, and sends it again — with the same Idempotency-Key — only when the
// site shows it is not there.
//
// Why not look right away, in the failing run: a lookup just after a hang proves nothing (the service may
// still be relaying the post), so it could not justify a re-send anyway; and a second wait for an unreachable
// site would double the time a cron job is held. By the next run, whatever was in flight has landed.
import {
  AuthError,
  BlogctlError,
  InterruptedError,
  NotFoundError,
  RejectedError,
  UnavailableError,
} from '../errors.js';
import { wasNeverSent } from '../http/retry.js';
import type { WordPressClient } from '../wordpress/client.js';
import { findPostsBySlug, findPostsByTitle, type WpPostDetail } from '../wordpress/posts.js';
import { decodeEntities } from '../wordpress/text.js';
import type { InDoubtRecord } from './in-doubt.js';
import type { PublishJob } from './publish-job.js';
import {
  failed,
  prefix,
  recordPublished,
  type PublishOutcome,
  type RecordTarget,
} from './publish-outcome.js';

/** A post is taken as ours only if it was written since this long before the first request (clock skew). */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The request may have been acted on, outcome unknown. Only two failures say for certain that no post was
 * made: nothing was sent (the connection failed first), or the service refused the request (a 4xx).
 * Anything else — no answer, an unreadable 2xx, a 5xx (a gateway's 502/504 says nothing about what the
 * service behind it did), an interrupt, an error of unknown kind — may have left a post behind.
 */
export function isAmbiguous(error: unknown): boolean {
  if (!(error instanceof BlogctlError) || error instanceof InterruptedError) return true;
  const { status, peerCode } = error.context;
  if (status !== undefined) return !(status >= 400 && status < 500);
  if (error instanceof UnavailableError) return !wasNeverSent(peerCode);
  // Raised by blogctl itself before a request could be made (a usage or configuration problem).
  return false;
}

/**
 * After an ambiguous failure: nothing more in this run (no lookup, no re-send — see the top of this file).
 * The post fails with its error, and the error's one line goes on to say that the post may exist and what
 * checks next — on the line itself, since a script reading stderr gets that line alone. The post's in-doubt
 * record stays.
 */
export function recoverAmbiguous(
  job: Pick<PublishJob, 'name' | 'draft'>,
  error: BlogctlError,
  several: boolean,
  advice?: string,
): PublishOutcome {
  const next =
    advice ??
    (several
      ? 'the post may exist: the next run looks for it on the site first'
      : 'the post may exist: the next run of this publish looks for it on the site first, and sends it again (with the same Idempotency-Key) only if it is not there');
  const outcome = failed(
    job,
    new BlogctlError(error.kind, error.exitCode, `${error.message}; ${next}`, error.context),
  );
  outcome.inDoubt = true;
  return outcome;
}

export type Recheck =
  /** The post an earlier run sent is on the site: record it, send nothing. */
  | { kind: 'found'; post: WpPostDetail }
  /** Send again with the record's Idempotency-Key: `note` when the site showed it is not there, `warning` when it could not be asked. */
  | { kind: 'resend'; note?: string; warning?: string }
  /** The site could not be reached to check: nothing may be sent this run. */
  | { kind: 'failed'; error: BlogctlError };

/**
 * Looks on the site for the post an in-doubt publish may have created (with the site's credentials,
 * `status=any`): by the slug sent, if one was, then by its exact title among the posts written since the
 * request (WordPress gives a repeated title a slug like `weekly-digest-2`, so a derived slug proves nothing).
 *
 * - Found: `found`.
 * - Not there: `resend`.
 * - The site refuses to be asked (credentials without the right to list posts, no REST API): `resend`, with
 *   a warning — the same Idempotency-Key is then the only guard, and a service that honours it answers
 *   with the first request's outcome instead of creating a second post.
 * - The site does not answer: `failed` (exit 7); the record stays and the next run asks again.
 */
export async function recheckInDoubt(
  record: InDoubtRecord,
  client: () => Promise<WordPressClient>,
): Promise<Recheck> {
  try {
    const post = await findOwnPost(await client(), record);
    if (post) return { kind: 'found', post };
    return {
      kind: 'resend',
      note: 'an earlier run may have sent this post and got no answer, and it is not on the site: sending it again with the same Idempotency-Key',
    };
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof BlogctlError)) throw error;
    if (error instanceof AuthError || error instanceof NotFoundError || error instanceof RejectedError) {
      return {
        kind: 'resend',
        warning: `an earlier run may have sent this post and got no answer, and the site would not let blogctl look for it (${error.message}): sending it again with the same Idempotency-Key`,
      };
    }
    return {
      kind: 'failed',
      error: new UnavailableError(
        // What happens next is in the line itself: a cron log gets no hint lines.
        `an earlier run may have sent this post and got no answer, and looking for it on the site failed (${error.message}); nothing was sent: the next run looks again (--force sends it anew without looking)`,
        {
          ...(error.context.status !== undefined && { status: error.context.status }),
          ...(error.context.endpoint !== undefined && { endpoint: error.context.endpoint }),
        },
      ),
    };
  }
}

/** An earlier run's post, found on the site: recorded in the journal and reported as already published. */
export function foundOnSite(job: PublishJob, post: WpPostDetail, target: RecordTarget): PublishOutcome {
  const outcome = recordPublished(
    job,
    { id: String(post.id), link: post.link ?? null, status: post.status, type: post.type ?? 'post' },
    target,
  );
  outcome.state = 'already published';
  outcome.recovered = true;
  outcome.notes.push(
    `${prefix(job, target.several)}an earlier run may have sent this post and got no answer; it is on the site as post ${post.id}${post.link ? ` (${post.link})` : ''}: recorded as published, nothing sent (--force publishes it again)`,
  );
  return outcome;
}

async function findOwnPost(
  client: WordPressClient,
  record: InDoubtRecord,
): Promise<WpPostDetail | undefined> {
  const sentAt = Date.parse(record.sentAt);
  const since = new Date((Number.isNaN(sentAt) ? Date.now() : sentAt) - CLOCK_SKEW_MS);
  if (record.slug) {
    const bySlug = (await findPostsBySlug(client, record.slug)).find((p) => isOurs(p, record, since));
    if (bySlug) return bySlug;
  }
  return (await findPostsByTitle(client, record.title, since)).find((p) => isOurs(p, record, since));
}

/** Our title, written since just before the request, and (unless a date was sent) created since then too. */
export function isOurs(
  post: WpPostDetail,
  record: Pick<InDoubtRecord, 'title' | 'dated'>,
  since: Date,
): boolean {
  const ours = normaliseTitle(record.title);
  const theirs = [post.title?.raw, post.title?.rendered].filter((t): t is string => typeof t === 'string');
  if (!theirs.some((t) => normaliseTitle(t) === ours)) return false;
  const written = parseWpDate(post.modified_gmt ?? post.date_gmt);
  if (written !== undefined && written < since.getTime()) return false;
  // An older post with the same title that someone edited since is not ours: its creation date tells.
  const created = record.dated ? undefined : parseWpDate(post.date_gmt);
  return created === undefined || created >= since.getTime();
}

function normaliseTitle(title: string): string {
  return decodeEntities(title).replace(/\s+/g, ' ').trim();
}

/** WordPress's `*_gmt` fields carry no zone: they are UTC. */
function parseWpDate(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const at = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(at) ? undefined : at;
}
