// `wp sites add --web`: the site mints the Application Password after its owner approves blogctl in a browser
// (WordPress's authorize-application.php, whose URL the REST index advertises), so nobody copies one by hand.
//
// WordPress hands the new password back to a `success_url` it redirects the browser to. It accepts an http://
// success URL only when the site itself runs as a `local` environment (wp_is_authorize_application_redirect_url_valid
// in wp-admin/includes/user.php), which is also the only way WordPress offers Application Passwords over plain
// HTTP. So: a site on http:// that advertises Application Passwords gets a one-shot listener on 127.0.0.1 as its
// success URL, and the password arrives by itself; a site on https:// (where WordPress would refuse an http://
// callback) is opened without one, WordPress shows the new password once, and it is pasted at a hidden prompt.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError, CancelledError, InterruptedError, UnavailableError } from '../errors.js';
import { HttpClient } from '../http/client.js';
import type { HttpClientOptions } from '../http/spec.js';
import { registerSecret } from '../output/redact.js';
import { restRootFromLink } from '../wordpress/client.js';

/** blogctl's application id: WordPress lists every password minted through this flow under it. */
const WEB_LOGIN_APP_ID = '5e0c3b8e-7a4f-4d5a-9a57-2b1c0f6d8e41';

export interface WebLoginIo {
  /** A line for the person (stderr). */
  tell(line: string): void;
  /** Asks for the password WordPress shows (hidden), where the site cannot call back. */
  askPassword(message: string): Promise<string>;
  /** Asks for the login name, where WordPress does not hand it back. */
  askUsername(): Promise<string>;
}

export interface WebLoginOptions {
  siteUrl: string;
  /** The name the password gets in WordPress's list (Users → Profile → Application Passwords). */
  appName: string;
  /** Open the page in the browser (a person at a terminal, not --no-browser). */
  openBrowser: boolean;
  /** The login name when already known (--username). */
  username?: string;
  /** How long to wait for the approval. */
  timeoutMs: number;
  signal?: AbortSignal;
  http: Omit<HttpClientOptions, 'baseUrl'>;
  /** Opens a URL in the browser; the platform's opener by default. */
  open?: (url: string) => void;
}

export interface WebLoginResult {
  username: string;
  password: string;
  /** How the password arrived. */
  via: 'callback' | 'paste';
}

/** Where the site's owner approves blogctl: the REST index's `authentication.application-passwords` endpoint. */
export async function authorizeEndpoint(
  siteUrl: string,
  httpOptions: Omit<HttpClientOptions, 'baseUrl'>,
): Promise<string | undefined> {
  const http = new HttpClient({ ...httpOptions, baseUrl: siteUrl });
  try {
    const home = await http.request({
      method: 'GET',
      path: `${siteUrl}/`,
      acceptText: true,
      passStatuses: [301, 302, 303, 307, 308, 401, 403, 404, 500],
      label: 'find the WordPress REST API',
    });
    const linked = restRootFromLink(home.headers['link']);
    const root =
      linked !== undefined && new URL(linked).origin === new URL(siteUrl).origin
        ? linked
        : `${siteUrl}/?rest_route=/`;
    const index = await http.request({
      method: 'GET',
      path: root,
      acceptText: true,
      passStatuses: [401, 403, 404],
      label: 'read the WordPress REST index',
    });
    const auth = (index.body as { authentication?: unknown } | undefined)?.authentication;
    const endpoint =
      auth && typeof auth === 'object' && !Array.isArray(auth)
        ? (auth as { 'application-passwords'?: { endpoints?: { authorization?: unknown } } })[
            'application-passwords'
          ]?.endpoints?.authorization
        : undefined;
    if (typeof endpoint !== 'string') return undefined;
    // The page must be the site's own: a hostile index cannot send the owner's login elsewhere.
    return new URL(endpoint).origin === new URL(siteUrl).origin ? endpoint : undefined;
  } finally {
    await http.close();
  }
}

