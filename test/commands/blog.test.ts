// Run tests: the blog verbs' actions in-process with fake terminal streams, a scripted Prompter, the real
// factory and a real loopback server (the sandbox, or a counting server for the concurrency bound).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { action as createAction } from '../../src/commands/blog/create/action.js';
import { resolveCreateParams } from '../../src/commands/blog/create/params.js';
import { action as deleteAction, deleteRun, recoverIds } from '../../src/commands/blog/delete/action.js';
import { action as listAction } from '../../src/commands/blog/list/action.js';
import { action as showAction } from '../../src/commands/blog/show/action.js';
import type { ActionInput } from '../../src/commands/define.js';
import { CancelledError, UsageError } from '../../src/errors.js';
import { createDeps, type Deps, type GlobalOptions } from '../../src/factory.js';
import { IO } from '../../src/output/io.js';
import type { Choice, Prompter } from '../../src/prompts/prompter.js';
import { tempConfigDir } from '../helpers/cli.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

interface FakeTerminal {
  io: IO;
  stdout(): string;
  stderr(): string;
}

/** IO over in-memory streams that claim to be terminals (or not). */
function fakeIO(tty: boolean, columns = 60): FakeTerminal {
  // ora moves the cursor on a terminal stream: give the fakes the tty.WriteStream methods it calls.
  const make = () =>
    Object.assign(new PassThrough(), {
      isTTY: tty,
      columns,
      cursorTo: () => true,
      clearLine: () => true,
      moveCursor: () => true,
    });
  const [stdin, stdout, stderr] = [make(), make(), make()];
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  return {
    io: new IO({ stdin, stdout, stderr, env: { NO_COLOR: '1' } }),
    stdout: () => out,
    stderr: () => err,
  };
}

type Answer = string | boolean;

/** Answers from a script, in order; records each question; fails loudly on a question it did not expect. */
function scriptedPrompter(answers: Answer[]): Prompter & { asked: string[]; choices: string[][] } {
  const queue = [...answers];
  const asked: string[] = [];
  const choices: string[][] = [];
  const next = (kind: string, message: string): Answer => {
    asked.push(`${kind}:${message}`);
    if (!queue.length) throw new Error(`unexpected prompt ${kind} "${message}"`);
    return queue.shift()!;
  };
  return {
    asked,
    choices,
    input: async (message, options) => {
      const answer = String(next('input', message));
      expect(options?.validate?.(answer) ?? true).toBe(true);
      return answer;
    },
    password: async (message) => String(next('password', message)),
    select: async <T extends string>(message: string, list: Choice<T>[]) => {
      choices.push(list.map((c) => c.name));
      const answer = String(next('select', message));
      const found = list.find((c) => c.name === answer);
      if (!found) throw new Error(`"${answer}" is not a choice of "${message}"`);
      return found.value;
    },
    confirm: async (message) => Boolean(next('confirm', message)),
  };
}

let sandbox: TestSandbox;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.close());
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function depsFor(
  term: FakeTerminal,
  options: { prompter?: Prompter; globals?: GlobalOptions; url?: string; env?: NodeJS.ProcessEnv } = {},
): Deps {
  const globals = { baseUrl: options.url ?? sandbox.url, ...options.globals };
  const env = { BLOGCTL_API_KEY: sandbox.apiKey, BLOGCTL_CONFIG_DIR: tempConfigDir(), ...options.env };
  const deps = createDeps({ globals, env, io: term.io, signal: new AbortController().signal });
  cleanups.push(() => deps.cleanup());
  const prompter = options.prompter;
  return prompter ? { ...deps, prompter: () => prompter } : deps;
}

function input<O>(deps: Deps, opts: O, args: unknown[] = []): ActionInput<never, never> {
  return {
    args,
    opts,
    globals: deps.globals,
    deps,
    command: undefined as never,
    app: undefined as never,
  } as unknown as ActionInput<never, never>;
}

