// After an ambiguous failure — the publish request went out and no readable answer came back (a timeout, a
// connection reset, a cut or unreadable body) — the post may or may not exist. Publishing again blindly could
// make two; giving up could leave a cron job reporting a failure for a post that is live. So: look for it on
// the site by slug first, and only then try once more.
import { BlogctlError, InterruptedError, UnavailableError } from '../errors.js';
import { wasNeverSent } from '../http/retry.js';
import type { PostContent, PublishResult } from '../schemas/wordpress.js';
import type { WordPressClient } from '../wordpress/client.js';
import { findPostsBySlug, type WpPostDetail } from '../wordpress/posts.js';
import { decodeEntities } from '../wordpress/text.js';

/** A post found on the site is taken as ours only if it was created (or changed) after this long before the request. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The request may have reached the service and been acted on, but the outcome is unknown: an
 * UnavailableError without an HTTP status (timeout, reset, truncated, too large) other than the errors raised
 * before anything was sent, or a 2xx whose body could not be read.
 */
export function isAmbiguous(error: unknown): error is UnavailableError {
  if (!(error instanceof UnavailableError)) return false;
  const { status, peerCode } = error.context;
  if (status !== undefined) return status >= 200 && status < 300;
  return !wasNeverSent(peerCode);
}

/**
 * The slug WordPress gives a post when none is sent (sanitize_title): tags dropped, accents removed, lower
 * case, HTML entities removed, `.` and `/` and runs of spaces turned into `-`, anything but letters, digits,
 * `_` and `-` dropped, and characters beyond ASCII percent-encoded (lower-case hex) as WordPress stores them.
 * Empty when nothing is left (WordPress would then use the post id).
 */
export function wordpressSlug(title: string): string {
  const folded = title
    .replace(/<[^>]*>/g, '')
    .replace(/[ßæœøđłþð]/gi, (c) => TRANSLIT[c.toLowerCase()] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&[^\s;]+;/g, '')
    .replace(/[./\u00a0\u2013\u2014]/g, '-');
  let out = '';
  for (const ch of folded) {
    if (/[a-z0-9 _-]/.test(ch) || /\s/.test(ch)) out += ch;
    else if (ch.codePointAt(0)! > 0x7f)
      out += [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
  return out.replace(/\s+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');
}

const TRANSLIT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  þ: 'th',
  ð: 'd',
};

/**
 * The slug to look for: the one sent, else — for statuses that get a slug at once (publish, future,
 * private) — the one WordPress derives from the title. Drafts and pending posts get no slug until they
 * are published, so there is nothing to look for.
 */
export function lookupSlug(content: PostContent): string | undefined {
  if (content.slug?.trim()) return content.slug.trim();
  if (content.status === 'draft' || content.status === 'pending') return undefined;
  return wordpressSlug(content.title) || undefined;
}

export type Recovery =
  | { kind: 'found'; post: WpPostDetail; slug: string }
  | { kind: 'retried'; result: PublishResult }
  | { kind: 'failed'; error: BlogctlError };

export interface RecoveryInput {
  content: PostContent;
  /** When the first attempt was sent. */
  startedAt: Date;
  client: () => Promise<WordPressClient>;
  /** The same request again, with the same Idempotency-Key. */
  retry: () => Promise<PublishResult>;
}

/**
 * Decides what an ambiguous failure means, so that at most one post exists:
 *
 * 1. No slug to look for (a draft or pending post without --slug, or a title with nothing to make one of):
 *    report the failure and do not retry. Retrying would rely on the service honouring the Idempotency-Key
 *    alone, and a service that ignores it would create a second post that nothing could detect.
 * 2. Look for a post with that slug (any status) whose title is ours and which was written since just before
 *    the request. Found: it is ours — the caller records it and reports it published.
 * 3. The lookup itself fails (the site is unreachable too): report the failure, do not retry — we cannot tell.
 * 4. Not found: the request most likely never reached WordPress, so retry once with the same
 *    Idempotency-Key; should the first request still be in flight at the service, a service that honours the
 *    key answers the retry with the first request's outcome instead of acting twice.
 * 5. The retry is ambiguous too: look once more, then give up without a third attempt.
 */
export async function recoverAmbiguous(error: UnavailableError, input: RecoveryInput): Promise<Recovery> {
  const slug = lookupSlug(input.content);
  if (!slug) {
    const why =
      input.content.status === 'draft' || input.content.status === 'pending'
        ? `a ${input.content.status} post has no slug on the site until it is published`
        : 'the title gives no slug';
    return failed(error, [
      `the post may have been created: blogctl could not check (${why}; --slug makes it findable) and did not retry, so as not to create it twice`,
      'check the site before publishing again',
    ]);
  }
  const since = new Date(input.startedAt.getTime() - CLOCK_SKEW_MS);
  const look = async (): Promise<WpPostDetail | undefined> =>
    findOwnPost(await input.client(), slug, input.content.title, since);

  let found: WpPostDetail | undefined;
  try {
    found = await look();
  } catch (lookupError) {
    if (lookupError instanceof InterruptedError || !(lookupError instanceof BlogctlError)) throw lookupError;
    return failed(error, [
      `the post may have been created: looking for slug "${slug}" on the site failed too (${lookupError.message}), so blogctl did not retry`,
      'check the site before publishing again',
    ]);
  }
  if (found) return { kind: 'found', post: found, slug };

  try {
    return { kind: 'retried', result: await input.retry() };
  } catch (second) {
    if (!isAmbiguous(second)) {
      if (second instanceof BlogctlError && !(second instanceof InterruptedError))
        return { kind: 'failed', error: second };
      throw second;
    }
    found = await look().catch((e: unknown) => {
      if (e instanceof InterruptedError) throw e;
      return undefined;
    });
    if (found) return { kind: 'found', post: found, slug };
    return failed(second, [
      `sent twice with the same Idempotency-Key without a readable answer, and no post with slug "${slug}" is on the site yet`,
      'check the site before publishing again',
    ]);
  }
}

/** Posts with the slug, newest first, narrowed to one with our title written since `since`. */
async function findOwnPost(
  client: WordPressClient,
  slug: string,
  title: string,
  since: Date,
): Promise<WpPostDetail | undefined> {
  const posts = await findPostsBySlug(client, slug);
  return posts.find((post) => {
    const raw = post.title?.raw ?? decodeEntities(post.title?.rendered ?? '');
    if (raw.trim() !== title.trim()) return false;
    const written = post.modified_gmt ?? post.date_gmt;
    if (!written) return true;
    const at = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(written) ? written : `${written}Z`);
    return Number.isNaN(at) || at >= since.getTime();
  });
}

function failed(error: BlogctlError, hints: string[]): Recovery {
  return {
    kind: 'failed',
    error: new BlogctlError(error.kind, error.exitCode, error.message, {
      ...error.context,
      hints: [...(error.context.hints ?? []), ...hints],
    }),
  };
}
