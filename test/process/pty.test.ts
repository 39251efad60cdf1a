// The interactive flows in a real terminal: tmux runs bash, bash runs the built CLI, the test types like a
// person and reads the screen. Each flow's final screen is printed, so a reviewer sees what a person sees.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { BIN, cliEnv, runCli } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { ESC, showScreen, styleCodes, TmuxServer, tmuxAvailable, type Terminal } from '../helpers/pty.js';
import { skipWithout } from '../helpers/tools.js';

/** Without tmux (not installed; `.ci/run` installs it and requires it) the terminal tests are skipped. */
const noTmux = skipWithout('the terminal tests of test/process/pty.test.ts', { tmux: tmuxAvailable() });

const ROOT = resolve(import.meta.dirname, '../..');
const API = '/api/v1/public';
const API_KEY = `sk-test-${randomBytes(12).toString('hex')}`;

interface Sandbox {
  url: string;
  close(): Promise<void>;
}

interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

let sandbox: Sandbox;
/** Sits between the CLI and the sandbox and keeps every request, so a test can check exactly what was sent. */
let recorder: { url: string; requests: Recorded[]; server: Server };
const tmux = new TmuxServer();
const dirs: string[] = [];

function startRecorder(target: string): Promise<typeof recorder> {
  const requests: Recorded[] = [];
  const upstream = new URL(target);
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = raw.length ? raw.toString('utf8') : undefined;
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      } catch {
        // Kept as text.
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', body });
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(raw);
    });
  });
  return new Promise((resolvePromise) =>
    server.listen(0, '127.0.0.1', () =>
      resolvePromise({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server }),
    ),
  );
}

function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-pty-'));
  dirs.push(dir);
  return dir;
}

/** Every file under dir with its contents: "config unchanged" means this is equal before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out[path.slice(dir.length)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A terminal in the repository, with a clean environment: no CI (so the CLI may ask), no developer settings. */
function terminal(
  env: Record<string, string>,
  size: { cols?: number; rows?: number } = {},
): Promise<Terminal> {
  return tmux.open({
    cwd: ROOT,
    cols: size.cols ?? 110,
    rows: size.rows ?? 40,
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: tmpdir(), LANG: 'C.UTF-8', ...env },
  });
}

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${sandbox.url}${API}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...init.headers },
  });
}

async function createBlog(): Promise<{ _id: string; title: string }> {
  const res = await api('/create-blog', {
    method: 'POST',
    body: JSON.stringify({
      blogParams: {
        topicKeywords: ['pour over'],
        language: { name: 'English', value: 'English' },
        toneStyle: { name: 'Friendly', value: 'Friendly' },
        contentStructure: { name: 'Listicle', value: 'Listicle' },
        callToAction: { name: 'Subscribe', value: 'Subscribe' },
        targetAudience: { name: 'Beginners', value: 'Beginners' },
        blogLength: { name: 'Short', value: 'Short' },
      },
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string; title: string };
}

async function blogIds(): Promise<string[]> {
  const res = await api('/get-all-blogs');
  return ((await res.json()) as { _id: string }[]).map((b) => b._id);
}

/** No stack trace and no internal error text reached the person. */
function expectNoStackTrace(screen: string): void {
  expect(screen).not.toMatch(/^\s+at .+\(.*:\d+:\d+\)$/m);
  expect(screen).not.toMatch(/node:internal|ExitPromptError|AbortPromptError|UnhandledPromiseRejection/);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, apiKeys: [API_KEY] });
  recorder = await startRecorder(sandbox.url);
}, 90_000);

