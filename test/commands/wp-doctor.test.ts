// `wp doctor` against loopback sites that each behave like one blocker: a redirect, a firewall challenge, PHP
// notices before the JSON, Application Passwords turned off, plain permalinks, a REST API closed to anonymous
// callers, a server whose rewrite drops the Authorization header, wrong credentials WordPress names, and an
// Author account. Each asserts the check that fails, its fix and the exit code.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

const USER = 'editor';
const PASSWORD = 'abcd efgh ijkl mnop qrst uvwx';
const GOOD = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;
const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function site(handler: Handler): Promise<string> {
  const server = createServer((req, res) => handler(req, res, new URL(req.url ?? '/', 'http://x')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
};
const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=UTF-8', ...headers });
  res.end(body);
};

const INDEX = {
  name: 'Site',
  namespaces: ['wp/v2'],
  authentication: { 'application-passwords': { endpoints: { authorization: 'x' } } },
};
const NOT_LOGGED_IN = {
  code: 'rest_not_logged_in',
  message: 'You are not currently logged in.',
  data: { status: 401 },
};
const editorCaps = { publish_posts: true, edit_others_posts: true };

/** A WordPress answering as the real one does: the REST route from the path (pretty) or ?rest_route= (plain). */
function wordpress(options: {
  pretty?: boolean;
  index?: unknown;
  indexStatus?: number;
  headers?: Record<string, string>;
  /** What users/me answers, given the Authorization header that arrived and the form of the URL. */
  me?: (authorization: string | undefined, form: 'pretty' | 'plain') => [number, unknown];
}): Handler {
  const pretty = options.pretty ?? true;
  return (req, res, url) => {
    const route =
      url.searchParams.get('rest_route') ??
      (url.pathname.startsWith('/wp-json') ? url.pathname.slice(8) || '/' : undefined);
    const form = url.searchParams.has('rest_route') ? 'plain' : 'pretty';
    if (route === undefined) {
      return html(res, 200, '<html>home</html>', {
        ...options.headers,
        ...(pretty && { link: `<http://${req.headers.host}/wp-json/>; rel="https://api.w.org/"` }),
      });
    }
    if (route === '/' || route === '')
      return json(res, options.indexStatus ?? 200, options.index ?? INDEX, options.headers);
    if (route === '/wp/v2/users/me') {
      const [status, body] = (
        options.me ??
        ((auth) =>
          auth === GOOD
            ? [200, { id: 2, roles: ['editor'], capabilities: editorCaps }]
            : [401, NOT_LOGGED_IN])
      )(req.headers.authorization, form);
      return json(res, status, body, options.headers);
    }
    json(res, 404, { code: 'rest_no_route' });
  };
}

async function doctor(url: string, account = true, ...extra: string[]) {
  const args = [
    '--json',
    'wp',
    'doctor',
    url,
    ...(account ? ['--username', USER, '--password-stdin'] : []),
    ...extra,
  ];
  const result = await runInProcess(args, {
    env: { BLOGCTL_CONFIG_DIR: tempConfigDir() },
    ...(account && { input: PASSWORD }),
  });
  const report = result.stdout
    ? (JSON.parse(result.stdout) as {
        checks: { name: string; status: string; summary: string; fix?: string[]; likely?: boolean }[];
        server: string;
        ok: boolean;
        permalinks?: string;
      })
    : undefined;
  const failed = report?.checks.find((c) => c.status === 'fail');
  return { ...result, report, failed };
}

describe('wp doctor', () => {
  it('a working site with an Editor: every check ok, exit 0', async () => {
    const url = await site(wordpress({}));
    const r = await doctor(url);
    expect(r.code).toBe(0);
    expect(r.report?.ok).toBe(true);
    expect(r.report?.checks.map((c) => `${c.name}:${c.status}`)).toEqual([
      'reach:ok',
      'redirect:ok',
      'rest-api:ok',
      'permalinks:ok',
      'application-passwords:ok',
      'authorization:ok',
      'account:ok',
    ]);
  });

  it('a redirect (http → https): exit 7, the address to use', async () => {
    const url = await site((_req, res) => {
      res.writeHead(301, { location: 'https://blog.example.com/' });
      res.end();
    });
    const r = await doctor(url);
    expect(r.code).toBe(7);
    expect(r.failed?.name).toBe('redirect');
    expect(r.failed?.fix?.join(' ')).toContain('use https://blog.example.com as the site');
  });

  it('a firewall challenge page: exit 7, named as a challenge', async () => {
    const url = await site((_req, res) =>
      html(
        res,
        403,
        '<html><title>Just a moment...</title><script src="/cdn-cgi/challenge-platform/x"></script></html>',
        {
          server: 'cloudflare',
          'cf-ray': '8a1',
          'cf-mitigated': 'challenge',
        },
      ),
    );
    const r = await doctor(url);
    expect(r.code).toBe(7);
    expect(r.failed?.name).toBe('rest-api');
    expect(r.failed?.summary).toContain('challenge');
    expect(r.failed?.likely).toBe(true);
  });

  it('PHP notices before the JSON: exit 7, the display_errors fix', async () => {
    const url = await site((req, res, u) => {
      if (u.pathname === '/' && !u.searchParams.has('rest_route'))
        return html(res, 200, 'home', {
          link: `<http://${req.headers.host}/wp-json/>; rel="https://api.w.org/"`,
        });
      html(
        res,
        200,
        `<br />\n<b>Deprecated</b>:  Function x is deprecated in /var/www/x.php on line 3<br />\n${JSON.stringify(INDEX)}`,
      );
    });
    const r = await doctor(url);
    expect(r.code).toBe(7);
    expect(r.failed?.summary).toContain('PHP printed');
    expect(r.failed?.fix?.join(' ')).toContain('WP_DEBUG_DISPLAY');
  });

  it('Application Passwords off on plain HTTP: exit 4, https or WP_ENVIRONMENT_TYPE', async () => {
    const url = await site(wordpress({ index: { ...INDEX, authentication: [] } }));
    const r = await doctor(url);
    expect(r.code).toBe(4);
    expect(r.failed?.name).toBe('application-passwords');
    expect(r.failed?.fix?.join(' ')).toContain('WP_ENVIRONMENT_TYPE');
  });

  it('plain permalinks: found through ?rest_route=, reported, exit 0', async () => {
    const url = await site(wordpress({ pretty: false }));
    const r = await doctor(url);
    expect(r.code).toBe(0);
    expect(r.report?.permalinks).toBe('plain');
    expect(r.report?.checks.find((c) => c.name === 'permalinks')?.summary).toContain('?rest_route=');
  });

  it('a REST API closed to anonymous callers: a warning, not a blocker, when the account signs in', async () => {
    const url = await site(
      wordpress({
        indexStatus: 401,
        index: { code: 'rest_login_required', message: 'only logged-in', data: { status: 401 } },
      }),
    );
    const r = await doctor(url);
    expect(r.code).toBe(0);
    expect(r.report?.checks.find((c) => c.name === 'rest-api')?.status).toBe('warn');
    expect(r.report?.checks.find((c) => c.name === 'application-passwords')?.status).toBe('skip');
  });

  it('a rewrite that drops the Authorization header (works on ?rest_route=): exit 4, the fix for that server', async () => {
    const url = await site(
      wordpress({
        headers: { server: 'Apache/2.4.62 (Debian)' },
        me: (auth, form) =>
          form === 'plain' && auth === GOOD
            ? [200, { id: 2, roles: ['editor'], capabilities: editorCaps }]
            : [401, NOT_LOGGED_IN],
      }),
    );
    const r = await doctor(url);
    expect(r.code).toBe(4);
    expect(r.report?.server).toBe('apache');
    expect(r.failed?.name).toBe('authorization');
    expect(r.failed?.summary).toContain('lost on the rewritten /wp-json/');
    expect(r.failed?.likely).toBeUndefined();
    expect(r.failed?.fix).toEqual([expect.stringContaining('CGIPassAuth On')]);
  });

  it('a header stripped everywhere on nginx: a likely cause, the nginx fix only', async () => {
    const url = await site(
      wordpress({ headers: { server: 'nginx/1.24.0' }, me: () => [401, NOT_LOGGED_IN] }),
    );
    const r = await doctor(url);
    expect(r.code).toBe(4);
    expect(r.failed?.likely).toBe(true);
    expect(r.failed?.fix?.[0]).toContain('fastcgi_param HTTP_AUTHORIZATION');
    expect(r.failed?.fix?.join(' ')).not.toContain('CGIPassAuth');
  });

  it('WordPress names the refused login: the header arrives, so the password or username is wrong', async () => {
    const url = await site(
      wordpress({
        me: (auth) =>
          auth
            ? [
                401,
                {
                  code: 'incorrect_password',
                  message: 'The provided password is an invalid application password.',
                  data: { status: 401 },
                },
              ]
            : [401, NOT_LOGGED_IN],
      }),
    );
    const r = await doctor(url);
    expect(r.code).toBe(4);
    expect(r.failed?.summary).toContain('the username or the Application Password is wrong');
    expect(r.failed?.likely).toBeUndefined();
  });

  it('an Author account: it may publish but not sync, exit 4 naming the role', async () => {
    const url = await site(
      wordpress({
        me: (auth) =>
          auth === GOOD
            ? [200, { id: 3, roles: ['author'], capabilities: { publish_posts: true } }]
            : [401, NOT_LOGGED_IN],
      }),
    );
    const r = await doctor(url);
    expect(r.code).toBe(4);
    expect(r.failed?.name).toBe('account');
    expect(r.failed?.summary).toContain('(author) can publish but not sync');
  });

  it('without an account: anonymous checks only, the account skipped, the password never asked for', async () => {
    const url = await site(wordpress({}));
    const r = await doctor(url, false);
    expect(r.code).toBe(0);
    expect(r.report?.checks.filter((c) => c.status === 'skip').map((c) => c.name)).toEqual([
      'authorization',
      'account',
    ]);
  });

  it('a site that cannot be reached: exit 7', async () => {
    const url = await site(() => undefined);
    servers.splice(0).forEach((s) => s.close());
    const r = await doctor(url.replace(/:\d+$/, ':1'));
    expect(r.code).toBe(7);
    expect(r.failed?.name).toBe('reach');
  });

  it('the password never reaches the output', async () => {
    const url = await site(wordpress({ me: () => [401, NOT_LOGGED_IN] }));
    const r = await doctor(url);
    for (const out of [r.stdout, r.stderr]) {
      expect(out).not.toContain(PASSWORD);
      expect(out).not.toContain(PASSWORD.replace(/ /g, ''));
      expect(out).not.toContain(GOOD.slice(6));
    }
  });
});
