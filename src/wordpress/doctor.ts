// `wp doctor`: which of the things that keep a REST client out of WordPress is in the way, and the fix for the
// server in front. Each check is a request a person could make with curl; a cause is "likely" where WordPress or
// a plugin gives several causes the same answer (WordPress answers a wrong Application Password exactly as no
// credentials unless something resolved the user early, so a refused login cannot always tell a stripped
// Authorization header from a wrong password).
import { randomBytes } from 'node:crypto';
import { HttpClient } from '../http/client.js';
import type { HttpClientOptions, HttpResponse } from '../http/spec.js';
import { basicAuthorization } from '../output/redact.js';
import { offersWpV2, permalinkMode, restRootFromLink, routeUrl, type RestIndex } from './client.js';
import { offersApplicationPasswords, SYNC_CAPABILITY } from './verify.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';
export type CheckName =
  'reach' | 'redirect' | 'rest-api' | 'permalinks' | 'application-passwords' | 'authorization' | 'account';

export interface DoctorCheck {
  name: CheckName;
  status: CheckStatus;
  /** One line: what was seen. */
  summary: string;
  /** The cause is a likely one, not a proved one. */
  likely?: boolean;
  /** What to change, for the server in front when it matters. */
  fix?: string[];
  /** The documented exit code this check stands for when it fails. */
  exitCode?: number;
}

export type ServerKind = 'apache' | 'nginx' | 'litespeed' | 'plesk' | 'unknown';

export interface DoctorReport {
  url: string;
  /** The server in front, from its headers (Server, X-Powered-By, LiteSpeed's own). */
  server: ServerKind;
  /** Behind Cloudflare (its headers): the origin's server is hidden. */
  cdn?: 'cloudflare';
  restRoot?: string;
  permalinks?: 'pretty' | 'plain';
  checks: DoctorCheck[];
  /** Whether the account can publish and sync (undefined without credentials). */
  canPublish?: boolean;
  canSync?: boolean;
  /** No check failed. */
  ok: boolean;
}

export interface DoctorInput {
  url: string;
  /** The account to check; without it the account checks are skipped. */
  credentials?: { username: string; password: string };
}

/** Every status a probe may meet is handed back: the doctor reads answers, it does not fail on them. */
const ANY_STATUS = Array.from({ length: 500 }, (_, i) => i + 100);
/** Codes WordPress gives a Basic login it read and refused: the Authorization header arrived. */
const REFUSED_LOGIN = new Set([
  'invalid_username',
  'incorrect_password',
  'invalid_email',
  'application_passwords_disabled',
  'application_passwords_disabled_for_user',
]);
const CLOSED_TO_ANONYMOUS = new Set([
  'rest_login_required',
  'rest_cannot_access',
  'rest_disabled',
  'rest_forbidden',
  'rest_not_logged_in',
]);

export async function diagnose(
  input: DoctorInput,
  httpOptions: Omit<HttpClientOptions, 'baseUrl'>,
): Promise<DoctorReport> {
  const url = input.url.replace(/\/+$/, '');
  // One attempt per probe: a retried 503 challenge page would only repeat what it said.
  const http = new HttpClient({ ...httpOptions, baseUrl: url, retry: { retries: 0 } });
  const checks: DoctorCheck[] = [];
  const report: DoctorReport = { url, server: 'unknown', checks, ok: false };
  try {
    await run(http, input, report);
  } finally {
    await http.close();
  }
  report.ok = !checks.some((c) => c.status === 'fail');
  return report;
}