afterAll(async () => {
  tmux.kill();
  await new Promise((r) => recorder?.server.close(r));
  await sandbox?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe.skipIf(noTmux)('blog create on a terminal', () => {
  it('asks for each missing parameter and sends what was chosen', async () => {
    const config = configDir();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config, BLOGCTL_API_KEY: API_KEY });
    const before = recorder.requests.length;
    term.run(`node bin/blogctl.js --base-url ${recorder.url} blog create`);

    await term.waitFor('Topic keywords');
    term.type('home espresso, grinder');
    term.press('Enter');
    await term.waitFor(/\? Language/);
    term.press('Enter'); // the first choice: English
    await term.waitFor(/\? Tone/);
    term.press('Down', 'Enter'); // Professional → Friendly
    await term.waitFor(/\? Structure/);
    term.press('Enter'); // How-to guide
    await term.waitFor(/\? Call to action/);
    term.press('Up', 'Enter'); // the list wraps around to "Other…"
    await term.waitFor(/Call to action.*Other/);
    await term.waitUntil((s) => /\? Call to action\s*$/m.test(s), 'the free-text "Other…" prompt');
    term.type('Book a tasting');
    term.press('Enter');
    await term.waitFor(/\? Audience/);
    term.press('Enter'); // Beginners
    await term.waitFor(/\? Length/);
    term.press('Up', 'Enter'); // Medium (the default) → Short
    const code = await term.exitCode(60_000);
    const screen = term.screen();
    showScreen('blog create, every parameter asked for', screen);
    expect(code, screen).toBe(0);
    expectNoStackTrace(screen);

    const sent = recorder.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path === `${API}/create-blog`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({
      blogParams: expect.objectContaining({
        topicKeywords: ['home espresso', 'grinder'],
        language: expect.objectContaining({ name: 'English' }),
        toneStyle: expect.objectContaining({ name: 'Friendly', value: 'Friendly' }),
        contentStructure: expect.objectContaining({ name: 'How-to guide', value: 'How-to guide' }),
        callToAction: expect.objectContaining({ name: 'Book a tasting', value: 'Book a tasting' }),
        targetAudience: expect.objectContaining({ name: 'Beginners', value: 'Beginners' }),
        blogLength: expect.objectContaining({ name: 'Short', value: 'Short' }),
      }),
    });
    term.close();
  });

  it('Ctrl-C at a prompt exits 130 with no stack trace and sends nothing', async () => {
    const config = configDir();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config, BLOGCTL_API_KEY: API_KEY });
    const before = recorder.requests.length;
    term.run(`node bin/blogctl.js --base-url ${recorder.url} blog create`);
    await term.waitFor('Topic keywords');
    term.type('half typed');
    term.press('C-c');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('blog create, Ctrl-C at the first prompt', screen);
    expect(code, screen).toBe(130);
    expectNoStackTrace(screen);
    expect(recorder.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    term.close();
  });
});

describe.skipIf(noTmux)('blog delete on a terminal', () => {
  it('answering no exits 3 and deletes nothing', async () => {
    const blog = await createBlog();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY });
    term.run(`node bin/blogctl.js --base-url ${sandbox.url} blog delete ${blog._id}`);
    await term.waitFor(/Delete it\?/);
    term.type('n');
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('blog delete, answered no', screen);
    expect(code, screen).toBe(3);
    // The confirmation showed what would go.
    expect(screen).toContain(blog.title.slice(0, 40));
    expectNoStackTrace(screen);
    expect(await blogIds()).toContain(blog._id);
    term.close();
  });

  it('answering yes deletes it', async () => {
    const blog = await createBlog();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY });
    term.run(`node bin/blogctl.js --base-url ${sandbox.url} blog delete ${blog._id}`);
    await term.waitFor(/Delete it\?/);
    term.type('y');
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('blog delete, answered yes', screen);
    expect(code, screen).toBe(0);
    expect(await blogIds()).not.toContain(blog._id);
    term.close();
  });
});

describe.skipIf(noTmux)('blog delete on a terminal, interrupted', () => {
  it('Ctrl-C at the confirmation exits 130, deletes nothing and leaves the config unchanged', async () => {
    const blog = await createBlog();
    const config = configDir();
    // The key comes from the config this time, so "unchanged" covers a file the command reads.
    writeFileSync(join(config, 'credentials.json'), JSON.stringify({ apiKeys: { default: API_KEY } }));
    writeFileSync(join(config, 'config.json'), JSON.stringify({ settings: { timeout: 30 } }));
    const before = snapshot(config);
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config });
    term.run(`node bin/blogctl.js --base-url ${sandbox.url} blog delete ${blog._id}`);
    await term.waitFor(/Delete it\?/);
    term.press('C-c');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('blog delete, Ctrl-C at the confirmation', screen);
    expect(code, screen).toBe(130);
    expectNoStackTrace(screen);
    expect(await blogIds()).toContain(blog._id);
    expect(snapshot(config)).toEqual(before);
    term.close();
  });
});

describe.skipIf(noTmux)('auth login on a terminal', () => {
  it('asks for the API key without showing it, and stores it', async () => {
    const config = configDir();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config });
    term.run(`node bin/blogctl.js --base-url ${sandbox.url} auth login`);
    await term.waitFor('API key');
    term.type(API_KEY);
    // The prompt shows at most a mask while typing…
    await term.waitUntil((s) => /API key.*\*{4,}/.test(s), 'the masked key');
    expect(term.screen()).not.toContain(API_KEY);
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('auth login, key typed at a hidden prompt', screen);
    expect(code, screen).toBe(0);
    // …and never the key, not even a long piece of it.
    expect(screen).not.toContain(API_KEY);
    expect(screen).not.toContain(API_KEY.slice(8, 20));
    const credentials = JSON.parse(readFileSync(join(config, 'credentials.json'), 'utf8')) as {
      apiKeys: Record<string, string>;
    };
    expect(Object.values(credentials.apiKeys)).toContain(API_KEY);
    term.close();
  });
});

/**
 * At a hidden prompt with `secret` typed: presses Ctrl-T (inquirer's "toggle visibility"), then one more key,
 * and waits until that key shows, as one more mask character or as text. Returns that screen.
 */
