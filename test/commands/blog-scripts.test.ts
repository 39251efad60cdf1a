// `blog` commands as scripts and cron jobs run them (stdin and stdout pipes, never a terminal), in-process
// through cli.run against the sandbox on port 0. What needs processes — overlapping runs on one config dir —
// is in test/process/blog.test.ts.
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

guardStrayOutput();

const PROVIDER_KEY = 'prov-secret-7f3a9c2e41';
const REQUIRED = createFlags();

let sandbox: TestSandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  configDir = tempConfigDir();
});
afterAll(async () => {
  await sandbox?.close();
});

/** blogctl against the shared sandbox, with its key and an empty config dir. */
function cli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; target?: TestSandbox } = {},
): Promise<CliResult> {
  const target = options.target ?? sandbox;
  return runInProcess(['--base-url', target.url, ...args], {
    env: { BLOGCTL_API_KEY: target.apiKey, BLOGCTL_CONFIG_DIR: configDir, ...options.env },
    ...(options.input !== undefined && { input: options.input }),
  });
}

const requests = (s: TestSandbox, what: string): number => s.logs.filter((l) => l.startsWith(what)).length;
const CREATE = 'POST /api/v1/public/create-blog';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function expectNoSecret(result: CliResult, secret: string): void {
  expect(result.stdout).not.toContain(secret);
  expect(result.stderr).not.toContain(secret);
}

