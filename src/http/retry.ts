// When a failed attempt may be tried again, and how long to wait first.

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

export function isNetworkCode(code: string | undefined): boolean {
  return code !== undefined && (NOT_SENT_CODES.has(code) || MAYBE_SENT_CODES.has(code));
}

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with full jitter; a server's Retry-After wins when it is longer. */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number, random = Math.random): number {
  const cap = policy.baseDelayMs * 2 ** attempt;
  const jittered = Math.round(random() * cap);
  return retryAfterMs !== undefined ? Math.max(retryAfterMs, jittered) : jittered;
}