async function pressCtrlT(term: Terminal, prompt: string, secret: string): Promise<string> {
  term.type(secret);
  await term.waitUntil((s) => new RegExp(`${prompt}.*\\*{${secret.length}}`).test(s), 'the masked secret');
  term.press('C-t');
  term.type('z');
  const screen = await term.waitUntil(
    (s) => new RegExp(`${prompt}.*\\*{${secret.length + 1}}`).test(s) || s.includes(`${secret}z`),
    'the next key after Ctrl-T',
  );
  // Revealed: the caller's checks fail on this screen.
  if (screen.includes(secret)) return screen;
  term.press('BSpace');
  await term.waitUntil(
    (s) => new RegExp(`${prompt}.*[^*]\\*{${secret.length}}$`, 'm').test(s),
    'the key removed again',
  );
  return screen;
}

describe.skipIf(noTmux)('auth login on a terminal, interrupted', () => {
  it('Ctrl-C at the key prompt exits 130, with no stack trace and the config unchanged', async () => {
    const config = configDir();
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({ profiles: { default: { baseUrl: sandbox.url } } }),
    );
    writeFileSync(join(config, 'credentials.json'), JSON.stringify({ apiKeys: { default: 'sk-old-key' } }));
    const before = snapshot(config);
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config });
    term.run('node bin/blogctl.js auth login');
    await term.waitFor('API key');
    term.type('sk-half-typed');
    await term.waitUntil((s) => /API key.*\*{13}/.test(s), 'the masked half key');
    term.press('C-c');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('auth login, Ctrl-C at the key prompt', screen);
    expect(code, screen).toBe(130);
    expectNoStackTrace(screen);
    expect(screen).not.toContain('sk-half-typed');
    expect(snapshot(config)).toEqual(before);
    term.close();
  });
});

describe.skipIf(noTmux)('a hidden prompt on a terminal', () => {
  it('never reveals the API key, not even on Ctrl-T', async () => {
    const config = configDir();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config });
    term.run(`node bin/blogctl.js --base-url ${sandbox.url} auth login`);
    await term.waitFor('API key');
    const afterCtrlT = await pressCtrlT(term, 'API key', API_KEY);
    showScreen('auth login, Ctrl-T pressed at the hidden prompt', afterCtrlT);
    expect(afterCtrlT).not.toContain(API_KEY);
    expect(afterCtrlT).not.toMatch(/ctrl\+t|toggle/i);
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    expect(code, screen).toBe(0);
    expect(screen).not.toContain(API_KEY);
    // The key typed, Ctrl-T and the removed "z" left the key exactly as typed.
    const credentials = JSON.parse(readFileSync(join(config, 'credentials.json'), 'utf8')) as {
      apiKeys: Record<string, string>;
    };
    expect(Object.values(credentials.apiKeys)).toContain(API_KEY);
    term.close();
  });

  it('never reveals the Application Password, not even on Ctrl-T', async () => {
    const password = 'wxyz ABCD efgh IJKL mnop QRST';
    const config = configDir();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config });
    term.run(
      'node bin/blogctl.js wp sites add myblog --url https://blog.example.com --username editor --no-verify',
    );
    await term.waitFor('Application Password');
    const afterCtrlT = await pressCtrlT(term, 'Application Password', password);
    showScreen('wp sites add, Ctrl-T pressed at the hidden prompt', afterCtrlT);
    for (const group of password.split(' ')) expect(afterCtrlT).not.toContain(group);
    expect(afterCtrlT).not.toMatch(/ctrl\+t|toggle/i);
    term.press('Enter');
    const code = await term.exitCode();
    expect(code, term.screen()).toBe(0);
    expect(readFileSync(join(config, 'credentials.json'), 'utf8')).toContain(password);
    term.close();
  });
});

describe.skipIf(noTmux)('wp sites add on a terminal', () => {
  const password = 'abcd EFGH ijkl MNOP qrst UVWX';

  it('asks for URL and username, then the Application Password at a hidden prompt', async () => {
    const config = configDir();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config });
    term.run('node bin/blogctl.js wp sites add myblog --no-verify');
    await term.waitFor('WordPress site URL');
    term.type('https://blog.example.com');
    term.press('Enter');
    await term.waitFor('WordPress username');
    term.type('editor');
    term.press('Enter');
    await term.waitFor('Application Password');
    term.type(password);
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('wp sites add, Application Password typed at a hidden prompt', screen);
    expect(code, screen).toBe(0);
    for (const group of password.split(' ')) expect(screen).not.toContain(group);
    const saved = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')) as {
      sites: Record<string, { url: string; username: string }>;
    };
    expect(saved.sites['myblog']).toMatchObject({
      url: expect.stringContaining('blog.example.com'),
      username: 'editor',
    });
    expect(readFileSync(join(config, 'config.json'), 'utf8')).not.toContain('EFGH');
    expect(readFileSync(join(config, 'credentials.json'), 'utf8')).toContain(password);
    term.close();
  });

  it('Ctrl-C at the password prompt exits 130, with no stack trace and the config unchanged', async () => {
    const config = configDir();
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({ sites: { first: { url: 'https://first.example.com', username: 'ann' } } }),
    );
    writeFileSync(
      join(config, 'credentials.json'),
      JSON.stringify({ sitePasswords: { first: 'aaaa bbbb cccc dddd' } }),
    );
    const before = snapshot(config);
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config });
    term.run('node bin/blogctl.js wp sites add second --url https://second.example.com --username bob');
    await term.waitFor('Application Password');
    term.type('half a pass');
    term.press('C-c');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('wp sites add, Ctrl-C at the password prompt', screen);
    expect(code, screen).toBe(130);
    expectNoStackTrace(screen);
    expect(screen).not.toContain('half a pass');
    expect(snapshot(config)).toEqual(before);
    term.close();
  });
});

