// The shape every URL a person types must have (a service base URL, a WordPress site URL): http(s), written
// out as `scheme://host[:port]`. The WHATWG parser is lenient where a typo should fail: `http://127.0.0.1:`
// parses (an empty port is "no port"), `http:example.com` and `http:/example.com` parse as if the slashes were
// there, and `http:///example.com` moves the path into the host. Each of those is refused here, naming the field,
// as is a query or fragment.
import { UsageError } from '../errors.js';

/** The parsed URL, or a UsageError naming `name` and what is wrong. `example` shows a good one. */
export function checkUrlShape(value: string, name: string, example: string): URL {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name}: not a URL: "${value}" (e.g. ${example})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${name}: must be an http(s) URL, got "${value}"`);
  const written = /^https?:\/\/([^/?#]*)/i.exec(text);
  if (!written) throw new UsageError(`${name}: expected ${url.protocol}//<host>, got "${value}"`);
  const authority = written[1]!.replace(/^.*@/, '');
  if (!authority) throw new UsageError(`${name}: no host in "${value}" (e.g. ${example})`);
  if (authority.endsWith(':'))
    throw new UsageError(
      `${name}: empty port in "${value}": give one after the colon, or leave the colon out`,
    );
  // blogctl appends paths (/api/v1/public/…, /wp-json/…) to it: a query or fragment would end up before them.
  if (/[?#]/.test(text)) throw new UsageError(`${name}: must not have a query or a fragment: "${value}"`);
  return url;
}

/** The service's base URL as stored and used: checked, without trailing slashes or the API prefix. */
export function serviceBaseUrl(value: string, name: string): string {
  checkUrlShape(value, name, 'https://api.example.com');
  return value
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/v1\/public$/, '');
}
