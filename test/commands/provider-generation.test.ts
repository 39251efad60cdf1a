// `blogctl --sandbox blog create` with a text-generation provider (BLOGCTL_PROVIDER_URL, BLOGCTL_MODEL): the
// command tree in-process, its in-process sandbox writing through a fake OpenAI-compatible server on
// 127.0.0.1. Every case of the provider generator: each length, keywords and links, parameters reaching
// the prompts, truncation, 429 with Retry-After, 500s until the bound, a refused key, garbage, a hanging
// call, unsafe Markdown, and the provider key nowhere it should not be.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFlags, tempConfigDir } from '../helpers/cli.js';
import {
  answer,
  apiError,
  rateLimited,
  serverError,
  startFakeOpenAI,
  write,
  type FakeOpenAI,
} from '../helpers/fake-openai.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { blogParamsFor, startTestSandbox } from '../helpers/sandbox.js';
import { createSandboxGenerator } from '../../src/sandbox/provider.js';
import { createRun } from '../../src/commands/blog/create/run.js';
import { createDeps } from '../../src/factory.js';
import { IO } from '../../src/output/io.js';
import { PassThrough } from 'node:stream';

guardStrayOutput();

const KEY = 'sk-provider-test-4f9bb533aa11cc24';
let fake: FakeOpenAI;
let configDir: string;

beforeEach(async () => {
  fake = await startFakeOpenAI({ key: KEY });
  configDir = tempConfigDir();
});
afterEach(async () => {
  await fake.close();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    BLOGCTL_CONFIG_DIR: configDir,
    BLOGCTL_PROVIDER_URL: fake.url,
    BLOGCTL_MODEL: fake.model,
    BLOGCTL_PROVIDER_API_KEY: KEY,
    BLOGCTL_PROVIDER_RETRY_BASE_MS: '10',
    ...extra,
  };
}

function create(args: string[] = [], extra: Record<string, string> = {}) {
  return runInProcess(['--sandbox', 'blog', 'create', ...createFlags(), '--json', ...args], {
    env: env(extra),
  });
}

async function storedBlogs(): Promise<unknown[]> {
  // Listed without a provider: the list never needs one.
  const list = await runInProcess(['--sandbox', 'blog', 'list', '--json'], {
    env: { BLOGCTL_CONFIG_DIR: configDir },
  });
  expect(list.code, list.stderr).toBe(0);
  return JSON.parse(list.stdout) as unknown[];
}

/** Every file under the config dir (the sandbox's data file, its log, its key…), as text. */
function filesUnder(dir: string): string {
  let all = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    all += statSync(path).isDirectory() ? filesUnder(path) : readFileSync(path, 'latin1');
  }
  return all;
}

/** The key, and any piece of it a provider's message or a log could carry. */
function expectNoKey(...texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(0, 8));
    expect(text).not.toContain(KEY.slice(-8));
    expect(text).not.toContain('4f9b');
  }
}