async function run(http: HttpClient, input: DoctorInput, report: DoctorReport): Promise<void> {
  const { checks, url } = report;
  const get = (path: string, headers: Record<string, string> = {}) =>
    http.request({
      method: 'GET',
      path,
      headers,
      acceptText: true,
      passStatuses: ANY_STATUS,
      label: 'wp doctor',
    });

  // 1. The home page: reachable, not redirected, not a challenge.
  let home: HttpResponse<unknown>;
  try {
    home = await get(`${url}/`);
  } catch (error) {
    checks.push({
      name: 'reach',
      status: 'fail',
      summary: `cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`,
      fix: ['check the address, the network and that the site is up (curl -I the same URL)'],
      exitCode: 7,
    });
    return;
  }
  Object.assign(report, serverOf(home.headers));
  checks.push({ name: 'reach', status: 'ok', summary: `${url}/ answered HTTP ${home.status}` });
  if (home.status >= 300 && home.status < 400) {
    const location = home.headers['location'];
    const target = location ? safeOrigin(location, url) : undefined;
    checks.push({
      name: 'redirect',
      status: 'fail',
      summary: `the site redirects (HTTP ${home.status}${location ? ` to ${location}` : ''}): blogctl never sends the credentials on to where a redirect points`,
      fix: [
        target
          ? `use ${target} as the site's address (blogctl wp sites add ID --url ${target} …, or wp doctor ${target})`
          : "use the address the site redirects to as the site's address",
      ],
      exitCode: 7,
    });
    return;
  }
  checks.push({ name: 'redirect', status: 'ok', summary: 'no redirect' });
  const homeBlock = blockedPage(home);
  if (homeBlock) {
    checks.push({ name: 'rest-api', status: 'fail', likely: true, ...homeBlock, exitCode: 7 });
    return;
  }

  // 2. The REST API: where the site says it is, else `?rest_route=` (which answers whatever the permalinks).
  const linked = restRootFromLink(home.headers['link']);
  const sameOrigin = linked !== undefined && safeOrigin(linked, url) === new URL(url).origin;
  const root = linked !== undefined && sameOrigin ? linked : `${url}/?rest_route=/`;
  const rest = await get(root);
  const index = jsonOf(rest.text);
  if (rest.status === 200 && isIndex(index)) {
    if (offersWpV2(index) === false) {
      checks.push({
        name: 'rest-api',
        status: 'fail',
        summary: `the REST API answers at ${root} but without wp/v2 (namespaces: ${(index.namespaces ?? []).join(', ') || 'none'})`,
        likely: true,
        fix: [
          'a plugin or setting that "disables the REST API" removed WordPress\'s own routes: allow wp/v2 for authenticated users',
        ],
        exitCode: 7,
      });
      return;
    }
    checks.push({
      name: 'rest-api',
      status: 'ok',
      summary: `REST API at ${root}${linked === undefined ? ' (no Link header on the home page)' : ''}`,
    });
  } else {
    const closed = rest.status === 401 || rest.status === 403 ? errorCode(index) : undefined;
    if (closed !== undefined && CLOSED_TO_ANONYMOUS.has(closed)) {
      checks.push({
        name: 'rest-api',
        status: 'warn',
        summary: `the REST API is closed to anonymous callers (HTTP ${rest.status} ${closed}): blogctl signs in, so this is fine as long as the account below is accepted`,
        likely: true,
      });
    } else {
      checks.push({
        name: 'rest-api',
        status: 'fail',
        likely: true,
        ...(blockedPage(rest) ?? {
          summary: `no REST API at ${root}: HTTP ${rest.status}${isHtml(rest) ? ', an HTML page' : ''}`,
          fix: [
            'is this a WordPress site? WordPress answers /?rest_route=/ with a JSON index',
            'a security plugin may have turned the REST API off: allow it for authenticated users',
          ],
        }),
        exitCode: 7,
      });
      return;
    }
  }
  report.restRoot = root;
  report.permalinks = permalinkMode(root);
  checks.push({
    name: 'permalinks',
    status: 'ok',
    summary:
      report.permalinks === 'plain'
        ? 'plain permalinks: blogctl uses ?rest_route= (URLs under /wp-json/ do not work on this site)'
        : 'pretty permalinks (/wp-json/)',
  });

  // 3. Application Passwords, as the index advertises them.
  const indexKnown = rest.status === 200 && isIndex(index);
  const appPasswords = indexKnown ? offersApplicationPasswords(index) : undefined;
  const plainHttp = url.startsWith('http:');
  if (appPasswords === false) {
    checks.push({
      name: 'application-passwords',
      status: 'fail',
      summary:
        'Application Passwords are off: the REST index advertises no "application-passwords" authentication',
      likely: true,
      fix: plainHttp
        ? [
            'WordPress turns them off on plain HTTP: use https, or (a local site only) define WP_ENVIRONMENT_TYPE as local in wp-config.php',
          ]
        : [
            'a security plugin (Wordfence, Solid Security, All In One WP Security) or a wp_is_application_passwords_available filter turned them off: turn that setting off',
          ],
      exitCode: 4,
    });
  } else {
    checks.push({
      name: 'application-passwords',
      status: appPasswords ? 'ok' : 'skip',
      summary: appPasswords
        ? 'Application Passwords are available'
        : 'not known: the REST index could not be read anonymously',
    });
  }

  // 4. Does the Authorization header reach WordPress? Throwaway credentials first: WordPress naming the login
  // it refused proves the header arrived.
  const throwaway = basicAuthorization(
    `blogctl-doctor-${randomBytes(6).toString('hex')}`,
    randomBytes(18).toString('base64url').slice(0, 24),
  );
  const me = (authorization: string, at = root) =>
    get(routeUrl(at, 'wp/v2/users/me', { context: 'edit' }), { authorization });
  const probe = await me(throwaway);
  const probeCode = errorCode(jsonOf(probe.text));
  const headerProved = probeCode !== undefined && REFUSED_LOGIN.has(probeCode);
  const fixes = authorizationFixes(report.server);
  if (!input.credentials) {
    checks.push(
      headerProved
        ? {
            name: 'authorization',
            status: 'ok',
            summary: `the Authorization header reaches WordPress (${probeCode})`,
          }
        : {
            name: 'authorization',
            status: 'skip',
            summary: `not proved without an account: throwaway credentials got HTTP ${probe.status}${probeCode ? ` ${probeCode}` : ''}, which WordPress also gives when the header is stripped`,
          },
      {
        name: 'account',
        status: 'skip',
        summary: 'no account to check: give a site profile (wp doctor SITE) or --username with the password',
      },
    );
    return;
  }
  const real = basicAuthorization(input.credentials.username, input.credentials.password);
  const signedIn = await me(real);
  const user = jsonOf(signedIn.text);
  if (signedIn.status !== 200 || !isUser(user)) {
    const code = errorCode(user);
    if (isHtml(signedIn) || (signedIn.status !== 401 && signedIn.status !== 403)) {
      const page = blockedPage(signedIn);
      checks.push({
        name: 'authorization',
        status: 'fail',
        likely: true,
        summary:
          page?.summary ??
          `users/me answered HTTP ${signedIn.status}${code ? ` ${code}` : ''} to the account's credentials`,
        fix: page?.fix ?? fixes,
        exitCode: signedIn.status >= 500 || isHtml(signedIn) ? 7 : 4,
      });
      return;
    }
    if (headerProved) {
      checks.push({
        name: 'authorization',
        status: 'fail',
        summary: `WordPress read the credentials and refused them (HTTP ${signedIn.status}${code ? ` ${code}` : ''}): the username or the Application Password is wrong`,
        fix: [
          `"${input.credentials.username}" must be the WordPress login name; create a new Application Password under Users → Profile → Application Passwords`,
        ],
        exitCode: 4,
      });
      return;
    }
    // A rewrite that drops the header (Apache with CGI/FastCGI) leaves the direct `?rest_route=` form working.
    if (report.permalinks === 'pretty') {
      const direct = await me(real, `${url}/?rest_route=/`);
      if (direct.status === 200 && isUser(jsonOf(direct.text))) {
        checks.push({
          name: 'authorization',
          status: 'fail',
          summary:
            'the Authorization header is lost on the rewritten /wp-json/ URLs: the same credentials work on ?rest_route=',
          fix: fixes,
          exitCode: 4,
        });
        return;
      }
    }
    checks.push({
      name: 'authorization',
      status: 'fail',
      likely: true,
      summary: `HTTP ${signedIn.status}${code ? ` ${code}` : ''}: WordPress saw no login at all, so the server in front likely strips the Authorization header (or the password is wrong: this WordPress answers both alike)`,
      fix: [
        ...fixes,
        `if the header does arrive: check that "${input.credentials.username}" is the login name and create a new Application Password`,
      ],
      exitCode: 4,
    });
    return;
  }
  checks.push({
    name: 'authorization',
    status: 'ok',
    summary: 'the account signs in with its Application Password',
  });

  // 5. The account: may it publish, and see every post (a sync needs both)?
  const caps = user.capabilities ?? {};
  report.canPublish = caps['publish_posts'] === true;
  report.canSync = caps[SYNC_CAPABILITY] === true;
  const roles = user.roles?.length ? user.roles.join(', ') : 'no role';
  checks.push(
    report.canPublish && report.canSync
      ? {
          name: 'account',
          status: 'ok',
          summary: `"${input.credentials.username}" (${roles}) can publish and sync`,
        }
      : {
          name: 'account',
          status: 'fail',
          summary: `"${input.credentials.username}" (${roles}) ${report.canPublish ? `can publish but not sync (it lacks ${SYNC_CAPABILITY})` : 'cannot publish'}`,
          fix: [
            'give the account the Editor or Administrator role (Users → Edit → Role), or use one that has it',
          ],
          exitCode: 4,
        },
  );
}