describe.skipIf(noTmux)('colour at the prompts and the spinner', () => {
  /** Generation takes long enough for the spinner to be seen. */
  let slow: Sandbox;
  beforeAll(async () => {
    slow = await startSandbox({ port: 0, apiKeys: [API_KEY], latencyMs: 2_000 });
  });
  afterAll(() => slow?.close());

  /** blog create asking for the five missing parameters (Enter takes each first choice), then generating. */
  async function createWithPrompts(
    title: string,
    flags: string,
    env: Record<string, string>,
  ): Promise<{ prompts: string[]; spinner: string; final: string }> {
    const term = await terminal({ BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY, ...env });
    term.run(`node bin/blogctl.js ${flags} --base-url ${slow.url} blog create -k espresso --length short`);
    const prompts: string[] = [];
    for (const question of ['Language', 'Tone', 'Structure', 'Call to action', 'Audience']) {
      await term.waitFor(new RegExp(`^\\? ${question}`, 'm'));
      prompts.push(term.screen({ escapes: true }));
      term.press('Enter');
    }
    await term.waitFor('Generating blog post');
    const spinner = term.screen({ escapes: true });
    const code = await term.exitCode(60_000);
    const final = term.screen({ escapes: true });
    showScreen(`blog create, ${title}`, term.screen());
    expect(code, final).toBe(0);
    term.close();
    return { prompts, spinner, final };
  }

  it('colours the prompts and the spinner on a terminal by default', async () => {
    const { prompts, spinner, final } = await createWithPrompts('colour by default', '', {});
    for (const screen of prompts) expect(styleCodes(screen), screen).not.toEqual([]);
    // ora's frame in cyan. tmux writes only changes of style, so the cyan may have begun on the line above
    // (the last answer is cyan too): then only its end, right after the frame, shows.
    const frame = '[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]';
    expect(spinner).toMatch(new RegExp(`${ESC}\\[36m${frame}|${frame}${ESC}\\[39m Generating`));
    expect(styleCodes(final), final).not.toEqual([]);
  });

  it.for<{ title: string; flags: string; env: Record<string, string> }>([
    { title: '--no-color', flags: '--no-color', env: {} },
    { title: 'CLICOLOR=0', flags: '', env: { CLICOLOR: '0' } },
  ])('shows no colour at all with $title: not at the prompts, not in the spinner', async (c) => {
    const { prompts, spinner, final } = await createWithPrompts(c.title, c.flags, c.env);
    for (const screen of [...prompts, spinner, final]) expect(styleCodes(screen), screen).toEqual([]);
    // The marks stay: "?" while asking, "✔" once answered, the spinner's frame.
    expect(prompts[0]).toMatch(/^\? Language/m);
    expect(final).toMatch(/^✔ Language English$/m);
    expect(spinner).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Generating blog post/);
  });
});

describe.skipIf(noTmux)('wp settings replace on a terminal', () => {
  const sites = [
    {
      id: 'myblog',
      label: 'My blog',
      isIntegrated: true,
      credentials: {
        websiteUrl: 'https://blog.example.com',
        username: 'editor',
        password: 'Repl Aces Ecre TPas Swor D123',
      },
    },
  ];
  const settingsRequests = () =>
    recorder.requests.filter((r) => r.path === `${API}/integrations/wordpress/update-settings`);

  async function replace(answer: 'y' | 'n'): Promise<{ code: number; screen: string }> {
    const config = configDir();
    const file = join(config, 'sites.json');
    writeFileSync(file, JSON.stringify(sites));
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config, BLOGCTL_API_KEY: API_KEY });
    term.run(`node bin/blogctl.js --base-url ${recorder.url} wp settings replace -f ${file}`);
    await term.waitFor(/Replace the whole WordPress site list/);
    term.type(answer);
    term.press('Enter');
    const code = await term.exitCode();
    const screen = term.screen();
    term.close();
    return { code, screen };
  }

  it('answering no exits 3 and sends nothing', async () => {
    const before = settingsRequests().length;
    const { code, screen } = await replace('n');
    showScreen('wp settings replace, answered no', screen);
    expect(code, screen).toBe(3);
    expect(screen).toMatch(/1 site \(myblog\)/);
    expectNoStackTrace(screen);
    expect(settingsRequests()).toHaveLength(before);
  });

  it('answering yes sends the whole list', async () => {
    const before = settingsRequests().length;
    const { code, screen } = await replace('y');
    showScreen('wp settings replace, answered yes', screen);
    expect(code, screen).toBe(0);
    expect(screen).not.toContain('Repl Aces');
    const sent = settingsRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'PATCH', body: { settings: sites } });
  });
});