describe('blog create prompts (a person at a terminal)', () => {
  it('asks for each missing parameter in order, with "Other…" free text, and keeps --tone-custom', async () => {
    const term = fakeIO(true);
    const prompter = scriptedPrompter(['espresso, milk', 'Other…', 'Klingon', 'Friendly', 'Long']);
    const deps = depsFor(term, { prompter });
    const params = await resolveCreateParams(
      { structure: 'Listicle', cta: 'Subscribe', audience: 'Beginners', toneCustom: 'warm' },
      deps,
    );
    expect(prompter.asked).toEqual([
      'input:Topic keywords (comma-separated)',
      'select:Language',
      'input:Language',
      'select:Tone',
      'select:Length',
    ]);
    expect(prompter.choices[0]).toContain('Other…');
    expect(prompter.choices[2]).toEqual(['Short', 'Medium', 'Long']);
    expect(params).toEqual({
      topicKeywords: ['espresso', 'milk'],
      language: { name: 'Klingon', value: 'Klingon' },
      toneStyle: { name: 'Friendly', value: 'Friendly', customValue: 'warm' },
      contentStructure: { name: 'Listicle', value: 'Listicle' },
      callToAction: { name: 'Subscribe', value: 'Subscribe' },
      targetAudience: { name: 'Beginners', value: 'Beginners' },
      blogLength: { name: 'Long', value: 'Long' },
    });
  });

  it('checks the flags before asking anything', async () => {
    const prompter = scriptedPrompter([]);
    const deps = depsFor(fakeIO(true), { prompter });
    await expect(resolveCreateParams({ link: ['ftp://x'] }, deps)).rejects.toThrow(
      '--link: "ftp://x" must be an http(s) URL',
    );
    expect(prompter.asked).toEqual([]);
  });

  it('never asks without a terminal, or with --no-input', async () => {
    const prompter = scriptedPrompter([]);
    await expect(
      resolveCreateParams({ keyword: ['x'] }, depsFor(fakeIO(false), { prompter })),
    ).rejects.toThrow(UsageError);
    const noInput = fakeIO(true);
    const io = new IO({
      stdin: noInput.io.stdin,
      stdout: noInput.io.stdout,
      stderr: noInput.io.stderr,
      env: {},
      noInput: true,
    });
    await expect(
      resolveCreateParams({ keyword: ['x'] }, depsFor({ ...noInput, io }, { prompter })),
    ).rejects.toThrow('cannot ask: --no-input is set');
    expect(prompter.asked).toEqual([]);
  });

  it('on a terminal, --provider-key-stdin asks with a hidden prompt rather than reading an echoing terminal', async () => {
    const prompter = scriptedPrompter(['prov-key-from-prompt-1234']);
    const deps = depsFor(fakeIO(true), { prompter });
    const params = await resolveCreateParams({ ...flagsFor(), providerKeyStdin: true }, deps);
    expect(prompter.asked).toEqual(['password:Provider API key']);
    expect(params.externalProviderApiKey).toBe('prov-key-from-prompt-1234');
  });

  it('prints a summary cut to the terminal width, and a success note on stderr', async () => {
    const term = fakeIO(true, 50);
    const deps = depsFor(term);
    await createAction(input(deps, flagsFor()));
    const lines = term.stdout().split('\n');
    expect(lines[0]).toMatch(/^id: +[0-9a-f]{24}$/);
    for (const line of lines.slice(3)) expect(line.length).toBeLessThanOrEqual(50);
    expect(term.stdout()).toContain('…');
    expect(term.stderr()).toMatch(/✔ Created blog [0-9a-f]{24}/);
    expect(term.stderr()).toMatch(/Full text: blogctl blog show [0-9a-f]{24} \(or --markdown for a file\)/);
    expect(term.stderr()).not.toContain('--field content');
    expect(term.stderr()).not.toContain('placeholder');
  });

  it("with --sandbox and no provider, says on a terminal that the text is the sandbox's placeholder", async () => {
    const term = fakeIO(true, 100);
    const deps = depsFor(term, { globals: { sandbox: true } });
    await createAction(input(deps, flagsFor()));
    expect(term.stderr()).toMatch(
      /The sandbox's placeholder text, written from templates: set BLOGCTL_PROVIDER_URL/,
    );
    const piped = fakeIO(false);
    await createAction(input(depsFor(piped, { globals: { sandbox: true } }), flagsFor()));
    expect(piped.stderr()).not.toContain('placeholder');
  });
});

function flagsFor() {
  return {
    keyword: ['home espresso'],
    language: 'English',
    tone: 'Friendly',
    structure: 'Listicle',
    cta: 'Subscribe',
    audience: 'Beginners',
    length: 'short',
  };
}

