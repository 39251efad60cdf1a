// URLs as debug lines and errors show them: never a user:password, never a secret-looking query value, and
// the request line's own path (not a URL's resolution of its dot segments).
import type { RequestSpec } from './spec.js';

/** A path of a request line: unreserved and sub-delimiter characters, `:`, `@`, `/` and %XX escapes only. */
export const REQUEST_PATH = /^(?:[\w\-.~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

/** safeUrl() with the path as the request line carries it (a URL would resolve its dot segments). */
export function shownUrl(url: string, path: string): string {
  const safe = safeUrl(url);
  if (safe === '(invalid URL)') return safe;
  const u = new URL(safe);
  return `${u.origin}${path.split('?', 1)[0]!}${u.search}`;
}

/** The URL as shown in debug lines: no user:password, and no values of query parameters that look secret. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const key of [...u.searchParams.keys()]) {
      if (/key|token|secret|pass|auth|sig/i.test(key)) u.searchParams.set(key, '***');
    }
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

/** What a debug line says about a request: the idempotency key and the body's size and type, never headers' values. */
export function describeRequest(
  headers: Record<string, string>,
  body: string | Buffer | Uint8Array | undefined,
): string {
  const parts: string[] = [];
  const key = Object.entries(headers).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
  if (key) parts.push(`idempotency-key ${key}`);
  if (body !== undefined) {
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? 'body';
    parts.push(`${size}-byte ${type.split(';')[0]} body`);
  }
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** A client's requests resolved against its base URL: the URL, and the path and query of the request line. */
export class RequestTargets {
  /** The base URL's path, without its trailing slash (see requestPath). */
  private basePath: string | undefined;
  private lastResolved: Resolved | undefined;

  constructor(private readonly baseUrl: string) {}

  /**
   * The path and query of the request line. A URL resolves `.` and `..` segments, even written as %2E, so a
   * segment holding an id like ".." would address the parent route instead (`DELETE /api/v1/public/`): a
   * relative path that is already a valid request target goes out exactly as written (callers encode their
   * segments); anything else, and absolute URLs, as the URL has it.
   */
  private requestPath(path: string, url: URL): string {
    const written = path.split('?', 1)[0]!;
    if (/^https?:\/\//.test(path) || !REQUEST_PATH.test(written)) return url.pathname + url.search;
    this.basePath ??= new URL(this.baseUrl).pathname.replace(/\/+$/, '');
    return `${this.basePath}${written.startsWith('/') ? '' : '/'}${written}${url.search}`;
  }

  /**
   * Parsed once per call: the string for messages, the parts for undici (which would parse it again). The
   * last path without a query is remembered, as a batch sends every post to the same endpoint; the URL is
   * only ever read.
   */
  resolve(path: string, query?: RequestSpec['query']): Resolved {
    if (!query && this.lastResolved?.from === path) return this.lastResolved;
    const target = this.target(path, query);
    const resolved: Resolved = {
      from: path,
      target,
      url: target.toString(),
      path: this.requestPath(path, target),
    };
    if (!query) this.lastResolved = resolved;
    return resolved;
  }

  target(path: string, query?: RequestSpec['query']): URL {
    const url = /^https?:\/\//.test(path)
      ? new URL(path)
      : new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    if (query)
      for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }
}

interface Resolved {
  /** The path (or absolute URL) as the caller gave it. */
  from: string;
  target: URL;
  url: string;
  /** The request line's path and query (requestPath()). */
  path: string;
}