const words = (html: string): number =>
  html
    .replace(/<[^>]+>/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;

describe('a post written by the model', () => {
  it.each([
    ['short', 300],
    ['medium', 800],
    ['long', 1500],
  ])(
    '%s: the model text, within a fifth of %i words, with the model and token usage',
    async (length, target) => {
      const result = await create(['--length', length]);
      expect(result.code, result.stderr).toBe(0);
      const blog = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(blog['title']).toBe('A Fake Guide to home espresso');
      expect(blog['slug']).toBe('fake-guide-home-espresso');
      expect(String(blog['excerpt']).length).toBeLessThanOrEqual(160);
      expect(blog['content']).toContain('every cup teaches something new');
      expect(blog['model']).toBe(fake.model);
      const usage = blog['usage'] as Record<string, number>;
      expect(usage['calls']).toBe(fake.requests.length);
      expect(usage['completionTokens']).toBeGreaterThan(0);
      expect(usage['totalTokens']).toBe(usage['promptTokens']! + usage['completionTokens']!);
      const count = blog['wordCount'] as number;
      expect(count).toBe(words(String(blog['content'])));
      expect(Math.abs(count - target)).toBeLessThanOrEqual(target * 0.2);
      // The record keeps the deterministic generator's fields.
      for (const field of [
        '_id',
        'createdAt',
        'status',
        'language',
        'topicKeywords',
        'blogLength',
        'toneStyle',
      ])
        expect(blog).toHaveProperty(field);
      expect(blog['blogLength']).toBe(length[0]!.toUpperCase() + length.slice(1));
      // An outline first, then one call per section, each with the key.
      expect(fake.requests[0]!.prompt).toContain('Answer with one JSON object');
      expect(fake.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
      expect(await storedBlogs()).toHaveLength(1);
    },
  );

  it('names every keyword and links every URL, and every parameter reaches the prompts', async () => {
    const links = [
      'https://example.com/grinders',
      'https://example.org/beans?x=1&y=2',
      'https://example.net/',
    ];
    const result = await create([
      '-k',
      'milk frothing,tamping pressure,water hardness',
      '--tone-custom',
      'warm but precise',
      '--category',
      'Coffee gear',
      ...links.flatMap((l) => ['--link', l]),
      '--linked-blog-url',
      'https://blog.example/posts',
      '--meta',
      'season=winter',
      '--language',
      'Deutsch=de',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const blog = JSON.parse(result.stdout) as Record<string, string>;
    const text = blog['content']!.replace(/<[^>]+>/g, ' ');
    for (const k of ['home espresso', 'grinder', 'milk frothing', 'tamping pressure', 'water hardness'])
      expect(text).toContain(k);
    for (const l of links) expect(blog['content']).toContain(`href="${l.replace(/&/g, '&amp;')}"`);
    // The related-reading link as given, never a path made up from it.
    expect(blog['content']).toContain('href="https://blog.example/posts"');
    expect(blog['content']).not.toContain('https://blog.example/posts/home-espresso');
    const prompts = fake.requests.map((r) => r.body.messages.map((m) => m.content).join('\n')).join('\n');
    for (const expected of [
      'Deutsch (de)',
      'warm but precise',
      'How-to guide',
      'Subscribe',
      'Beginners',
      'Coffee gear',
      '"season":"winter"',
      'https://blog.example/posts',
      ...links,
    ])
      expect(prompts).toContain(expected);
    expect(blog['language']).toBe('de');
    expect(blog['toneStyle']).toBe('warm but precise');
  });

  it('writes two sections at a time, never more', async () => {
    let open = 0;
    let most = 0;
    const held: (() => void)[] = [];
    let asked = 0;
    fake.respond = async (request) => {
      const section = /Write section \d+ of (\d+)/.exec(request.prompt);
      if (!section) return undefined;
      const last = ++asked === Number(section[1]);
      most = Math.max(most, ++open);
      // Each section waits until a second one is in flight (the last of an odd count, until it is the last
      // asked for), so the writer's bound is what limits how many are open.
      await new Promise<void>((release) => {
        held.push(release);
        if (held.length >= 2 || last) for (const r of held.splice(0)) r();
      });
      open--;
      return undefined;
    };
    const result = await create(['--length', 'long']);
    expect(result.code, result.stderr).toBe(0);
    expect(most).toBe(2);
  });
});

describe('never a broken post', () => {
  it('an answer cut off at its length limit is continued', async () => {
    let cut = false;
    fake.respond = (request) => {
      if (cut || !/Write section 2 /.test(request.prompt)) return undefined;
      cut = true;
      // The first part of the section, cut; the continuation request carries it as the assistant's turn.
      const whole = write(request).split(' ');
      return answer(whole.slice(0, whole.length - 6).join(' '), 'length');
    };
    const result = await create();
    expect(result.code, result.stderr).toBe(0);
    const continued = fake.requests.find((r) => /Continue exactly where it stopped/.test(r.prompt));
    expect(continued?.body.messages.at(-2)?.role).toBe('assistant');
    expect(JSON.parse(result.stdout).content).toContain('and that is the end of it.');
  });

  it('an answer still cut off after its continuations fails, and nothing is stored', async () => {
    fake.respond = (request) =>
      /Write section|Continue exactly/.test(request.prompt)
        ? answer('Half a sentence and', 'length')
        : undefined;
    const result = await create();
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('HTTP 502');
    expect(result.stderr).toContain('finish_reason "length"');
    expect(result.stderr).toContain(fake.url);
    expect(await storedBlogs()).toEqual([]);
  });

  it('fences, a preamble, a second H1 and unsafe HTML are removed', async () => {
    fake.respond = (request) => {
      if (!/Write section 1 /.test(request.prompt)) return undefined;
      const body = write(request);
      return answer(
        [
          'Sure! Here is the section you asked for:',
          '',
          '```markdown',
          '# A Second Title',
          '',
          'Getting started',
          '',
          body,
          '',
          '<script>alert(1)</script>',
          '',
          'Inline <img src=x onerror="alert(2)"> and <a href="javascript:alert(5)" onclick="x()">raw</a> tags.',
          '',
          '[click](javascript:alert(3)) [also](JaVa\tScRiPt:alert(4)) <javascript:alert(6)>',
          '```',
          '',
          'I hope this helps!',
        ].join('\n'),
      );
    };
    // The junk adds words: the section is asked again, and the second draft (plain) is taken only if the
    // first fails its count; either way the stored HTML must be clean.
    const result = await create(['--length', 'medium']);
    expect(result.code, result.stderr).toBe(0);
    const content = JSON.parse(result.stdout).content as string;
    expect(content).not.toMatch(/<script|alert\(1\)|<h1|A Second Title|```|Sure!|I hope this helps/i);
    expect(content).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(content).not.toMatch(/href="[^"]*script:/i);
    // What the unsafe parts said stays, as text.
    expect(content).toContain('<p>click ');
    expect(content).toContain('raw tags');
  });

  it('a section short of its words is asked again, with what was wrong', async () => {
    let shortened = false;
    fake.respond = (request) => {
      if (shortened || !/Write section 2 /.test(request.prompt)) return undefined;
      shortened = true;
      return answer('Only a few words here about grinder.');
    };
    const result = await create();
    expect(result.code, result.stderr).toBe(0);
    const revise = fake.requests.find((r) => /needs another draft/.test(r.prompt));
    expect(revise?.prompt).toMatch(/it has 7 words where \d+–\d+ were asked/);
  });

  it('with --strict, a keyword the model keeps leaving out fails the post, naming it', async () => {
    fake.respond = (request) =>
      /Write section|another draft/.test(request.prompt)
        ? answer(write(request).replace(/home espresso/g, 'coffee at home'))
        : undefined;
    const result = await create(['--strict']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('leaves out "home espresso"');
    expect(await storedBlogs()).toEqual([]);
  });
});

describe('providers fail', () => {
  it('429 is retried after its Retry-After', async () => {
    let limited = 0;
    fake.respond = () => (limited++ < 2 ? rateLimited(0) : undefined);
    const result = await create();
    expect(result.code, result.stderr).toBe(0);
    expect(limited).toBeGreaterThan(2);
  });

  it('a Retry-After beyond the bound fails at once with 503, the wait and the reason', async () => {
    fake.respond = () => rateLimited(600);
    const result = await create([], { BLOGCTL_PROVIDER_RETRY_MAX_MS: '5000' });
    expect(result.code).toBe(7);
    expect(fake.requests).toHaveLength(1);
    expect(result.stderr).toContain('HTTP 503');
    expect(result.stderr).toContain('rate_limit_exceeded');
    expect(result.stderr).toContain('asked to wait 600 s');
    expect(result.stderr).toContain(`model ${fake.model}`);
    expect(await storedBlogs()).toEqual([]);
  });

  it('500s are retried until the bound, then 503 with the reason and a hint naming provider and model', async () => {
    fake.respond = () => serverError();
    const result = await create([], {
      BLOGCTL_PROVIDER_RETRY_MAX_MS: '300',
      BLOGCTL_PROVIDER_RETRY_BASE_MS: '20',
    });
    expect(result.code).toBe(7);
    expect(fake.requests.length).toBeGreaterThan(2);
    expect(result.stderr).toContain('HTTP 500: The server had an error');
    expect(result.stderr).toMatch(/\d+ attempts in \d+ s; the retry bound is 0 s/);
    expect(result.stderr).toContain(
      `check that the provider ${fake.url} with model ${fake.model} is running`,
    );
    expect(await storedBlogs()).toEqual([]);
  });

  it('a refused key is exit 4 with the provider reason, and no piece of the key anywhere', async () => {
    const wrong = 'sk-provider-test-4f9bb533-WRONG';
    const result = await create([], { BLOGCTL_PROVIDER_API_KEY: wrong });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('HTTP 403');
    expect(result.stderr).toContain('refused the key: HTTP 401: Incorrect API key provided: [key]');
    expect(result.stderr).toContain('invalid_api_key');
    expect(result.stderr).toContain(`the provider ${fake.url} with model ${fake.model} refused the key`);
    expect(result.stderr).not.toContain(wrong.slice(0, 8));
    expect(result.stderr).not.toContain(wrong.slice(-4));
    expectNoKey(result.stdout, result.stderr, filesUnder(configDir));
    expect(await storedBlogs()).toEqual([]);
  });

  it('an unknown model is a 502 naming the model', async () => {
    const result = await create([], { BLOGCTL_MODEL: 'no-such-model' });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('HTTP 502');
    expect(result.stderr).toContain('The model `no-such-model` does not exist');
  });

  it.each([
    ['an HTML page', { status: 200, text: '<html><body>Gateway says hello</body></html>' }, 'not JSON'],
    [
      'JSON that is not a completion',
      { status: 200, body: { object: 'list', data: [] } },
      'not a chat completion',
    ],
    [
      'a 400 of its own',
      { status: 400, body: apiError('messages: too long', 'invalid_request_error') },
      'messages: too long',
    ],
  ])('garbage (%s) is a 502 with what was wrong, and nothing stored', async (_name, reply, expected) => {
    fake.respond = () => reply;
    const result = await create();
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('HTTP 502');
    expect(result.stderr).toContain(expected);
    expect(await storedBlogs()).toEqual([]);
  });

  it('an outline that is not JSON is asked again, then fails', async () => {
    fake.respond = (request) =>
      /Answer with one JSON object/.test(request.prompt)
        ? answer('Here is a plan: intro, body, end.')
        : undefined;
    const result = await create();
    expect(result.code).toBe(7);
    expect(fake.requests).toHaveLength(3);
    expect(result.stderr).toContain('no usable outline in 3 attempts');
  });

  it('a hanging call ends at the per-call timeout with 503', async () => {
    fake.respond = () => 'hang';
    const result = await create([], { BLOGCTL_PROVIDER_TIMEOUT: '1' });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('HTTP 503');
    expect(result.stderr).toContain('no complete answer within 1 s');
    expect(await storedBlogs()).toEqual([]);
  });

  it('an unreachable provider is a 503 that says so, at once', async () => {
    await fake.close();
    // With the default bound: a refused connection is not waited on.
    const result = await create([], { BLOGCTL_PROVIDER_RETRY_BASE_MS: '60000' });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('connection refused');
  });
});

describe('the key', () => {
  it('is sent to the provider and appears in no output, log or file', async () => {
    const result = await create(['--debug']);
    expect(result.code, result.stderr).toBe(0);
    expect(fake.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
    expectNoKey(result.stdout, result.stderr, filesUnder(configDir));
  });
});

describe('configuration', () => {
  it('a provider URL without a model is refused before anything is sent', async () => {
    const result = await create([], { BLOGCTL_MODEL: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('BLOGCTL_PROVIDER_URL needs a model');
    expect(fake.requests).toEqual([]);
  });

  it('without a provider the deterministic generator writes the post', async () => {
    const result = await runInProcess(['--sandbox', 'blog', 'create', ...createFlags(), '--json'], {
      env: { BLOGCTL_CONFIG_DIR: configDir },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).not.toHaveProperty('model');
    expect(fake.requests).toEqual([]);
  });
});

describe('prompts and progress', () => {
  it('BLOGCTL_PROMPTS_DIR replaces a shipped prompt by name', async () => {
    const dir = join(configDir, 'my-prompts');
    mkdirSync(dir);
    writeFileSync(join(dir, 'system.md'), 'You write like a pirate, in {language}, for {audience}.\n');
    const result = await create([], { BLOGCTL_PROMPTS_DIR: dir });
    expect(result.code, result.stderr).toBe(0);
    const system = fake.requests[0]!.body.messages[0]!;
    expect(system).toEqual({
      role: 'system',
      content: 'You write like a pirate, in English, for Beginners.',
    });
  });

  it('the spinner line says how far the in-process sandbox is with the post', async () => {
    const io = new IO({
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      env: {},
    });
    const updates: string[] = [];
    io.spinner = async () => ({ update: (text: string) => void updates.push(text), stop() {} });
    const deps = createDeps({
      globals: { sandbox: true },
      env: env(),
      io,
      signal: new AbortController().signal,
    });
    try {
      const params = { ...blogParamsFor(), externalProviderApiKey: KEY };
      const result = await createRun({ params, dryRun: false }, deps);
      expect(result.dryRun).toBe(false);
    } finally {
      await deps.cleanup();
    }
    expect(updates).toEqual([
      'Generating blog post… outline',
      'Generating blog post… 0/3 sections',
      'Generating blog post… 1/3 sections',
      'Generating blog post… 2/3 sections',
      'Generating blog post… 3/3 sections',
    ]);
  });
});

describe('blogctl sandbox in-process (runSandboxCommand)', () => {
  it.each([
    [true, 'a line per section on a terminal'],
    [false, 'one line per post elsewhere'],
  ])('logs progress: %s (%s)', async (tty) => {
    const { runSandboxCommand } = await import('../../src/sandbox/cli-entry.js');
    const stderr = Object.assign(new PassThrough(), { isTTY: tty });
    let log = '';
    stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
    const stop = new AbortController();
    const listening = new Promise<string>((resolve) =>
      stderr.on('data', () => {
        const m = /listening on (\S+)/.exec(log);
        if (m) resolve(m[1]!);
      }),
    );
    const running = runSandboxCommand({
      port: 0,
      apiKeys: ['k'],
      provider: { url: fake.url, model: fake.model, serverKey: KEY },
      stderr,
      signal: stop.signal,
    });
    const url = await listening;
    const result = await runInProcess(['blog', 'create', ...createFlags(), '-q'], {
      env: { BLOGCTL_CONFIG_DIR: configDir, BLOGCTL_BASE_URL: url, BLOGCTL_API_KEY: 'k' },
    });
    stop.abort();
    await running;
    expect(result.code, result.stderr).toBe(0);
    const id = result.stdout.trim();
    expect(log).toContain(`posts are written by ${fake.model} at ${fake.url}`);
    expect(log).toMatch(
      new RegExp(`create-blog ${id}: \\d+ words written by ${fake.model} \\(4 calls, \\d+ tokens\\)`),
    );
    if (tty) {
      expect(log).toContain(`create-blog ${id}: outline (${fake.model})`);
      expect(log).toContain(`create-blog ${id}: 3/3 sections (${fake.model})`);
    } else expect(log).not.toContain('sections');
    expectNoKey(log);
  });
});

describe('a failed post', () => {
  it('ends the calls of the sections still being written, and the sandbox answers at once', async () => {
    // Section 1 is refused for good while section 2 hangs: the post fails on the first, and the second's
    // call is closed rather than left to its timeout.
    fake.respond = (request) =>
      /Write section 1 /.test(request.prompt)
        ? { status: 400, body: apiError('context length exceeded', 'invalid_request_error') }
        : /Write section/.test(request.prompt)
          ? 'hang'
          : undefined;
    const sandbox = await startTestSandbox({
      generator: createSandboxGenerator({ url: fake.url, model: fake.model, serverKey: KEY }),
    });
    try {
      await expect(sandbox.api().createBlog(blogParamsFor())).rejects.toThrow(/context length exceeded/);
      await vi.waitFor(() => expect(fake.abandoned).toBe(1));
      expect(fake.requests.filter((r) => /Write section/.test(r.prompt))).toHaveLength(2);
      expect(await sandbox.api().listBlogs()).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
