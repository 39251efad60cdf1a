// `wp sites add --web` (src/sites/web-login.ts) against loopback sites: the authorize page comes from the REST
// index and must be the site's own; on http:// the password arrives at a one-shot listener on 127.0.0.1 (a
// password sent back for another site, or a rejection, stores nothing); on https:// WordPress refuses an http://
// callback, so the page opens without one and the password is pasted. The full exchange with the real
// WordPress is test/e2e/web-login.test.ts.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, CancelledError } from '../../src/errors.js';
import { webLogin, type WebLoginIo } from '../../src/sites/web-login.js';
import { tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { selfSignedCert } from '../helpers/tls.js';
import { waitFor } from '../helpers/wait.js';

guardStrayOutput();

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A site whose REST index advertises `authorize` (a path on the site, or a whole URL). */
function wordpress(authorize: string | undefined): Handler {
  return (req, res) => {
    const origin = `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${req.headers.host}`;
    const url = new URL(req.url ?? '/', origin);
    if (url.searchParams.get('rest_route') === '/') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          namespaces: ['wp/v2'],
          authentication:
            authorize === undefined
              ? []
              : {
                  'application-passwords': {
                    endpoints: {
                      authorization: authorize.startsWith('http') ? authorize : origin + authorize,
                    },
                  },
                },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('home');
  };
}

async function httpSite(handler: Handler): Promise<string> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function recorder(answers: { username?: string; password?: string } = {}) {
  const told: string[] = [];
  const asked: string[] = [];
  const io: WebLoginIo = {
    tell: (line) => told.push(line),
    askUsername: () => (asked.push('username'), Promise.resolve(answers.username ?? 'editor')),
    askPassword: () => (
      asked.push('password'),
      Promise.resolve(answers.password ?? 'pasted pass word 1234 5678')
    ),
  };
  const page = async (): Promise<URL> => {
    let found: string | undefined;
    await waitFor(
      () => (found = told.find((l) => l.includes('authorize-application.php'))) !== undefined,
      'the page',
    );
    return new URL(found!.trim());
  };
  return { io, told, asked, page };
}

const options = (siteUrl: string, extra: Partial<Parameters<typeof webLogin>[0]> = {}) => ({
  siteUrl,
  appName: 'blogctl (t) on host',
  openBrowser: false,
  timeoutMs: 20_000,
  http: {},
  ...extra,
});

describe('wp sites add --web: the flow', () => {
  it('http:// site: the page carries a loopback success URL; the password WordPress sends there is returned', async () => {
    const site = await httpSite(wordpress('/wp-admin/authorize-application.php'));
    const r = recorder();
    const login = webLogin(options(site), r.io);
    const page = await r.page();
    expect(page.origin + page.pathname).toBe(`${site}/wp-admin/authorize-application.php`);
    expect(page.searchParams.get('app_id')).toMatch(/^[0-9a-f-]{36}$/);
    const success = new URL(page.searchParams.get('success_url')!);
    expect(success.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // A request to any other path of the listener is not the callback.
    expect((await fetch(new URL('/blogctl/guess', success))).status).toBe(404);
    success.searchParams.set('site_url', site);
    success.searchParams.set('user_login', 'editor');
    success.searchParams.set('password', 'abcd efgh ijkl mnop qrst uvwx');
    const browser = await fetch(success);
    expect(await browser.text()).toContain('blogctl has the Application Password');
    expect(await login).toEqual({
      username: 'editor',
      password: 'abcd efgh ijkl mnop qrst uvwx',
      via: 'callback',
    });
    expect(r.asked).toEqual([]);
  });

  it('a password sent back for another site is refused', async () => {
    const site = await httpSite(wordpress('/wp-admin/authorize-application.php'));
    const r = recorder();
    const login = webLogin(options(site), r.io).catch((e: unknown) => e);
    const success = new URL((await r.page()).searchParams.get('success_url')!);
    success.searchParams.set('site_url', 'http://elsewhere.example');
    success.searchParams.set('user_login', 'editor');
    success.searchParams.set('password', 'abcd efgh ijkl mnop qrst uvwx');
    await fetch(success);
    expect(await login).toBeInstanceOf(AuthError);
  });

  it('declined in the browser: cancelled (exit 3)', async () => {
    const site = await httpSite(wordpress('/wp-admin/authorize-application.php'));
    const r = recorder();
    const login = webLogin(options(site), r.io).catch((e: unknown) => e);
    await fetch((await r.page()).searchParams.get('reject_url')!);
    expect(await login).toBeInstanceOf(CancelledError);
  });

  it('no authorize page in the index (Application Passwords off): exit 4 pointing to wp doctor', async () => {
    const site = await httpSite(wordpress(undefined));
    const error = await webLogin(options(site), recorder().io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).context.hints?.join(' ')).toContain('wp doctor');
  });

  it("an authorize page on another host is not opened: the owner's login stays on the site", async () => {
    const site = await httpSite(wordpress('https://phish.example/wp-admin/authorize-application.php'));
    const r = recorder();
    const error = await webLogin(options(site), r.io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(r.told.join('\n')).not.toContain('phish.example');
  });

  it('https:// site: the page opens without a callback and the password WordPress shows is pasted', async () => {
    const tls = selfSignedCert();
    const cert = tls.cert;
    const server = createHttpsServer(tls, wordpress('/wp-admin/authorize-application.php'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const site = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dispatcher = new Agent({ connect: { ca: cert } });
    closers.push(() => void dispatcher.close());
    const r = recorder({ password: 'pasted pass word 1234 5678' });
    const login = await webLogin(options(site, { http: { dispatcher } }), r.io);
    expect(login).toEqual({ username: 'editor', password: 'pasted pass word 1234 5678', via: 'paste' });
    expect(r.asked).toEqual(['username', 'password']);
    const page = await r.page();
    expect(page.searchParams.has('success_url')).toBe(false);
  });
});

describe('wp sites add --web: the command', () => {
  it('with CI set: exit 2, naming CI (it waits for a person)', async () => {
    const r = await runInProcess(['wp', 'sites', 'add', 'w', '--url', 'http://127.0.0.1:9', '--web'], {
      env: { BLOGCTL_CONFIG_DIR: tempConfigDir(), CI: 'true' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--web waits for a person');
    expect(r.stderr).toContain('CI is set');
  });

  it('with --password-stdin: exit 2', async () => {
    const r = await runInProcess(
      ['wp', 'sites', 'add', 'w', '--url', 'http://127.0.0.1:9', '--web', '--password-stdin'],
      {
        env: { BLOGCTL_CONFIG_DIR: tempConfigDir() },
        input: 'x',
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--web and --password-stdin');
  });
});
