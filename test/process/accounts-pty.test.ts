// Accounts in a real terminal (tmux at 80 columns): `auth logout` and `wp sites remove` ask with the real
// prompt and do what the answer says; `auth status` lists the profiles in a table that fits. None of these
// talk to a service: the active profile (`default`) has no key, so there is nothing to check.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { showScreen, TmuxServer, tmuxAvailable, type Terminal } from '../helpers/pty.js';
import { skipWithout } from '../helpers/tools.js';

/** Without tmux (not installed; `.ci/run` installs it and requires it) the terminal tests are skipped. */
const noTmux = skipWithout('the terminal tests of test/process/accounts-pty.test.ts', {
  tmux: tmuxAvailable(),
});

const ROOT = resolve(import.meta.dirname, '../..');
const WORK_KEY = 'sk_work_0123456789abcdef';
const tmux = new TmuxServer();
const dirs: string[] = [];

afterAll(() => {
  tmux.kill();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** `default` (nothing stored) and `work` (a key and a base URL), and one WordPress site `blog`. */
function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-accounts-pty-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      profiles: { work: { baseUrl: 'https://api.example.com' } },
      sites: { blog: { url: 'https://blog.example.com', username: 'ed' } },
    }),
    { mode: 0o600 },
  );
  writeFileSync(
    join(dir, 'credentials.json'),
    JSON.stringify({ apiKeys: { work: WORK_KEY }, sitePasswords: { blog: 'abcd efgh ijkl mnop' } }),
    { mode: 0o600 },
  );
  return dir;
}

const read = (dir: string) => ({
  config: JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>,
  credentials: JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as Record<string, unknown>,
});

function terminal(dir: string): Promise<Terminal> {
  return tmux.open({
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
}

async function answer(dir: string, command: string, question: RegExp, key: 'y' | 'n') {
  const term = await terminal(dir);
  term.run(`node bin/blogctl.js ${command}`);
  await term.waitFor(question);
  term.type(key);
  term.press('Enter');
  const code = await term.exitCode();
  const screen = term.screen();
  term.close();
  showScreen(`${command}, answered ${key}`, screen);
  return { code, screen };
}

describe.skipIf(noTmux)('destructive account commands on a terminal', () => {
  it('auth logout: "n" exits 3 and keeps the profile; "y" removes its key and base URL', async () => {
    const dir = configDir();
    const before = read(dir);
    const no = await answer(dir, '--profile work auth logout', /Log out of "work"/, 'n');
    expect(no.code, no.screen).toBe(3);
    expect(no.screen).toContain(
      `Log out of "work", removing it (key …${WORK_KEY.slice(-4)}, https://api.example.com)?`,
    );
    expect(no.screen).not.toContain(WORK_KEY);
    expect(read(dir)).toEqual(before);

    const yes = await answer(dir, '--profile work auth logout', /Log out of "work"/, 'y');
    expect(yes.code, yes.screen).toBe(0);
    expect(read(dir).config['profiles']).toEqual({});
    expect(read(dir).credentials['apiKeys']).toEqual({});
  });

  it('wp sites remove: "y" removes the site and its password', async () => {
    const dir = configDir();
    const yes = await answer(dir, 'wp sites remove blog', /Remove WordPress site "blog"/, 'y');
    expect(yes.code, yes.screen).toBe(0);
    expect(read(dir).config['sites']).toEqual({});
    expect(read(dir).credentials['sitePasswords']).toEqual({});
  });
});

describe.skipIf(noTmux)('auth status on an 80-column terminal', () => {
  it('a table of every profile with the active one marked, then the active one’s state; nothing wider than 80', async () => {
    const dir = configDir();
    const term = await terminal(dir);
    term.run('node bin/blogctl.js auth status; echo "exit=$?"');
    await term.waitFor(/exit=\d+/);
    const screen = term.screen();
    term.close();
    showScreen('auth status at 80 columns', screen);
    expect(screen).toMatch(/PROFILE +BASE URL +API KEY +ACTIVE/);
    expect(screen).toMatch(/default +\(not set\) +\(none\) +yes/);
    expect(screen).toMatch(new RegExp(`work +https://api\\.example\\.com +…${WORK_KEY.slice(-4)} *\n`));
    expect(screen).toContain('profile:   default (active)');
    // No key for the active profile: exit 4, as before.
    expect(screen).toContain('exit=4');
    expect(screen).not.toContain(WORK_KEY);
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