describe.skipIf(noTmux)('wp publish on a terminal', () => {
  const password = 'Qzxw Vbnm Plok Ijuh Ygtf Rdes';
  let wp: FakeWordPress;
  beforeAll(async () => {
    wp = await startFakeWordPress({ password });
  });
  afterAll(() => wp?.close());

  it('asks for the Application Password at a hidden prompt, then publishes', async () => {
    const config = configDir();
    const term = await terminal({ BLOGCTL_CONFIG_DIR: config, BLOGCTL_API_KEY: API_KEY });
    term.run(
      `node bin/blogctl.js --base-url ${sandbox.url} wp publish --url ${wp.url} --username ${wp.username} --title "Hello from a terminal" --content "<p>Hi</p>"`,
    );
    await term.waitFor('Application Password');
    term.type(password);
    await term.waitUntil(
      (s) => new RegExp(`Application Password.*\\*{${password.length}}`).test(s),
      'the masked password',
    );
    expect(term.screen()).not.toMatch(/Qzxw|Vbnm|Rdes/);
    term.press('Enter');
    const code = await term.exitCode(30_000);
    const screen = term.screen();
    showScreen('wp publish, Application Password typed at a hidden prompt', screen);
    expect(code, screen).toBe(0);
    expectNoStackTrace(screen);
    for (const group of password.split(' ')) expect(screen).not.toContain(group);
    expect(wp.posts.filter((p) => p.title === 'Hello from a terminal')).toHaveLength(1);
    term.close();
  });
});

/** The lines of a screen wider than `cols` cells (capture-pane -J joins a line the terminal wrapped). */
function overflowing(screen: string, cols: number): string[] {
  return screen.split('\n').filter((line) => [...line].length > cols);
}

/** The words of a text, a shell continuation `\\` not counted: the same words in the same order means no word was cut. */
function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((w) => w && w !== '\\');
}

describe.skipIf(noTmux)('help that fits the terminal', () => {
  const pages = [
    ['--help'],
    ['wp', 'publish', '--help'],
    ['blog', 'create', '--help'],
    ['blog', 'delete', '--help'],
    ['wp', 'sites', 'add', '--help'],
    ['help', 'exit-codes'],
    ['help', 'environment'],
  ];

  it.each([80, 40])('at %i columns: no line wider than the terminal, no word cut', async (cols) => {
    for (const args of pages) {
      // Tall enough for the longest page (wp publish --help at 40 columns), so nothing scrolls away.
      const term = await terminal({ BLOGCTL_CONFIG_DIR: configDir() }, { cols, rows: 400 });
      term.run(`clear; node bin/blogctl.js ${args.join(' ')}`);
      expect(await term.exitCode()).toBe(0);
      const screen = term.screen().replace(/^EXIT\d+:\d+$[\s\S]*/m, '');
      if (args[0] === 'help' && cols === 40)
        showScreen(`blogctl ${args.join(' ')} at ${cols} columns`, screen);
      expect(overflowing(screen, cols), `blogctl ${args.join(' ')}`).toEqual([]);
      // Off a terminal the same page is wrapped at 80: the same words, in the same order.
      const piped = await runCli(args, { env: { BLOGCTL_CONFIG_DIR: configDir() } });
      // The screen holds only the output: `clear` ran before it.
      expect(wordsOf(screen)).toEqual(wordsOf(piped.stdout));
      term.close();
    }
  });
});

