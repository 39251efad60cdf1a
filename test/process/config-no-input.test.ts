// The --no-input flag itself (not only BLOGCTL_NO_INPUT), at a real terminal where the CLI would otherwise
// ask: nothing is asked, the command fails with exit 2 naming what to pass, and nothing is stored or sent.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TmuxServer, tmuxAvailable, type Terminal } from '../helpers/pty.js';
import { skipWithout } from '../helpers/tools.js';

/** Without tmux (not installed; `.ci/run` installs it and requires it) the terminal tests are skipped. */
const noTmux = skipWithout('the terminal tests of test/process/config-no-input.test.ts', {
  tmux: tmuxAvailable(),
});

const ROOT = resolve(import.meta.dirname, '../..');
const tmux = new TmuxServer();
const dirs: string[] = [];
afterAll(() => {
  tmux.kill();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function terminal(): Promise<{ term: Terminal; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-noinput-'));
  dirs.push(dir);
  const term = await tmux.open({
    cwd: ROOT,
    cols: 160,
    rows: 40,
    // No CI and no BLOGCTL_NO_INPUT: on this terminal the CLI would ask.
    env: {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: tmpdir(),
      LANG: 'C.UTF-8',
      BLOGCTL_CONFIG_DIR: dir,
    },
  });
  return { term, dir };
}

// An inquirer prompt starts with "?" and the question; none must appear.
const PROMPT = /^\? /m;

describe.skipIf(noTmux)('--no-input on a terminal', () => {
  it('blog create: the same command asks without it, fails naming the flags with it', async () => {
    const { term } = await terminal();
    term.run('node bin/blogctl.js --sandbox blog create -k espresso');
    await term.waitFor(/^\? .*[Ll]anguage/m);
    term.press('C-c');
    await term.exitCode();
    term.press('C-l');
    term.run('clear; node bin/blogctl.js --sandbox --no-input blog create -k espresso');
    expect(await term.exitCode()).toBe(2);
    const screen = term.screen();
    expect(screen).not.toMatch(PROMPT);
    expect(screen).toMatch(/--language/);
    expect(screen).toMatch(/--no-input is set/);
    term.close();
  });

  it('auth login: no hidden prompt for the key, nothing stored', async () => {
    const { term, dir } = await terminal();
    term.run('node bin/blogctl.js --base-url http://127.0.0.1:5102 auth login --no-input');
    expect(await term.exitCode()).toBe(2);
    const screen = term.screen();
    expect(screen).not.toMatch(PROMPT);
    expect(screen).toContain(
      'no API key given and cannot prompt (--no-input is set): pipe it in with --with-key, or set BLOGCTL_API_KEY',
    );
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []).toEqual([]);
    term.close();
  });

  it('wp sites add: no prompt for the Application Password', async () => {
    const { term, dir } = await terminal();
    term.run('node bin/blogctl.js --no-input wp sites add blog --url https://blog.example --username editor');
    expect(await term.exitCode()).toBe(2);
    const screen = term.screen();
    expect(screen).not.toMatch(PROMPT);
    expect(screen).toMatch(/--password-stdin|BLOGCTL_WP_PASSWORD/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([]);
    term.close();
  });
});
