// The shape every URL a person types must have (a service base URL, a WordPress site URL): http(s), written
// out as `scheme://host[:port]`. The WHATWG parser is lenient where a typo should fail: `http://127.0.0.1:`
// parses (an empty port is "no port"), `http:example.com` and `http:/example.com` parse as if the slashes were
// there, and `http:///example.com` moves the path into the host. Each of those is refused here, naming the field,
// as is a query or fragment.
//
// A `user:password@` is refused first, and with nothing quoted: the password was never registered as a secret,
// so a message quoting the URL would print it. Messages quote the URL without its query or fragment (where a
// token may sit) and as typed otherwise, so they still show the typo they name (safeUrl would normalise an
// empty port or missing slashes away).
import { UsageError } from '../errors.js';

/** Where credentials go instead, told to whoever put them in a URL. */
export const SITE_CREDENTIALS = 'put the username in --username and the password on stdin, not in the URL';
const SERVICE_CREDENTIALS = 'the service takes an API key: `blogctl auth login`, or BLOGCTL_API_KEY';

/**
 * The parsed URL, or a UsageError naming `name` and what is wrong. `example` shows a good one; `credentials`
 * says where a username or password goes instead.
 */
export function checkUrlShape(value: string, name: string, example: string, credentials: string): URL {
  const text = value.trim();
  // Anywhere, not only before the host: the parser may carry a password holding '/', '?' or '#' into the
  // port, path or query, so only a URL without '@' surely holds none (a path's '@' can be written %40).
  if (text.includes('@')) {
    throw new UsageError(`${name}: must not contain a username or password (no "@"); ${credentials}`);
  }
  const shown = `"${text.replace(/([?#])[\s\S]*$/, '$1…')}"`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name}: not a URL: ${shown} (e.g. ${example})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${name}: must be an http(s) URL, got ${shown}`);
  const written = /^https?:\/\/([^/?#]*)/i.exec(text);
  if (!written) throw new UsageError(`${name}: expected ${url.protocol}//<host>, got ${shown}`);
  const authority = written[1]!;
  if (!authority) throw new UsageError(`${name}: no host in ${shown} (e.g. ${example})`);
  if (authority.endsWith(':'))
    throw new UsageError(`${name}: empty port in ${shown}: give one after the colon, or leave the colon out`);
  // blogctl appends paths (/api/v1/public/…, /wp-json/…) to it: a query or fragment would end up before them.
  if (/[?#]/.test(text)) throw new UsageError(`${name}: must not have a query or a fragment: ${shown}`);
  return url;
}

/**
 * The service's base URL as stored and used: checked, without trailing slashes or any part of the API prefix
 * people type after it (`/api`, `/api/v1`, `/api/v1/public`, any case), since blogctl appends
 * `/api/v1/public/…` itself.
 */
export function serviceBaseUrl(value: string, name: string): string {
  checkUrlShape(value, name, 'https://api.example.com', SERVICE_CREDENTIALS);
  return value
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api(?:\/+v1(?:\/+public)?)?$/i, '');
}
