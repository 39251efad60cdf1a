// What a person's browser does on WordPress's "Authorize Application" page, as plain HTTP: log in with the
// login password (wp-login.php, cookies), open the page blogctl printed, and press Approve (or Reject). The form
// posts back to authorize-application.php (its no-JavaScript path), which redirects to the success URL with
// the new password; the browser then follows that redirect to blogctl's listener on 127.0.0.1.
import { request } from 'undici';

type Jar = Map<string, string>;

const cookieHeader = (jar: Jar): string => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

function keep(jar: Jar, setCookie: string | string[] | undefined): void {
  for (const line of ([] as string[]).concat(setCookie ?? [])) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    if (eq > 0) jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
  }
}

async function send(
  jar: Jar,
  url: string,
  init: { method?: 'GET' | 'POST'; form?: Record<string, string> } = {},
): Promise<{ status: number; location?: string; body: string }> {
  const res = await request(url, {
    method: init.method ?? 'GET',
    headers: {
      cookie: cookieHeader(jar),
      ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(init.form && { body: new URLSearchParams(init.form).toString() }),
  });
  keep(jar, res.headers['set-cookie']);
  const body = await res.body.text();
  const location = res.headers['location'];
  return { status: res.statusCode, body, ...(typeof location === 'string' && { location }) };
}

/**
 * Logs in as `username` (its login password) and answers the authorize page at `pageUrl`. Returns the status of
 * the final request, the one to blogctl's listener.
 */
export async function answerAuthorizePage(
  baseUrl: string,
  username: string,
  loginPassword: string,
  pageUrl: string,
  choice: 'approve' | 'reject',
): Promise<{ status: number; body: string }> {
  const jar: Jar = new Map([['wordpress_test_cookie', 'WP%20Cookie%20check']]);
  const login = await send(jar, `${baseUrl}/wp-login.php`, {
    method: 'POST',
    form: { log: username, pwd: loginPassword, 'wp-submit': 'Log In', testcookie: '1' },
  });
  if (login.status !== 302) throw new Error(`login failed: HTTP ${login.status}`);
  const page = await send(jar, pageUrl);
  if (page.status !== 200) throw new Error(`authorize page: HTTP ${page.status}`);
  const field = (name: string): string => {
    const m = new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(page.body);
    if (!m) throw new Error(`authorize page has no ${name} field`);
    return m[1]!.replace(/&amp;/g, '&');
  };
  const answer = await send(jar, `${baseUrl}/wp-admin/authorize-application.php`, {
    method: 'POST',
    form: {
      action: 'authorize_application_password',
      _wpnonce: field('_wpnonce'),
      app_name: field('app_name'),
      app_id: field('app_id'),
      success_url: field('success_url'),
      reject_url: field('reject_url'),
      [choice]:
        choice === 'approve'
          ? 'Yes, I approve of this connection'
          : 'No, I do not approve of this connection',
    },
  });
  if (answer.status !== 302 || !answer.location)
    throw new Error(`approve: HTTP ${answer.status}, no redirect`);
  // The browser follows WordPress's redirect to blogctl's listener.
  const final = await send(new Map(), answer.location);
  return { status: final.status, body: final.body };
}
