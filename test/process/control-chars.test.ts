// Escape sequences planted in data (a blog title or content anyone on a shared account can set) are shown
// on a terminal, never obeyed: OSC 52 (writes the clipboard), ESC[2J (clears the screen), C0 and C1
// controls. `--json` and piped output keep the data exact. A real terminal (tmux, test/helpers/pty.ts) and
// real pipes, against a server on 127.0.0.1 serving the hostile blogs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, tempConfigDir } from '../helpers/cli.js';
import { showScreen, TmuxServer, tmuxAvailable, type Terminal } from '../helpers/pty.js';
import { skipWithout } from '../helpers/tools.js';

/** Without tmux (not installed; `.ci/run` installs it and requires it) the terminal tests are skipped. */
const noTmux = skipWithout('the terminal tests of test/process/control-chars.test.ts', {
  tmux: tmuxAvailable(),
});

const ROOT = resolve(import.meta.dirname, '../..');
const ESC = '\u001b';
const OSC52 = `${ESC}]52;c;aGFja2Vk${ESC}\\`;
const CLEAR = `${ESC}[2J${ESC}[H`;
/** The title: the clipboard write, a screen clear, a bell, a C1 CSI and a right-to-left override. */
const TITLE = `Hello${OSC52} world${CLEAR} bell\u0007 csi\u009b31m rlo\u202eevil`;
const CONTENT = `<p>First ${ESC}]0;pwned${ESC}\\ paragraph${CLEAR}</p>`;
const BLOGS = [
  {
    _id: 'blog-evil',
    title: TITLE,
    content: CONTENT,
    createdAt: '2026-01-02T03:04:05.000Z',
    status: 'generated',
  },
];

let server: Server;
let url = '';
const tmux = new TmuxServer();
const env = { BLOGCTL_API_KEY: 'sk_test_control_chars_key', BLOGCTL_CONFIG_DIR: tempConfigDir() };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(BLOGS));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  tmux.kill();
  await new Promise((r) => server.close(r));
});

describe('piped and --json: the data exactly as the server sent it', () => {
  it('blog list --json, blog show --json and --field title keep every byte', async () => {
    const list = await runCli(['--base-url', url, 'blog', 'list', '--json'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)[0].title).toBe(TITLE);
    const show = await runCli(['--base-url', url, 'blog', 'show', 'blog-evil', '--json'], { env });
    expect(JSON.parse(show.stdout)).toMatchObject({ title: TITLE, content: CONTENT });
    const field = await runCli(['--base-url', url, 'blog', 'show', 'blog-evil', '--field', 'title'], { env });
    expect(field.stdout).toBe(TITLE);
  });

  it('blog list piped (TSV) keeps the title as sent', async () => {
    const list = await runCli(['--base-url', url, 'blog', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(TITLE);
  });
});

describe.skipIf(noTmux)('on a terminal: shown, not obeyed', () => {
  async function terminal(pager?: string): Promise<Terminal> {
    return tmux.open({
      cwd: ROOT,
      cols: 160,
      rows: 40,
      env: {
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: tmpdir(),
        LANG: 'C.UTF-8',
        ...cliEnv(env),
        ...(pager !== undefined && { BLOGCTL_PAGER: pager }),
      },
    });
  }

  it.each([
    ['blog list', 'blog list', undefined],
    ['blog show', 'blog show blog-evil', 'cat'],
    // A pager that passes everything through as it is: what blogctl hands it must already be safe.
    ['blog show through a pager', 'blog show blog-evil', 'tee'],
  ])('%s', async (_name, words, pager) => {
    const term = await terminal(pager);
    try {
      // A line before the command: a screen clear that is obeyed erases it.
      term.run('echo BEFORE-THE-COMMAND');
      await term.exitCode();
      term.run(`node bin/blogctl.js --base-url ${url} ${words}`);
      expect(await term.exitCode()).toBe(0);
      const screen = term.screen();
      showScreen(words, screen);
      expect(screen).toContain('BEFORE-THE-COMMAND');
      // Each control in caret notation: ESC as ^[, BEL as ^G, the C1 CSI as ^[[.
      expect(screen).toContain('Hello^[]52;c;aGFja2Vk^[\\');
      expect(screen).toContain('world^[[2J^[[H');
      expect(screen).toContain('bell^G');
      expect(screen).toContain('csi^[[31m');
      expect(screen).toContain('rlo<U+202E>evil');
      if (words.startsWith('blog show')) expect(screen).toContain('^[]0;pwned^[\\');
      // The clipboard was not written: tmux keeps an OSC 52 it obeys as a paste buffer.
      expect(tmux.tmux(['list-buffers'])).toBe('');
    } finally {
      term.close();
    }
  });
});
