// The failure rules of a publish run: what a failed request to WordPress says, which failures of a create
// may have left a post behind (never sent again in the same run), and which end the whole run.
import { BlogctlError, InterruptedError, UnavailableError } from '../errors.js';
import type { CancelPort } from './ports.js';
import { wasNeverSent } from '../http/retry.js';
import type { PublishJob } from './sources/publish-job.js';
import { failed, type PublishOutcome } from './publish-outcome.js';

/**
 * A request made to WordPress directly failed: say what it was for and that nothing was published. The
 * error keeps its kind and exit code (401 is still 4, unreachable still 7).
 */
export function siteFailure(error: unknown, what: string, site: string): unknown {
  if (!(error instanceof BlogctlError) || error instanceof InterruptedError) return error;
  const hints = [
    ...(error.context.hints ?? []),
    ...(error instanceof UnavailableError
      ? [
          'to publish through the service alone when this machine cannot reach the site, add --service-only (no look-up: repeats cannot be detected)',
        ]
      : []),
  ];
  return new BlogctlError(
    error.kind,
    error.exitCode,
    `${what} on ${site} failed: ${error.message}; nothing was published`,
    { ...error.context, ...(hints.length && { hints }) },
  );
}

/** Ctrl-C ends the whole run (exit 130), not one post; any other failure is this post's. */
export async function guarded(
  job: PublishJob,
  deps: CancelPort,
  run: () => Promise<PublishOutcome>,
): Promise<PublishOutcome> {
  try {
    return await run();
  } catch (error) {
    if (deps.signal.aborted || !(error instanceof BlogctlError) || error instanceof InterruptedError)
      throw error;
    return failed(job, error);
  }
}

/**
 * The request may have been acted on, outcome unknown. Only two failures say for certain that no post was
 * made: nothing was sent (the connection failed first), or the service refused the request (a 4xx).
 * Anything else — no answer, an unreadable 2xx, a 5xx (a gateway's 502/504 says nothing about what the
 * service behind it did), an error of unknown kind — may have left a post behind.
 */
export function isAmbiguous(error: BlogctlError): boolean {
  const { status, peerCode } = error.context;
  if (status !== undefined) return !(status >= 400 && status < 500);
  if (error instanceof UnavailableError) return !wasNeverSent(peerCode);
  // Raised by blogctl itself before a request could be made (a usage or configuration problem).
  return false;
}

/** A create that may have made a post: failed, marked in doubt, saying what the next run does about it. */
export function inDoubt(job: PublishJob, error: BlogctlError, hint: string | undefined): PublishOutcome {
  const next =
    hint ??
    (job.sourceKey === undefined
      ? 'the post may exist, and a post from flags alone cannot be found again: check the site before publishing it again'
      : 'the post may exist: the next run finds it on the site, or sends it again with the same Idempotency-Key');
  const result = failed(
    job,
    new BlogctlError(error.kind, error.exitCode, `${error.message}; ${next}`, error.context),
  );
  result.inDoubt = true;
  return result;
}