/** The server in front, from the answer's headers. */
export function serverOf(headers: Record<string, string>): Pick<DoctorReport, 'server' | 'cdn'> {
  const server = (headers['server'] ?? '').toLowerCase();
  const powered = (headers['x-powered-by'] ?? '').toLowerCase();
  const cdn =
    server === 'cloudflare' || headers['cf-ray'] !== undefined ? { cdn: 'cloudflare' as const } : {};
  if (powered.includes('plesk')) return { server: 'plesk', ...cdn };
  if (
    server.includes('litespeed') ||
    headers['x-litespeed-cache'] !== undefined ||
    (headers['x-turbo-charged-by'] ?? '').toLowerCase().includes('litespeed')
  )
    return { server: 'litespeed', ...cdn };
  if (server.includes('nginx') || server.includes('openresty')) return { server: 'nginx', ...cdn };
  if (server.includes('apache')) return { server: 'apache', ...cdn };
  return { server: 'unknown', ...cdn };
}

const AUTHORIZATION_FIXES: Record<Exclude<ServerKind, 'unknown'>, string> = {
  apache:
    'Apache: in .htaccess, above "# BEGIN WordPress": CGIPassAuth On (Apache 2.4.13+), or SetEnvIf Authorization "(.*)" HTTP_AUTHORIZATION=$1',
  nginx:
    'nginx: in the PHP location block: fastcgi_param HTTP_AUTHORIZATION $http_authorization; (in front of another server: proxy_set_header Authorization $http_authorization;)',
  litespeed:
    'LiteSpeed: in .htaccess: RewriteEngine On and RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]',
  plesk:
    'Plesk: Websites & Domains → Apache & nginx Settings → Additional Apache directives: SetEnvIf Authorization "(.*)" HTTP_AUTHORIZATION=$1 (nginx serving PHP: fastcgi_param HTTP_AUTHORIZATION $http_authorization; under Additional nginx directives)',
};