describe('blog list and show on a terminal', () => {
  it('a table with a header, titles cut to the width, CREATED/STATUS/WORDS columns while they fit', async () => {
    const s = await startTestSandbox();
    cleanups.push(() => s.close());
    await s
      .api()
      .createBlog(
        blogParamsFor({ topicKeywords: ['a very long keyword phrase that makes a long title indeed'] }),
      );
    const term = fakeIO(true, 110);
    await listAction(input(depsFor(term, { url: s.url, env: { BLOGCTL_API_KEY: s.apiKey } }), {}));
    const [header, row] = term.stdout().trimEnd().split('\n');
    expect(header).toMatch(/^ID +TITLE +CREATED +STATUS +WORDS$/);
    expect(row).toContain('…');
    expect(row!.length).toBeLessThanOrEqual(110);
    expect(row).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d +generated +\d+$/);
    // Narrower, WORDS then STATUS give way so the title keeps 30 cells.
    const narrow = fakeIO(true, 70);
    await listAction(input(depsFor(narrow, { url: s.url, env: { BLOGCTL_API_KEY: s.apiKey } }), {}));
    const [narrowHeader, narrowRow] = narrow.stdout().trimEnd().split('\n');
    expect(narrowHeader).toMatch(/^ID +TITLE$/);
    expect(narrowRow!.length).toBeLessThanOrEqual(70);
    expect(narrowRow!.split(/ {2,}/)[1]!.length).toBeGreaterThanOrEqual(30);
  });

  it('an empty list notes "No blogs yet" on stderr, nothing on stdout', async () => {
    const s = await startTestSandbox();
    cleanups.push(() => s.close());
    const term = fakeIO(true);
    await listAction(input(depsFor(term, { url: s.url, env: { BLOGCTL_API_KEY: s.apiKey } }), {}));
    expect(term.stdout()).toBe('');
    expect(term.stderr()).toContain('No blogs yet');
  });

  it('with --sandbox the empty-list hint keeps --sandbox', async () => {
    const term = fakeIO(true);
    await listAction(input(depsFor(term, { globals: { sandbox: true } }), {}));
    expect(term.stdout()).toBe('');
    expect(term.stderr()).toContain('Create one: blogctl --sandbox blog create');
  });

  it('show --field adds a final newline only on a terminal', async () => {
    const blog = await sandbox.api().createBlog(blogParamsFor());
    const term = fakeIO(true);
    await showAction(input(depsFor(term), { field: 'title' }, [blog._id]));
    expect(term.stdout()).toBe(`${blog.title}\n`);
    const piped = fakeIO(false);
    await showAction(input(depsFor(piped), { field: 'title' }, [blog._id]));
    expect(piped.stdout()).toBe(blog.title);
  });
});