export async function webLogin(options: WebLoginOptions, io: WebLoginIo): Promise<WebLoginResult> {
  const endpoint = await authorizeEndpoint(options.siteUrl, options.http);
  if (endpoint === undefined)
    throw new AuthError(
      `${options.siteUrl} does not offer to mint Application Passwords (its REST index advertises no authorization page)`,
      {
        hints: [
          '`blogctl wp doctor ' + options.siteUrl + '` names the cause',
          'or create one by hand (Users → Profile → Application Passwords) and add the site without --web',
        ],
      },
    );
  const page = new URL(endpoint);
  page.searchParams.set('app_name', options.appName);
  page.searchParams.set('app_id', WEB_LOGIN_APP_ID);
  if (new URL(options.siteUrl).protocol === 'http:') return callbackLogin(page, options, io);
  return pasteLogin(page, options, io);
}

/** The password arrives at a one-shot listener on 127.0.0.1, in the query of the redirect WordPress sends. */
async function callbackLogin(page: URL, options: WebLoginOptions, io: WebLoginIo): Promise<WebLoginResult> {
  const state = randomBytes(16).toString('hex');
  let settle: (result: { username: string; password: string } | Error) => void = () => undefined;
  const outcome = new Promise<{ username: string; password: string } | Error>(
    (resolve) => (settle = resolve),
  );
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== `/blogctl/${state}`) {
      res.writeHead(404).end();
      return;
    }
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`<!doctype html><meta charset="utf-8"><title>blogctl</title><p>${text}</p>`);
    };
    if (url.searchParams.get('success') === 'false') {
      answer(200, 'You declined: blogctl got no password. You can close this tab.');
      settle(new CancelledError('the Application Password was declined in the browser; nothing was stored'));
      return;
    }
    const password = url.searchParams.get('password');
    const username = url.searchParams.get('user_login');
    const from = url.searchParams.get('site_url');
    registerSecret(password ?? undefined);
    if (!password || !username) {
      answer(400, 'WordPress sent no password. Go back to the terminal.');
      settle(new UnavailableError('the site redirected back without a password; nothing was stored'));
      return;
    }
    if (from && sameHost(from, options.siteUrl) === false) {
      answer(400, 'That password is for another site. Go back to the terminal.');
      settle(
        new AuthError(`the password came back from ${from}, not ${options.siteUrl}; nothing was stored`),
      );
      return;
    }
    answer(200, 'blogctl has the Application Password. You can close this tab.');
    settle({ username, password });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const callback = `http://127.0.0.1:${(server.address() as AddressInfo).port}/blogctl/${state}`;
  page.searchParams.set('success_url', callback);
  page.searchParams.set('reject_url', `${callback}?success=false`);
  const timer = setTimeout(
    () =>
      settle(
        new UnavailableError(
          `no approval arrived within ${Math.round(options.timeoutMs / 60_000)} minutes; nothing was stored`,
        ),
      ),
    options.timeoutMs,
  );
  const onAbort = () => settle(new InterruptedError('interrupted while waiting for the approval'));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    show(page, options, io, 'Approve blogctl in your browser (log in to WordPress first if it asks):');
    io.tell('Waiting for the approval… (Ctrl-C to stop)');
    const result = await outcome;
    if (result instanceof Error) throw result;
    return { ...result, via: 'callback' };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** WordPress shows the new password once on the page; the person pastes it at a hidden prompt. */
async function pasteLogin(page: URL, options: WebLoginOptions, io: WebLoginIo): Promise<WebLoginResult> {
  show(
    page,
    options,
    io,
    'Approve blogctl in your browser; WordPress then shows a new Application Password once (it calls back to this machine only for sites in a local environment):',
  );
  const username = options.username ?? (await io.askUsername());
  const password = await io.askPassword('Paste the Application Password WordPress shows');
  registerSecret(password);
  return { username, password, via: 'paste' };
}

function show(page: URL, options: WebLoginOptions, io: WebLoginIo, lead: string): void {
  io.tell(lead);
  io.tell(`  ${page.toString()}`);
  if (options.openBrowser) (options.open ?? openInBrowser)(page.toString());
}

function sameHost(a: string, b: string): boolean | undefined {
  try {
    return new URL(a).host === new URL(b).host;
  } catch {
    return undefined;
  }
}

/** The platform's own opener, detached; a missing one leaves the printed URL to the person. */
export function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The URL is printed above.
  }
}
