// What became of each post of a publish — created, updated in place, unchanged, changed but left
// (--no-update), left in the trash, or failed — in one shape for `wp publish`, its batches and
// `blog create --publish`.
import { API_PREFIX } from '../api/blog-api.js';
import { AuthError, BlogctlError, RejectedError } from '../errors.js';
import type { PublishResult } from '../schemas/wordpress-publish.js';
import { CHECK_AND_CHANGE } from '../wordpress/credential-hints.js';
import type { PublishJob } from './sources/publish-job.js';

export const PUBLISH_ENDPOINT = `POST ${API_PREFIX}/integrations/wordpress/publish`;

/**
 * `created` (through the service), `updated` (in place, directly on WordPress), `unchanged` (nothing sent),
 * `changed` (differs, left as it is: --no-update), `trashed` (its post is in WordPress's trash: left there),
 * `moved` (an orphan's post taken by a moved or renamed source: updated in place), `orphaned` (a post of the
 * project whose source is gone: left), `pruned` (such a post moved to the trash: --prune), `failed`.
 */
export type PublishState =
  'created' | 'updated' | 'moved' | 'unchanged' | 'changed' | 'trashed' | 'orphaned' | 'pruned' | 'failed';

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
  /** The fields that differ (updated, or changed and left). */
  fields?: string[];
  /** Fields an editor changed on the site, kept as they are (drift). */
  edited?: string[];
  /** Failed without a readable answer: the post may exist (the next run finds it on the site). */
  inDoubt?: boolean;
  error?: BlogctlError;
  /** Things a person should know (stderr): a status other than the one asked for, duplicates found. */
  warnings: string[];
  notes: string[];
}

/** `post.md: ` in a batch, nothing for a single post (the person knows which one they meant). */
export function prefix(job: Pick<PublishJob, 'name'>, several: boolean): string {
  return several ? `${job.name}: ` : '';
}

export function outcome(
  job: Pick<PublishJob, 'name' | 'draft'>,
  state: Exclude<PublishState, 'failed'>,
  post: PublishedPost,
  extra: Partial<Pick<PublishOutcome, 'fields' | 'warnings' | 'notes'>> = {},
): PublishOutcome {
  return {
    source: job.name,
    state,
    post,
    requestedStatus: job.draft.requestedStatus,
    ...(extra.fields && { fields: extra.fields }),
    warnings: extra.warnings ?? [],
    notes: extra.notes ?? [],
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

/**
 * `published: false` → exit 6 carrying the service's (WordPress's) reason — or exit 4 when the reason is
 * WordPress refusing the site's credentials (HTTP 401/403, rest_cannot_create, a wrong password): one cause,
 * one exit code, as `wp sites verify` and the look-up before a publish give for it.
 */
export function rejection(result: PublishResult): RejectedError | AuthError {
  const reason = result.reason ?? 'the service gave no reason';
  const context = {
    endpoint: PUBLISH_ENDPOINT,
    ...(result.reason !== undefined && { serviceMessage: result.reason }),
  };
  if (REFUSED_CREDENTIALS.test(reason))
    return new AuthError(`WordPress did not publish the post: ${reason}`, {
      ...context,
      hints: ["WordPress refused the site's username or Application Password", CHECK_AND_CHANGE],
    });
  return new RejectedError(`WordPress did not publish the post: ${reason}`, context);
}

/** WordPress's answers to credentials it does not accept, as the service relays them. */
const REFUSED_CREDENTIALS =
  /\bHTTP 40[13]\b|\b40[13] (Unauthorized|Forbidden)\b|rest_cannot_create|rest_not_logged_in|incorrect_password|invalid_username|application_passwords_disabled/i;