describe('blog show reads as a post on a terminal, through the pager', () => {
  /** A terminal `columns` wide whose pager is `env`'s; what reached the screen. */
  async function show(tty: boolean, env: NodeJS.ProcessEnv, globals: GlobalOptions = {}, columns = 60) {
    const blog = await sandbox
      .api()
      .createBlog(blogParamsFor({ blogLength: { name: 'Long', value: 'Long' } }));
    const term = fakeIO(tty, columns);
    const deps = depsFor(term, { env: { BLOGCTL_PAGER: undefined, PAGER: undefined, ...env }, globals });
    await showAction(input(deps, {}, [blog._id]));
    return { out: term.stdout(), blog };
  }
  const dir = tempConfigDir();
  const marker = (name: string) => `${dir}/${name}`;

  it('wraps the post to the width with its headings marked, and pages it with BLOGCTL_PAGER', async () => {
    const { out, blog } = await show(true, { BLOGCTL_PAGER: "sed 's/^/| /'", PAGER: 'false' });
    const lines = out.trimEnd().split('\n');
    expect(
      lines.every((l) => l.startsWith('| ') || l === '|'),
      out,
    ).toBe(true);
    expect(out).toMatch(new RegExp(`^\\| _id: +${blog._id}$`, 'm'));
    expect(out).toMatch(/^\| #+ \S/m);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(62);
    expect(lines.length).toBeGreaterThan(20);
  });

  it('uses PAGER when BLOGCTL_PAGER is not set, and prints the post when the pager fails or is absent', async () => {
    expect((await show(true, { PAGER: "sed 's/^/P /'" })).out).toMatch(/^P _id: /);
    for (const pager of ['exit 3', 'no-such-pager-blogctl-test']) {
      const { out, blog } = await show(true, { BLOGCTL_PAGER: pager });
      expect(out, pager).toMatch(new RegExp(`^_id: +${blog._id}`));
      expect(out).toMatch(/^#+ \S/m);
    }
    // cat, or nothing, is no pager at all.
    expect((await show(true, { BLOGCTL_PAGER: '' })).out).toMatch(/^_id: /);
  });

  it('never pages piped, with --json or -q: piped, the text prints as it always has', async () => {
    const pager = `touch ${marker('paged')}; cat`;
    const piped = await show(false, { BLOGCTL_PAGER: pager });
    expect(piped.out).not.toMatch(/^#+ /m);
    expect(piped.out).toMatch(/^_id: /);
    const json = await show(true, { BLOGCTL_PAGER: pager }, { json: true });
    expect(JSON.parse(json.out)).toMatchObject({ _id: json.blog._id });
    expect(existsSync(marker('paged'))).toBe(false);
  });
});

describe('blog delete confirmation', () => {
  it('lists the titles and, when declined, cancels (exit 3) with nothing deleted', async () => {
    const blog = await sandbox.api().createBlog(blogParamsFor());
    const term = fakeIO(true);
    const prompter = scriptedPrompter([false]);
    const error = await deleteAction(input(depsFor(term, { prompter }), {}, [[blog._id, 'ghost']])).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).exitCode).toBe(3);
    expect(term.stderr()).toContain(`${blog._id}  ${blog.title}`);
    expect(term.stderr()).toContain('ghost  (not in your list)');
    expect(prompter.asked).toEqual(['confirm:Delete these 2?']);
    expect((await sandbox.api().listBlogs()).map((b) => b._id)).toContain(blog._id);
  });

  it('when confirmed, deletes and says so with the title', async () => {
    const blog = await sandbox.api().createBlog(blogParamsFor());
    const term = fakeIO(true);
    await deleteAction(input(depsFor(term, { prompter: scriptedPrompter([true]) }), {}, [[blog._id]]));
    expect(term.stderr()).toContain(`✔ Deleted ${blog._id} ${blog.title}`);
    expect(term.stdout()).toBe('');
    expect((await sandbox.api().listBlogs()).map((b) => b._id)).not.toContain(blog._id);
  });
});

describe('delete --json gotcha', () => {
  it('a --json value that is not an output field is an id', () => {
    expect(recoverIds(['b'], 'a')).toEqual({ ids: ['a', 'b'], json: true });
    expect(recoverIds(['a'], 'id,deleted')).toEqual({ ids: ['a'], json: 'id,deleted' });
    // A list naming a field is a field list, even with a misspelt one: refused, not deleted as an id.
    expect(recoverIds(['a'], 'id,bogus')).toEqual({ ids: ['a'], json: 'id,bogus' });
    expect(recoverIds(['a', 'a', ' '], true)).toEqual({ ids: ['a'], json: true });
  });
});

describe('deleteRun over one pool', () => {
  let server: Server;
  let url: string;
  let inFlight = 0;
  let maxInFlight = 0;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      sockets.add(req.socket);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        if (req.method !== 'DELETE' || !req.url?.startsWith('/api/v1/public/delete-blog/')) {
          res.writeHead(500).end(`unexpected ${req.method} ${req.url}`);
        } else if (req.url.endsWith('/down'))
          res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"down"}');
        else if (req.url.endsWith('/json'))
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
        else res.writeHead(204).end();
      }, 20);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('keeps at most --concurrency requests in flight, on at most that many connections', async () => {
    const deps = depsFor(fakeIO(false), { url, globals: { retries: '0' } });
    const ids = Array.from({ length: 20 }, (_, i) => `id${i}`);
    const outcomes = await deleteRun({ ids, concurrency: 3 }, deps);
    expect(outcomes.every((o) => o.deleted && o.status === 204)).toBe(true);
    expect(outcomes.map((o) => o.id)).toEqual(ids);
    expect(maxInFlight).toBe(3);
    expect(sockets.size).toBeLessThanOrEqual(3);
  });

  it('exit code is the worst outcome: a 503 beats the 204s and 200s', async () => {
    const term = fakeIO(false);
    const deps = depsFor(term, { url, globals: { retries: '0', json: true } });
    const error = await deleteAction(input(deps, { yes: true }, [['a', 'down', 'json']])).catch(
      (e: unknown) => e,
    );
    expect((error as { exitCode: number }).exitCode).toBe(7);
    expect(JSON.parse(term.stdout())).toEqual([
      { id: 'a', deleted: true, status: 204 },
      { id: 'down', deleted: false, status: 503, error: expect.stringContaining('HTTP 503') },
      { id: 'json', deleted: true, status: 200 },
    ]);
  });
});