describe('blog create', () => {
  it('creates from flags and prints a summary', async () => {
    const r = await cli(['blog', 'create', ...REQUIRED]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^id: +[0-9a-f]{24}\ntitle: .+\nwords: \d+\n\n {2}\S/);
    expect(r.stdout).not.toMatch(/<[a-z]/);
  });

  it('-q prints only the id; --json the blog as returned; --json id,title only those', async () => {
    const q = await cli(['blog', 'create', ...REQUIRED, '-q']);
    expect(q.code).toBe(0);
    expect(q.stdout).toMatch(/^[0-9a-f]{24}\n$/);

    const full = await cli(['blog', 'create', ...REQUIRED, '--json']);
    expect(full.code).toBe(0);
    const blog = JSON.parse(full.stdout);
    expect(blog).toMatchObject({
      _id: expect.any(String),
      title: expect.any(String),
      content: expect.stringContaining('<'),
      blogLength: 'Short',
    });

    const picked = await cli(['blog', 'create', ...REQUIRED, '--json', 'id,title']);
    expect(Object.keys(JSON.parse(picked.stdout))).toEqual(['id', 'title']);
  });

  it('creates from a -f file, with flags overriding it', async () => {
    const file = join(tempConfigDir(), 'params.json');
    writeFileSync(
      file,
      JSON.stringify({ blogParams: blogParamsFor({ blogLength: { name: 'Long', value: 'Long' } }) }),
    );
    const r = await cli(['blog', 'create', '-f', file, '--length', 'medium', '--json']);
    expect(r.code).toBe(0);
    const blog = JSON.parse(r.stdout);
    expect(blog.blogLength).toBe('Medium');
    expect(blog.topicKeywords).toEqual(['home espresso', 'grinder']);
  });

  it('creates from -f - (stdin), bare BlogParams', async () => {
    const r = await cli(['blog', 'create', '-f', '-', '-q'], { input: JSON.stringify(blogParamsFor()) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{24}\n$/);
  });

  it('--dry-run prints the exact body, needs no config or key, and sends nothing', async () => {
    const port = await closedPort();
    const r = await runInProcess(
      ['--base-url', `http://127.0.0.1:${port}`, 'blog', 'create', ...REQUIRED, '--meta', 'n=5', '--dry-run'],
      {
        env: { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_PROVIDER_API_KEY: PROVIDER_KEY },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toEqual({
      blogParams: {
        topicKeywords: ['home espresso', 'grinder'],
        language: { name: 'English', value: 'English' },
        toneStyle: { name: 'Friendly', value: 'Friendly' },
        contentStructure: { name: 'How-to guide', value: 'How-to guide' },
        callToAction: { name: 'Subscribe', value: 'Subscribe' },
        targetAudience: { name: 'Beginners', value: 'Beginners' },
        blogLength: { name: 'Short', value: 'Short' },
        metaData: { n: 5 },
        externalProviderApiKey: '***',
      },
    });
    expectNoSecret(r, PROVIDER_KEY);
  });

  it('without a terminal, names every missing flag, exits 2 and sends nothing', async () => {
    const before = requests(sandbox, CREATE);
    const r = await cli([
      'blog',
      'create',
      '--language',
      'English',
      '--structure',
      'Listicle',
      '--cta',
      'Subscribe',
      '--audience',
      'Beginners',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'missing required parameters: --keyword, --tone, --length (cannot ask: stdin is not a terminal)',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    expect(requests(sandbox, CREATE)).toBe(before);
  });

  it('with CI set it never prompts, and says why', async () => {
    const r = await cli(['blog', 'create', '-k', 'x'], { env: { CI: 'true' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--language, --tone, --structure, --cta, --audience, --length (cannot ask: CI is set)',
    );
  });

  it.each([
    [['--link', 'ftp://x'], '--link: "ftp://x" must be an http(s) URL'],
    [['--length', 'huge'], '--length: "huge" must be short, medium or long'],
    [['--meta', 'novalue'], '--meta: expected key=value'],
    [['--tone', '=x'], '--tone: "=x" needs a name before "="'],
    [['--linked-blog-url', 'nope'], '--linked-blog-url: "nope" must be an http(s) URL'],
  ])('invalid %j → exit 2 naming the flag, nothing sent', async (extra, message) => {
    const before = requests(sandbox, CREATE);
    const r = await cli(['blog', 'create', ...REQUIRED, ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(requests(sandbox, CREATE)).toBe(before);
  });

  it('a file with a bad value names the file and the field', async () => {
    const file = join(tempConfigDir(), 'bad.json');
    writeFileSync(file, JSON.stringify(blogParamsFor({ hyperlinks: ['javascript:alert(1)'] })));
    const r = await cli(['blog', 'create', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: hyperlinks[0]: must be an http(s) URL`);
    const missing = await cli(['blog', 'create', '-f', join(configDir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
  });

  it('the provider key from the environment is sent but never printed, even with --debug', async () => {
    const r = await cli(['--debug', 'blog', 'create', ...REQUIRED, '--json'], {
      env: { BLOGCTL_PROVIDER_API_KEY: PROVIDER_KEY },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[debug]');
    expectNoSecret(r, PROVIDER_KEY);
  });

  it('--provider-key-stdin reads the first line; never printed; dry-run redacts it', async () => {
    const key = 'prov-stdin-secret-93b1d0';
    const r = await cli(['blog', 'create', ...REQUIRED, '--provider-key-stdin', '-q'], {
      input: `${key}\nignored\n`,
    });
    expect(r.code).toBe(0);
    expectNoSecret(r, key);
    const dry = await cli(['blog', 'create', ...REQUIRED, '--provider-key-stdin', '--dry-run'], {
      input: `${key}\n`,
    });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).blogParams.externalProviderApiKey).toBe('***');
    expectNoSecret(dry, key);
  });

  it('--provider-key-stdin with -f - is refused; an empty stdin key too', async () => {
    const both = await cli(['blog', 'create', '-f', '-', '--provider-key-stdin'], { input: '{}' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--provider-key-stdin and -f - both read stdin');
    const empty = await cli(['blog', 'create', ...REQUIRED, '--provider-key-stdin']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--provider-key-stdin: no key on the first line of stdin');
  });
});

describe('blog list / show', () => {
  let listSandbox: TestSandbox;
  const ids: string[] = [];
  beforeAll(async () => {
    listSandbox = await startTestSandbox();
    const api = listSandbox.api();
    for (const [kw, length] of [
      ['espresso basics', 'Short'],
      ['tea ceremony', 'Long'],
      ['espresso grinders', 'Medium'],
    ] as const) {
      const blog = await api.createBlog(
        blogParamsFor({ topicKeywords: [kw], blogLength: { name: length, value: length } }),
      );
      ids.push(blog._id);
      // Each blog created at a later millisecond than the one before, so their order is their dates'.
      await waitFor(
        () => Date.now() > Date.parse(String(blog['createdAt'])),
        'the clock to pass the last creation',
      );
    }
  });
  afterAll(() => listSandbox?.close());
  const run = (args: string[]) => cli(args, { target: listSandbox });

  it('piped: tab-separated rows, no header, nothing cut, no colour', async () => {
    const r = await run(['blog', 'list']);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(3);
    // Newest first, as gh lists.
    expect(rows.map((c) => c[0])).toEqual([...ids].reverse());
    for (const row of rows) {
      expect(row).toHaveLength(5); // ID, TITLE, CREATED, STATUS, WORDS
      expect(row[2]).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('--json prints the array; --json id,title only those fields', async () => {
    const all = JSON.parse((await run(['blog', 'list', '--json'])).stdout);
    expect(all.map((b: { _id: string }) => b._id)).toEqual([...ids].reverse());
    expect(all[0]).toHaveProperty('content');
    const picked = JSON.parse((await run(['blog', 'list', '--json', 'id,title'])).stdout);
    expect(picked).toHaveLength(3);
    for (const b of picked) expect(Object.keys(b)).toEqual(['id', 'title']);
    expect(picked[0].id).toBe(ids[2]);
  });

  it('--search, --sort (descending with -) and --limit work on the client', async () => {
    const search = await run(['blog', 'list', '--search', 'ESPRESSO', '-q']);
    expect(search.stdout.trim().split('\n')).toEqual([ids[2], ids[0]]);
    const oldest = await run(['blog', 'list', '--sort', 'createdAt', '-q']);
    expect(oldest.stdout.trim().split('\n')).toEqual(ids);
    const sorted = await run(['blog', 'list', '--sort', '-createdAt', '--limit', '2', '-q']);
    expect(sorted.stdout.trim().split('\n')).toEqual([ids[2], ids[1]]);
    const byWords = await run(['blog', 'list', '--sort=-wordCount', '--json', 'id']);
    expect(JSON.parse(byWords.stdout).map((b: { id: string }) => b.id)).toEqual([ids[1], ids[2], ids[0]]);
    const bad = await run(['blog', 'list', '--limit', 'zero']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit: expected a whole number');
  });

  it('an empty list exits 0 with nothing on stdout (and [] with --json)', async () => {
    const empty = await startTestSandbox();
    try {
      const r = await cli(['blog', 'list'], { target: empty });
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect((await cli(['blog', 'list', '--json'], { target: empty })).stdout.trim()).toBe('[]');
    } finally {
      await empty.close();
    }
  });

  it('show prints one blog; --field content prints the HTML raw; --json picks fields', async () => {
    const r = await run(['blog', 'show', ids[1]!]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`_id:`);
    expect(r.stdout).toContain(ids[1]);
    expect(r.stdout).not.toMatch(/<p>/);

    const blog = (await listSandbox.api().listBlogs()).find((b) => b._id === ids[1])!;
    const raw = await run(['blog', 'show', ids[1]!, '--field', 'content']);
    expect(raw.code).toBe(0);
    expect(raw.stdout).toBe(blog['content']);

    const words = await run(['blog', 'show', ids[1]!, '--field', 'wordCount']);
    expect(words.stdout).toBe(`${String(blog['wordCount'])}\n`);

    // `--json <id>` would swallow the id: show recovers it.
    const swallowed = await run(['blog', 'show', '--json', ids[1]!]);
    expect(swallowed.code).toBe(0);
    expect(JSON.parse(swallowed.stdout)._id).toBe(ids[1]);
    const picked = await run(['blog', 'show', '--json', 'title', ids[1]!]);
    expect(JSON.parse(picked.stdout)).toEqual({ title: blog.title });
  });

  it('show of an unknown id exits 5 naming it; an unknown --field exits 2', async () => {
    const r = await run(['blog', 'show', 'nope123']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('blog "nope123" not found');
    const field = await run(['blog', 'show', ids[0]!, '--field', 'nosuch']);
    expect(field.code).toBe(2);
    expect(field.stderr).toContain('has no field "nosuch"');
  });
});

describe('blog delete', () => {
  it('with --yes deletes (200 with JSON); an unknown id is reported, the others deleted, exit 5', async () => {
    const api = sandbox.api();
    const a = (await api.createBlog(blogParamsFor()))._id;
    const b = (await api.createBlog(blogParamsFor()))._id;
    const r = await cli(['blog', 'delete', '--yes', a, 'missing-id', b]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no blog with id "missing-id"');
    expect(r.stderr).toContain('1 of 3 blog posts not deleted (missing-id); 2 deleted');
    const left = (await api.listBlogs()).map((x) => x._id);
    expect(left).not.toContain(a);
    expect(left).not.toContain(b);
  });

  it('--json reports each id; `--json <id>` is read as an id; 204 counts as deleted', async () => {
    const s204 = await startTestSandbox({ deleteStatus: 204 });
    try {
      const api = s204.api();
      const a = (await api.createBlog(blogParamsFor()))._id;
      const b = (await api.createBlog(blogParamsFor()))._id;
      const r = await cli(['blog', 'delete', '--yes', '--json', a, b, 'ghost'], { target: s204 });
      expect(r.code).toBe(5);
      expect(JSON.parse(r.stdout)).toEqual([
        { id: a, deleted: true, status: 204 },
        { id: b, deleted: true, status: 204 },
        { id: 'ghost', deleted: false, status: 404, error: expect.stringContaining('HTTP 404') },
      ]);
      expect(await api.listBlogs()).toEqual([]);
    } finally {
      await s204.close();
    }
  });

  it('-q prints the deleted ids; --concurrency bounds the work; status 200 too', async () => {
    const api = sandbox.api();
    const created: string[] = [];
    for (let i = 0; i < 6; i++) created.push((await api.createBlog(blogParamsFor()))._id);
    const r = await cli(['blog', 'delete', '-y', '--concurrency', '3', '-q', ...created]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual([...created].sort());
    const json = await cli(['blog', 'delete', '-y', '--json', 'id,deleted,status', 'gone']);
    expect(JSON.parse(json.stdout)).toEqual([{ id: 'gone', deleted: false, status: 404 }]);
  });

  it('without a terminal and without --yes refuses with exit 2 and deletes nothing', async () => {
    const api = sandbox.api();
    const a = (await api.createBlog(blogParamsFor()))._id;
    const before = requests(sandbox, 'DELETE');
    const r = await cli(['blog', 'delete', a]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(requests(sandbox, 'DELETE')).toBe(before);
    expect((await api.listBlogs()).map((x) => x._id)).toContain(a);
  });
});

describe('errors map to exit codes', () => {
  it('a wrong API key → 4', async () => {
    const r = await cli(['blog', 'list'], { env: { BLOGCTL_API_KEY: 'wrong-key-123456' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: list blogs failed: HTTP 401/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const del = await cli(['blog', 'delete', '--yes', 'a', 'b', 'c'], {
      env: { BLOGCTL_API_KEY: 'wrong-key-123456' },
    });
    expect(del.code).toBe(4);
  });

  it('no base URL → 2, saying how to set one', async () => {
    const r = await runInProcess(['blog', 'list'], {
      env: { BLOGCTL_API_KEY: 'k-123456', BLOGCTL_CONFIG_DIR: tempConfigDir() },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no service base URL configured');
  });

  it('an unreachable server → 7 (list, create, delete)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = { BLOGCTL_API_KEY: 'k-123456', BLOGCTL_CONFIG_DIR: tempConfigDir() };
    for (const args of [
      ['blog', 'list'],
      ['blog', 'create', ...REQUIRED],
      ['blog', 'delete', '--yes', 'x', 'y'],
    ]) {
      const r = await runInProcess(['--base-url', url, '--retries', '0', ...args], { env });
      expect(r.code, args.join(' ')).toBe(7);
      expect(r.stderr).toContain('cannot reach');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('bulk delete against a service that cannot be reached: the ids after the first failures are not attempted', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const env = { BLOGCTL_API_KEY: 'k-123456', BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const ids = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6'];
    const r = await runInProcess(
      [
        '--base-url',
        url,
        '--retries',
        '0',
        'blog',
        'delete',
        '--yes',
        ...ids,
        '--concurrency',
        '2',
        '--json',
      ],
      { env },
    );
    expect(r.code).toBe(7);
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { details: string[] };
    expect(error.details.filter((d) => /cannot reach .*connection refused/.test(d))).toHaveLength(6);
    expect(error.details.filter((d) => /^\w+: not attempted: /.test(d)).map((d) => d.split(':')[0])).toEqual(
      ids.slice(2),
    );
  });

  it('a list whose blogs break the schema → 7 naming the item and field (the schema loads while the list is on its way)', async () => {
    const server = createHttpServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify([{ _id: 'a', title: 'ok' }, { title: 'no id' }]));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const env = { BLOGCTL_API_KEY: 'k-123456', BLOGCTL_CONFIG_DIR: tempConfigDir() };
      for (const args of [
        ['blog', 'list'],
        ['blog', 'show', 'a'],
      ]) {
        const r = await runInProcess(['--base-url', `http://127.0.0.1:${port}`, ...args], { env });
        expect(r.code, args.join(' ')).toBe(7);
        expect(r.stderr).toBe(
          'error: list blogs: unexpected response from the server: [1]._id: is required\n',
        );
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('--json errors are also one JSON object on stderr', async () => {
    const r = await cli(['blog', 'show', 'nope', '--json']);
    expect(r.code).toBe(5);
    const last = r.stderr.trim().split('\n').at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ error: 'not_found', exitCode: 5 });
  });
});

describe('--sandbox (state in the config dir)', () => {
  it('create, list and delete against the in-process sandbox', async () => {
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir };
    const created = await runInProcess(['--sandbox', 'blog', 'create', ...REQUIRED, '-q'], { env });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    const list = await runInProcess(['--sandbox', 'blog', 'list', '--json', 'id,title'], { env });
    expect(JSON.parse(list.stdout).map((b: { id: string }) => b.id)).toEqual([id]);
    const del = await runInProcess(['--sandbox', 'blog', 'delete', '--yes', '-q', id], { env });
    expect(del).toMatchObject({ code: 0, stdout: `${id}\n` });
    const after = await runInProcess(['--sandbox', 'blog', 'list', '--json'], { env });
    expect(JSON.parse(after.stdout)).toEqual([]);
  });
});
