// First run at a terminal (tmux at 80 columns): `auth login` with no base URL anywhere asks for one (typed
// with the API prefix, it is stored without it), then for the key, checks it against the service and
// stores both.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { showScreen, TmuxServer, tmuxAvailable } from '../helpers/pty.js';

const ROOT = resolve(import.meta.dirname, '../..');
const tmux = new TmuxServer();
const dirs: string[] = [];
let sandbox: TestSandbox;

beforeAll(async () => {
  if (!tmuxAvailable()) throw new Error('tmux is required for the terminal tests (apt-get install -y tmux)');
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  tmux.kill();
  await sandbox?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('auth login on a terminal', () => {
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