describe.skipIf(noTmux)('tables that fit the terminal', () => {
  it.each([80, 40])(
    'blog list and wp sites list at %i columns: no line wider, ids and URLs whole',
    async (cols) => {
      const blogs = [await createBlog(), await createBlog()];
      const config = configDir();
      const env = { BLOGCTL_CONFIG_DIR: config, BLOGCTL_API_KEY: API_KEY };
      const term = await terminal(env, { cols, rows: 60 });
      const url = 'https://blog.example.com/a/rather/long/path/to/wordpress';
      term.run(
        `printf 'abcd efgh ijkl mnop qrst uvwx\\n' | node bin/blogctl.js wp sites add myblog --url ${url} --username editor --label "The label of my blog" --password-stdin --no-verify`,
      );
      expect(await term.exitCode()).toBe(0);
      term.run(`clear; node bin/blogctl.js --base-url ${sandbox.url} blog list`);
      expect(await term.exitCode()).toBe(0);
      const list = term.screen().replace(/^EXIT\d+:\d+$[\s\S]*/m, '');
      showScreen(`blog list at ${cols} columns`, list);
      expect(overflowing(list, cols)).toEqual([]);
      for (const blog of blogs) {
        const line = list.split('\n').find((l) => l.startsWith(blog._id));
        expect(line, `the row of ${blog._id}`).toBeDefined();
        if (cols === 80) {
          // The title keeps at least 30 cells (cut or whole): `ID  TITLE…` up to the next column.
          const title = line!.slice(blog._id.length).trim().split(/ {2,}/)[0]!;
          expect(title.length).toBeGreaterThanOrEqual(Math.min(30, blog.title.length));
        }
      }
      term.run(`clear; node bin/blogctl.js wp sites list`);
      expect(await term.exitCode()).toBe(0);
      const sites = term.screen().replace(/^EXIT\d+:\d+$[\s\S]*/m, '');
      showScreen(`wp sites list at ${cols} columns`, sites);
      // The URL is whole, on the row's line or under it, and nothing else runs past the edge.
      expect(sites).toContain(url);
      expect(overflowing(sites, cols).filter((l) => !l.includes(url))).toEqual([]);
      term.close();
    },
  );
});

/**
 * A proxy in front of the sandbox that holds every request whose method and path match until the test
 * releases it, one at a time: "a server that delays each answer", with the delay in the test's hands
 * rather than a timer, so the screen can be read at each step.
 */
interface Gate {
  url: string;
  /** Requests held so far (released or not). */
  held: number;
  /** Lets the oldest held request through to the sandbox. */
  release(): void;
  close(): Promise<void>;
}

