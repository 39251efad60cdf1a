// First run at a terminal (tmux at 80 columns): `auth login` with no base URL anywhere asks for one (typed
// with the API prefix, it is stored without it), then for the key, checks it against the service and
// stores both. `wp publish` with no title from any source asks for one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { showScreen, TmuxServer, tmuxAvailable } from '../helpers/pty.js';
import { skipWithout } from '../helpers/tools.js';

/** Without tmux (not installed; `.ci/run` installs it and requires it) the terminal tests are skipped. */
const noTmux = skipWithout('the terminal tests of test/process/first-run-pty.test.ts', {
  tmux: tmuxAvailable(),
});

const ROOT = resolve(import.meta.dirname, '../..');
const tmux = new TmuxServer();
const dirs: string[] = [];
let sandbox: TestSandbox;
let wp: FakeWordPress;

beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
});
afterAll(async () => {
  tmux.kill();
  await Promise.all([sandbox?.close(), wp?.close()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe.skipIf(noTmux)('auth login on a terminal', () => {
  it('asks for the base URL when none is configured, then the key; stores both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-first-run-'));
    dirs.push(dir);
    const term = await tmux.open({
      cwd: ROOT,
      cols: 80,
      rows: 30,
      env: {
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: tmpdir(),
        LANG: 'C.UTF-8',
        BLOGCTL_CONFIG_DIR: dir,
      },
    });
    term.run('node bin/blogctl.js auth login');
    await term.waitFor('Service base URL');
    term.type(`${sandbox.url}/api/v1/public/`);
    term.press('Enter');
    await term.waitFor('API key');
    term.type(sandbox.apiKey);
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('auth login, base URL and key typed', screen);
    expect(code, screen).toBe(0);
    expect(screen).not.toContain(sandbox.apiKey);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      profiles: Record<string, { baseUrl: string }>;
    };
    expect(config.profiles['default']?.baseUrl).toBe(sandbox.url);
    expect(readFileSync(join(dir, 'credentials.json'), 'utf8')).toContain(sandbox.apiKey);
    term.close();
  });
});

describe.skipIf(noTmux)('wp publish on a terminal', () => {
  it('asks for a title no source gives, then publishes with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-first-run-'));
    dirs.push(dir);
    const term = await tmux.open({
      cwd: ROOT,
      cols: 80,
      rows: 30,
      env: {
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: tmpdir(),
        LANG: 'C.UTF-8',
        BLOGCTL_CONFIG_DIR: dir,
        BLOGCTL_BASE_URL: sandbox.url,
        BLOGCTL_API_KEY: sandbox.apiKey,
        BLOGCTL_WP_PASSWORD: wp.password,
      },
    });
    term.run(
      `node bin/blogctl.js wp publish --url ${wp.url} --username ${wp.username} --content '<p>hi</p>'`,
    );
    await term.waitFor('Post title');
    term.type('Asked for at the prompt');
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('wp publish, title typed at the prompt', screen);
    expect(code, screen).toBe(0);
    expect(wp.posts.map((p) => p.title)).toContain('Asked for at the prompt');
    term.close();
  });
});
