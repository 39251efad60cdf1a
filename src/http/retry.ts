// When a failed attempt may be tried again, and how long to wait first.
import { InterruptedError, UnavailableError } from '../errors.js';
import { msFromEnv } from '../lib/env-values.js';

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** First backoff step; doubles each attempt (full jitter). */
  baseDelayMs: number;
  /** Never wait longer than this in total across all retries. */
  maxTotalWaitMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 250, maxTotalWaitMs: 30_000 };

export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Errors raised before a single byte of the request could reach the server. Only these make a
 * non-idempotent request (create-blog, publish) safe to send again.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
]);
/** Network errors that may happen after the request was (partly) sent. */
const MAYBE_SENT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'ETIMEDOUT',
]);

export function networkErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NOT_SENT_CODES.has(code) || MAYBE_SENT_CODES.has(code))) return code;
    e = (e as { cause?: unknown }).cause;
  }
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

export function wasNeverSent(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/**
 * The service could not be reached at all: the request failed, after its retries, without a connection ever
 * being made (refused, unknown host, unreachable, connect timeout). A batch stops starting items on it.
 */
export function isUnreachable(error: unknown): error is UnavailableError {
  return error instanceof UnavailableError && wasNeverSent(error.context.peerCode);
}

export function isNetworkCode(code: string | undefined): boolean {
  return code !== undefined && (NOT_SENT_CODES.has(code) || MAYBE_SENT_CODES.has(code));
}

// An HTTP-date in any of the three forms RFC 9110 §5.6.7 lets a recipient accept: IMF-fixdate
// ("Sun, 06 Nov 1994 08:49:37 GMT"), RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT") and asctime
// ("Sun Nov  6 08:49:37 1994"). Date.parse alone is far too lenient: it reads "2" or "-1" as dates.
const HTTP_DATE = [
  /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/** Retry-After as seconds or an HTTP date, in ms (never negative); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}(\.\d{1,3})?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (!HTTP_DATE.some((re) => re.test(trimmed))) return undefined;
  const at = Date.parse(trimmed.endsWith('GMT') ? trimmed : `${trimmed} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with full jitter; a server's Retry-After wins when it is longer. */
export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs?: number,
  random = Math.random,
): number {
  const cap = policy.baseDelayMs * 2 ** Math.min(attempt, 30);
  const jittered = Math.round(random() * cap);
  return retryAfterMs !== undefined ? Math.max(retryAfterMs, jittered) : jittered;
}

/**
 * Test and operations knobs, read from the environment (not documented as user settings):
 * - BLOGCTL_RETRY_BASE_MS: the first backoff step in ms (default 250). The fault-injection tests set it to a
 *   few ms so a run with --retries 3 takes milliseconds; an operator can raise it for a struggling service.
 * - BLOGCTL_RETRY_MAX_WAIT_MS: the cap on the total time spent waiting between attempts (default 30000).
 * An unreadable value is a usage error rather than silently ignored, so a typo in a cron file is seen.
 */
export function retryPolicyFromEnv(env: NodeJS.ProcessEnv): Partial<RetryPolicy> {
  const policy: Partial<RetryPolicy> = {};
  const base = msFromEnv(env, 'BLOGCTL_RETRY_BASE_MS');
  if (base !== undefined) policy.baseDelayMs = base;
  const cap = msFromEnv(env, 'BLOGCTL_RETRY_MAX_WAIT_MS');
  if (cap !== undefined) policy.maxTotalWaitMs = cap;
  return policy;
}

/** A wait between attempts, cut short (InterruptedError) when the signal aborts. */
export function abortableSleep(msDelay: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, msDelay);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