function startGate(target: string, match: (method: string, path: string) => boolean): Promise<Gate> {
  const upstream = new URL(target);
  const waiting: (() => void)[] = [];
  let held = 0;
  let credit = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = (): void => {
        const out = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            path: req.url,
            method: req.method,
            headers: { ...req.headers, host: upstream.host },
          },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        out.on('error', () => res.writeHead(502).end());
        out.end(Buffer.concat(chunks));
      };
      if (!match(req.method ?? '', req.url ?? '')) return forward();
      held++;
      if (credit > 0) {
        credit--;
        forward();
        return;
      }
      waiting.push(forward);
      // A client that went away (Ctrl-C) is not waiting any more: a release is for the next one.
      res.on('close', () => {
        const at = waiting.indexOf(forward);
        if (at >= 0) waiting.splice(at, 1);
      });
    });
  });
  return new Promise((resolvePromise) =>
    server.listen(0, '127.0.0.1', () =>
      resolvePromise({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        get held() {
          return held;
        },
        release() {
          const next = waiting.shift();
          if (next) next();
          else credit++;
        },
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}

describe.skipIf(noTmux)('progress through a batch on a terminal', () => {
  let gate: Gate;
  beforeAll(async () => {
    gate = await startGate(sandbox.url, (method) => method === 'DELETE');
  });
  afterAll(() => gate?.close());

  it.each([80, 40])(
    'blog delete of 5 ids at %i columns: a count that advances as each answer comes, each result as it finishes; Ctrl-C says what was done, in flight and not attempted',
    async (cols) => {
      const blogs = await Promise.all(Array.from({ length: 5 }, () => createBlog()));
      const ids = blogs.map((b) => b._id);
      const term = await terminal(
        { BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY },
        { cols, rows: 40 },
      );
      const heldBefore = gate.held;
      term.run(
        `clear; node bin/blogctl.js --base-url ${gate.url} blog delete ${ids.join(' ')} --yes --concurrency 1`,
      );
      // The first delete is held: the live line counts 0 of 5 and names it.
      await term.waitFor(new RegExp(`Deleting 0/5 · ${ids[0]!.slice(0, 8)}`));
      gate.release();
      const one = await term.waitFor(/Deleting 1\/5/);
      expect(one).toContain(`✔ Deleted ${ids[0]}`);
      gate.release();
      const two = await term.waitFor(/Deleting 2\/5/);
      expect(two).toContain(`✔ Deleted ${ids[1]}`);
      showScreen(`blog delete at ${cols} columns, 2 of 5 answered`, two);
      // The third is held; Ctrl-C now.
      await term.waitUntil(() => gate.held - heldBefore >= 3, 'the third delete to reach the server');
      term.press('C-c');
      const code = await term.exitCode();
      const screen = term.screen();
      showScreen(`blog delete at ${cols} columns, Ctrl-C with the third in flight`, screen);
      expect(code).toBe(130);
      expectNoStackTrace(screen);
      const after = screen.slice(screen.indexOf('Done (2):'));
      expect(after).toMatch(
        new RegExp(
          `Done \\(2\\):\\n  ${ids[0]}\\n  ${ids[1]}\\nIn flight, may have happened \\(1\\):\\n  ${ids[2]}\\nNot attempted \\(2\\):\\n  ${ids[3]}\\n  ${ids[4]}\\n.*error: interrupted`,
        ),
      );
      expect(overflowing(screen, cols)).toEqual([]);
      // Nothing was sent after Ctrl-C: ids 4 and 5 were never asked for.
      expect(gate.held - heldBefore).toBe(3);
      term.close();
    },
  );

  it('a failure shows as it happens: its ✖ line, and the count of failures on the live line', async () => {
    const [first, last] = [await createBlog(), await createBlog()];
    const bogus = '0000000000000000000000ff';
    const term = await terminal({ BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY }, { cols: 80 });
    const open = gate.held;
    term.run(
      `clear; node bin/blogctl.js --base-url ${gate.url} blog delete ${first._id} ${bogus} ${last._id} --yes --concurrency 1`,
    );
    for (let i = 1; i <= 2; i++) {
      await term.waitUntil(() => gate.held - open >= i, `delete ${i}`);
      gate.release();
    }
    const screen = await term.waitFor(/Deleting 2\/3 · 1 failed/);
    showScreen('blog delete, the second id unknown', screen);
    expect(screen).toMatch(new RegExp(`✖ .*${bogus}.*404`));
    await term.waitUntil(() => gate.held - open >= 3, 'delete 3');
    gate.release();
    expect(await term.exitCode()).toBe(5);
    term.close();
  });

  it('off a terminal: no progress at all, the output as it was', async () => {
    const blogs = await Promise.all(Array.from({ length: 3 }, () => createBlog()));
    // A gate of its own: nothing a failed test above left held can take its releases.
    const own = await startGate(sandbox.url, (method) => method === 'DELETE');
    const run = runCli(['--base-url', own.url, 'blog', 'delete', ...blogs.map((b) => b._id), '--yes', '-q'], {
      env: { BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY },
    });
    for (let i = 0; i < 3; i++) {
      while (own.held <= i) await new Promise((r) => setTimeout(r, 20));
      own.release();
    }
    const result = await run;
    await own.close();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(blogs.map((b) => `${b._id}\n`).join(''));
  });
});

describe('an interrupted batch off a terminal', () => {
  it('SIGTERM (a cancelled CI job): no progress lines, but what was done, in flight and not attempted, then exit 130', async () => {
    const blogs = await Promise.all(Array.from({ length: 3 }, () => createBlog()));
    const ids = blogs.map((b) => b._id);
    const own = await startGate(sandbox.url, (method) => method === 'DELETE');
    const child = spawn(
      process.execPath,
      [BIN, '--base-url', own.url, 'blog', 'delete', ...ids, '--yes', '--concurrency', '1'],
      {
        env: cliEnv({ BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    while (own.held < 1) await new Promise((r) => setTimeout(r, 20));
    own.release();
    while (own.held < 2) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    const code = await closed;
    await own.close();
    expect(code).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      [
        'Done (1):',
        `  ${ids[0]}`,
        'In flight, may have happened (1):',
        `  ${ids[1]}`,
        'Not attempted (1):',
        `  ${ids[2]}`,
        'error: interrupted',
        '',
      ].join('\n'),
    );
    expect(own.held).toBe(2);
  });
});

describe.skipIf(noTmux)('progress through a wp publish batch on a terminal', () => {
  const password = 'Qzxw Vbnm Plok Ijuh Ygtf Rdes';
  let wp: FakeWordPress;
  let gate: Gate;
  beforeAll(async () => {
    wp = await startFakeWordPress({ password });
    gate = await startGate(
      sandbox.url,
      (method, path) => method === 'POST' && path.endsWith('/wordpress/publish'),
    );
  });
  afterAll(async () => {
    await gate?.close();
    await wp?.close();
  });

  /** `n` Markdown posts, `<tag>-<i>.md`, in a fresh directory (the name is the post's source on the site). */
  function postsDir(n: number, tag: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-pty-posts-'));
    dirs.push(dir);
    // A git work tree: its files' sources are their paths from its root.
    mkdirSync(join(dir, '.git'));
    for (let i = 1; i <= n; i++)
      writeFileSync(join(dir, `${tag}-${i}.md`), `---\ntitle: ${tag} post ${i}\n---\n\nBody of post ${i}.\n`);
    return dir;
  }

  it.each([80, 40])(
    'at %i columns: the count advances as each post is published, then the table is the one report',
    async (cols) => {
      const dir = postsDir(4, `cols${cols}`);
      const term = await terminal(
        { BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY, BLOGCTL_WP_PASSWORD: password },
        { cols, rows: 60 },
      );
      const open = gate.held;
      term.run(
        `clear; cd ${dir} && node ${ROOT}/bin/blogctl.js --base-url ${gate.url} wp publish --url ${wp.url} --username ${wp.username} . --concurrency 1`,
      );
      const tag = `cols${cols}`;
      await term.waitFor(new RegExp(`Publishing 0/4 · ${tag}-1\\.md`));
      for (let i = 1; i <= 4; i++) {
        await term.waitUntil(() => gate.held - open >= i, `publish request ${i}`);
        gate.release();
        if (i < 4) {
          const screen = await term.waitFor(new RegExp(`Publishing ${i}/4`));
          // Counted, not listed: the results are reported once, by the table.
          expect(screen).not.toMatch(new RegExp(`✔ ${tag}-\\d`));
          if (i === 2) showScreen(`wp publish at ${cols} columns, 2 of 4 published`, screen);
        }
      }
      const code = await term.exitCode();
      const screen = term.screen();
      showScreen(`wp publish at ${cols} columns, done`, screen);
      expect(code, screen).toBe(0);
      expect(screen).not.toMatch(/Publishing \d\/4/);
      // One report: each link once, whole, in the table; no result lines before it. No ERROR column (nothing
      // failed), and no line past the edge but one holding a link.
      const links = [...new Set(screen.match(/http:\/\/127\.0\.0\.1:\d+\/\?p=\d+/g))];
      expect(links).toHaveLength(4);
      for (const link of links) expect(screen.split(link).length - 1).toBe(1);
      expect(screen).not.toMatch(new RegExp(`✔ ${tag}-\\d`));
      expect(screen).toMatch(/SOURCE +ACTION/);
      expect(screen).toContain('✔ 4 posts: 4 created');
      expect(screen).not.toContain('ERROR');
      expect(overflowing(screen, cols).filter((l) => !links.some((link) => l.includes(link)))).toEqual([]);
      term.close();
    },
  );

  it("a post's notes are said once, with its source, before the table", async () => {
    const dir = postsDir(2, 'notes');
    const term = await terminal(
      { BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY, BLOGCTL_WP_PASSWORD: password },
      { cols: 100, rows: 40 },
    );
    const publish = `node ${ROOT}/bin/blogctl.js --base-url ${gate.url} wp publish --url ${wp.url} --username ${wp.username} . --concurrency 1`;
    // Both creates go through at once (credit for two answers).
    gate.release();
    gate.release();
    term.run(`cd ${dir} && ${publish}`);
    expect(await term.exitCode()).toBe(0);
    writeFileSync(join(dir, 'notes-1.md'), '---\ntitle: notes post 1, retitled\n---\n\nBody of post 1.\n');
    term.run(`clear; ${publish} --no-update`);
    expect(await term.exitCode()).toBe(0);
    const screen = term.screen();
    showScreen('wp publish --no-update: the note, then the table', screen);
    const lines = screen.split('\n');
    const note = lines.findIndex((l) => /notes-1\.md.*--no-update/.test(l));
    expect(note, screen).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((l) => /^SOURCE +ACTION/.test(l))).toBeGreaterThan(note);
    // Said once.
    expect(screen.match(/left as it is \(--no-update\)/g)).toHaveLength(1);
    term.close();
  });

  it('Ctrl-C with the second post in flight: done, in flight and not attempted, exit 130', async () => {
    const dir = postsDir(4, 'ctrlc');
    const term = await terminal(
      { BLOGCTL_CONFIG_DIR: configDir(), BLOGCTL_API_KEY: API_KEY, BLOGCTL_WP_PASSWORD: password },
      { cols: 80, rows: 40 },
    );
    const open = gate.held;
    term.run(
      `clear; cd ${dir} && node ${ROOT}/bin/blogctl.js --base-url ${gate.url} wp publish --url ${wp.url} --username ${wp.username} . --concurrency 1`,
    );
    await term.waitUntil(() => gate.held - open >= 1, 'the first publish request');
    gate.release();
    await term.waitFor(/Publishing 1\/4 · ctrlc-2\.md/);
    await term.waitUntil(() => gate.held - open >= 2, 'the second publish request');
    term.press('C-c');
    const code = await term.exitCode();
    const screen = term.screen();
    showScreen('wp publish, Ctrl-C with the second post in flight', screen);
    expect(code).toBe(130);
    expectNoStackTrace(screen);
    expect(screen).toContain(
      [
        'Done (1):',
        '  ctrlc-1.md',
        'In flight, may have happened (1):',
        '  ctrlc-2.md',
        'Not attempted (2):',
        '  ctrlc-3.md',
        '  ctrlc-4.md',
      ].join('\n'),
    );
    expect(screen).toMatch(/error: interrupted/);
    expect(gate.held - open).toBe(2);
    term.close();
  });
});
