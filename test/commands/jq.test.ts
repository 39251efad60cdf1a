// `--jq <expression>`: jq itself (jq-wasm) over the JSON a command prints, in-process against the sandbox and
// a fake WordPress. The built CLI (the bundle's lazily loaded chunk, exit codes): test/process/jq.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

let sandbox: TestSandbox;
let wp: FakeWordPress;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  dir = tempConfigDir();
  env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: sandbox.apiKey };
  const add = await blogctl(
    ['wp', 'sites', 'add', 's1', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    `${wp.password}\n`,
  );
  expect(add.code, add.stderr).toBe(0);
  writeFileSync(join(dir, 'a.md'), '---\ntitle: File A\n---\nHello from A.\n');
  writeFileSync(join(dir, 'b.md'), '---\ntitle: File B\n---\nHello from B.\n');
  for (const keywords of ['home espresso', 'green tea'])
    expect((await blogctl(['blog', 'create', ...createFlags(keywords), '-q'])).code).toBe(0);
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close()]);
});

function blogctl(args: string[], input?: string): Promise<CliResult> {
  return runInProcess(args, { env, ...(input !== undefined && { input }) });
}

/** What the command prints with --json, parsed. */
async function jsonOf(args: string[]): Promise<unknown> {
  const res = await blogctl([...args, '--json']);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

describe('--jq runs jq over the JSON the command prints (it implies --json)', () => {
  it('strings print as their text, one result a line (what gh and `jq -r` print)', async () => {
    const blogs = (await jsonOf(['blog', 'list'])) as { title: string }[];
    const res = await blogctl(['blog', 'list', '--jq', '.[].title']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(blogs.map((b) => `${b.title}\n`).join(''));
    expect(res.stderr).toBe('');
  });

  it('anything else prints as JSON, indented as jq indents it', async () => {
    const res = await blogctl(['config', 'path', '--jq', '{dir}, 1, [true, null]']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`{\n  "dir": ${JSON.stringify(dir)}\n}\n1\n[\n  true,\n  null\n]\n`);
  });

  it("jq's own semantics: select, map, length, string interpolation, a string with a line break", async () => {
    const blogs = (await jsonOf(['blog', 'list'])) as { title: string }[];
    const tea = blogs.filter((b) => /tea/i.test(b.title));
    expect(tea.length).toBeGreaterThan(0);
    const res = await blogctl([
      'blog',
      'list',
      '--jq',
      '(map(select(.title | test("tea"; "i"))) | .[] | "title:\\t\\(.title)"), length, "a\\nb"',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`${tea.map((b) => `title:\t${b.title}\n`).join('')}${blogs.length}\na\nb\n`);
  });

  it('--json with fields is applied first', async () => {
    const res = await blogctl(['--json', 'id', 'blog', 'list', '--jq', '.[0] | keys']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(['id']);
  });

  it('no results: nothing printed, exit 0', async () => {
    const res = await blogctl(['wp', 'sites', 'list', '--jq', '.[] | select(.id == "nosuch")']);
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it.each([
    [['auth', 'status'], 'has("accepted")'],
    [['config', 'list'], 'has("settings")'],
    [['blog', 'show', 'FIRST'], 'has("title")'],
    [['blog', 'create', ...createFlags('jq blog')], 'has("title")'],
    [['wp', 'sites', 'show', 's1'], '.id == "s1"'],
    [['wp', 'sites', 'verify', 's1'], 'has("can")'],
    [['wp', 'publish', '--site', 's1', '--title', 'T', '--content', 'c'], '.[0] | has("link")'],
    [['wp', 'publish', '--site', 's1', 'a.md', 'b.md'], 'map(has("action")) | all'],
    [['wp', 'settings', 'update', '--site', 's1', '--label', 'Main', '--dry-run'], 'has("settings")'],
  ])('%j --jq %s', async (words, expression) => {
    const args = await Promise.all(
      words.map(async (w) =>
        w === 'FIRST'
          ? (await blogctl(['blog', 'create', ...createFlags(), '-q'])).stdout.trim()
          : w.endsWith('.md')
            ? join(dir, w)
            : w,
      ),
    );
    const res = await blogctl([...args, '--jq', expression]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('true\n');
  });
});

describe('a command that fails after printing its JSON', () => {
  it("still has it filtered, and exits with the command's own code", async () => {
    // An unknown id among the ones to delete: exit 5, and the JSON reports each id.
    const made = async (): Promise<string> =>
      (await blogctl(['blog', 'create', ...createFlags('to delete'), '-q'])).stdout.trim();
    const plain = await blogctl(['blog', 'delete', await made(), 'nosuchblog', '--yes', '--json']);
    expect(plain.code, plain.stderr).toBe(5);
    const rows = JSON.parse(plain.stdout) as { deleted: boolean }[];
    const res = await blogctl([
      'blog',
      'delete',
      await made(),
      'nosuchblog',
      '--yes',
      '--jq',
      '.[] | .deleted',
    ]);
    expect(res.code, res.stderr).toBe(5);
    expect(res.stdout).toBe(rows.map((r) => `${r.deleted}\n`).join(''));
    expect(res.stdout).toBe('true\nfalse\n');
  });
});

describe('a jq error: exit 2, one line naming --jq with jq’s own message', () => {
  it('an expression that does not compile fails before the command does anything', async () => {
    const sent = sandbox.logs.length;
    const res = await blogctl(['blog', 'create', ...createFlags(), '--jq', '.[']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const [line, json, ...rest] = res.stderr.trimEnd().split('\n');
    expect(line).toBe('error: --jq: syntax error, unexpected end of file at <top-level>, line 1, column 2');
    expect(JSON.parse(json!)).toMatchObject({ error: 'usage', exitCode: 2 });
    expect(rest).toEqual([]);
    expect(sandbox.logs.length).toBe(sent);
  });

  it.each([
    ['.title | lenght', 'lenght/0 is not defined at <top-level>, line 1, column 10'],
    ['.[] | lenght(1)', 'lenght/1 is not defined at <top-level>, line 1, column 7'],
    ['$nope', '$nope is not defined at <top-level>, line 1, column 1'],
    ['def f: 1;\n  f | nope', 'nope/0 is not defined at <top-level>, line 2, column 7'],
    ['label $out | break $other', '$*label-other is not defined at <top-level>, line 1, column 14'],
    ['"\\(lenght)"', 'lenght/0 is not defined'],
    ['include "nosuch"; .', 'module not found: nosuch'],
  ])(
    '%j, which jq would not compile, fails with exit 2 before anything is sent',
    async (expression, message) => {
      const sent = sandbox.logs.length;
      const res = await blogctl(['blog', 'create', ...createFlags(), '--jq', expression]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr.split('\n')[0]).toContain(`error: --jq: ${message}`);
      expect(sandbox.logs.length, 'nothing was sent').toBe(sent);
    },
  );

  it('the check never runs the expression: one that would never end is rejected at once for its typo', async () => {
    const res = await blogctl(['config', 'path', '--jq', 'def f: f; f | lenght']);
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')[0]).toContain('lenght/0 is not defined');
  });

  it('an error while running (error/1, a wrong type): exit 1, not 2, since the command has already run', async () => {
    for (const [expression, message] of [
      ['error("boom")', 'boom'],
      ['.[] | .title + 1', 'string ("'],
    ]) {
      const res = await blogctl(['blog', 'list', '--jq', expression!]);
      expect(res.code, expression).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr.split('\n')[0]).toContain(`error: --jq: ${message}`);
      expect(res.stderr.split('\n')[0]).toContain('the command itself completed');
    }
    // A command that sends: the blog is made, and the exit code does not say "nothing was sent".
    const before = sandbox.logs.length;
    const created = await blogctl(['blog', 'create', ...createFlags(), '--jq', '.[0]']);
    expect(created.code, created.stderr).toBe(1);
    expect(sandbox.logs.length).toBeGreaterThan(before);
  });

  it('an empty expression', async () => {
    const res = await blogctl(['config', 'path', '--jq', ' ']);
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')[0]).toBe('error: --jq: give a jq expression, e.g. --jq ".[].id"');
  });

  it('a command that prints no JSON', async () => {
    const res = await blogctl(['completion', 'bash', '--jq', '.']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.split('\n')[0]).toBe('error: --jq: this command does not print JSON');
  });
});