/** The fix for the server in front; every server's when its headers do not say which it is. */
export function authorizationFixes(server: ServerKind): string[] {
  return server === 'unknown' ? Object.values(AUTHORIZATION_FIXES) : [AUTHORIZATION_FIXES[server]];
}

/**
 * An answer that is a page put in front of WordPress, or WordPress's JSON spoilt by what PHP printed first:
 * what it likely is and the fix; undefined for anything else.
 */
export function blockedPage(
  res: Pick<HttpResponse<unknown>, 'status' | 'headers' | 'text'>,
): Pick<DoctorCheck, 'summary' | 'fix'> | undefined {
  const text = res.text.slice(0, 64 * 1024);
  if (
    res.headers['cf-mitigated'] === 'challenge' ||
    /cf-chl|challenge-platform|<title>Just a moment\.\.\.|Attention Required! \| Cloudflare|sgcaptcha|Sucuri WebSite Firewall|mod_security|Not Acceptable!/i.test(
      text,
    )
  )
    return {
      summary: `HTTP ${res.status}: a firewall or bot challenge page answered instead of WordPress`,
      fix: [
        'allow the REST API (/wp-json/* and ?rest_route=) past the firewall or CDN for this client (a WAF rule or an IP allow-list), or turn the challenge off for those paths',
      ],
    };
  if (
    /wordfence|solid security|ithemes security|all in one wp security|disable(?:d)? (?:the )?rest api|rest api (?:has been )?(?:disabled|restricted)/i.test(
      text,
    )
  )
    return {
      summary: `HTTP ${res.status}: a security plugin answered instead of WordPress's REST API`,
      fix: ["allow the REST API for authenticated users in the security plugin's settings"],
    };
  if (
    /^\s*(?:<br\s*\/?>\s*)?(?:<b>)?\s*(?:Notice|Warning|Deprecated|Fatal error|Parse error)(?:<\/b>)?\s*:/i.test(
      text,
    )
  )
    return {
      summary: `HTTP ${res.status}: PHP printed errors or notices before WordPress's answer, so it is not valid JSON`,
      fix: [
        "turn off display of PHP errors on the live site: define('WP_DEBUG_DISPLAY', false) in wp-config.php (or display_errors = Off), and fix the plugin or theme that warns",
      ],
    };
  return undefined;
}

function isHtml(res: Pick<HttpResponse<unknown>, 'headers' | 'text'>): boolean {
  return (res.headers['content-type'] ?? '').includes('html') || /^\s*</.test(res.text);
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isIndex(value: unknown): value is RestIndex {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v['namespaces']) || (typeof v['routes'] === 'object' && v['routes'] !== null);
}

function isUser(
  value: unknown,
): value is { id: number; roles?: string[]; capabilities?: Record<string, unknown> } {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number';
}

function errorCode(value: unknown): string | undefined {
  const code = value && typeof value === 'object' ? (value as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function safeOrigin(location: string, base: string): string | undefined {
  try {
    return new URL(location, base).origin;
  } catch {
    return undefined;
  }
}

/** The exit code of the first failed check, else 0. */
export function doctorExitCode(report: DoctorReport): number {
  return report.checks.find((c) => c.status === 'fail')?.exitCode ?? 0;
}
