// URLs as debug lines and errors show them: never a user:password, never a secret-looking query value, and
// the request line's own path (not a URL's resolution of its dot segments).

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
