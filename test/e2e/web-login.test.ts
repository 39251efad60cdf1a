// `blogctl wp sites add --web` against the real WordPress: blogctl prints WordPress's "Authorize Application"
// page with a one-shot listener on 127.0.0.1 as its success URL; the test answers the page as a browser would
// (approve-application.ts: log in, press Approve, follow the redirect); the password WordPress minted arrives at
// blogctl, is checked against the site and stored (0600), and never printed. Reject stores nothing (exit 3).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { answerAuthorizePage } from './approve-application.js';
import { browserMissing, launchChromium } from './browser.js';
import { wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-web-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Starts `wp sites add ID --web --no-browser`; resolves with the page it prints, then with how it ended. */
function addWeb(wp: WordPressInstance, id: string, config: string) {
  const child = spawn(
    process.execPath,
    [BIN, 'wp', 'sites', 'add', id, '--url', wp.baseUrl, '--web', '--no-browser'],
    {
      env: cliEnv({ BLOGCTL_CONFIG_DIR: config }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  const page = (async () => {
    let url: string | undefined;
    await waitFor(
      () => (url = /(http:\/\/\S+authorize-application\.php\S+)/.exec(stderr)?.[1]) !== undefined,
      'the authorize page on stderr',
    );
    return url!;
  })();
  return { page, ended, kill: () => child.kill('SIGKILL') };
}

describe.each(instances)(
  'blogctl wp sites add --web with $permalinks permalinks',
  (wp: WordPressInstance) => {
    it('approve: the minted password is stored 0600, verified, and never printed', async () => {
      const config = join(work, `${wp.permalinks}-approve`);
      const run = addWeb(wp, 'webby', config);
      try {
        const page = await run.page;
        expect(new URL(page).searchParams.get('success_url')).toMatch(
          /^http:\/\/127\.0\.0\.1:\d+\/blogctl\/[0-9a-f]{32}$/,
        );
        const browser = await answerAuthorizePage(wp.baseUrl, wp.username, wp.adminPassword, page, 'approve');
        expect(browser.status).toBe(200);
        expect(browser.body).toContain('blogctl has the Application Password');
        const { code, stdout, stderr } = await run.ended;
        expect(code, stderr).toBe(0);
        const credentials = JSON.parse(await readFile(join(config, 'credentials.json'), 'utf8')) as {
          sitePasswords: Record<string, string>;
        };
        const password = credentials.sitePasswords['webby']!;
        expect(password).toMatch(/^[A-Za-z0-9 ]{24,}$/);
        expect((await stat(join(config, 'credentials.json'))).mode & 0o777).toBe(0o600);
        const profile = JSON.parse(await readFile(join(config, 'config.json'), 'utf8')) as {
          sites: Record<string, { username: string; isWebsiteValid?: boolean }>;
        };
        expect(profile.sites['webby']).toMatchObject({ username: wp.username, isWebsiteValid: true });
        for (const out of [stdout, stderr, browser.body]) {
          expect(out).not.toContain(password);
          expect(out).not.toContain(password.replace(/ /g, ''));
        }
      } finally {
        run.kill();
      }
    });

    it('reject: nothing stored, exit 3', async () => {
      const config = join(work, `${wp.permalinks}-reject`);
      const run = addWeb(wp, 'nope', config);
      try {
        const browser = await answerAuthorizePage(
          wp.baseUrl,
          wp.username,
          wp.adminPassword,
          await run.page,
          'reject',
        );
        expect(browser.body).toContain('You declined');
        const { code } = await run.ended;
        expect(code).toBe(3);
        await expect(readFile(join(config, 'credentials.json'), 'utf8')).rejects.toThrow();
      } finally {
        run.kill();
      }
    });

    it.skipIf(browserMissing())(
      'in a real browser (Chromium): log in, approve, and the password arrives',
      async () => {
        const config = join(work, `${wp.permalinks}-chromium`);
        const run = addWeb(wp, 'chromed', config);
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          await page.goto(`${wp.baseUrl}/wp-login.php`);
          await page.fill('#user_login', wp.username);
          await page.fill('#user_pass', wp.adminPassword);
          await Promise.all([page.waitForURL(/wp-admin/), page.click('#wp-submit')]);
          await page.goto(await run.page);
          // WordPress's own script (auth-app.js) mints the password over REST and sends the browser on.
          await Promise.all([
            page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/blogctl\//),
            page.click('#approve'),
          ]);
          expect(await page.textContent('body')).toContain('blogctl has the Application Password');
          const { code, stderr } = await run.ended;
          expect(code, stderr).toBe(0);
          const credentials = JSON.parse(await readFile(join(config, 'credentials.json'), 'utf8')) as {
            sitePasswords: Record<string, string>;
          };
          expect(credentials.sitePasswords['chromed']).toMatch(/^[A-Za-z0-9 ]{24,}$/);
        } finally {
          await browser.close();
          run.kill();
        }
      },
    );
  },
);
