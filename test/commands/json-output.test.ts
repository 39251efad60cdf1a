// The `--json` contract for every command that prints data, as a script runs it: the command tree in-process
// (stdout a pipe, never a terminal) against the sandbox (relaying to a fake WordPress). Global options work
// anywhere on the line, so `--json` goes first, between the group and the verb, and last; each time stdout
// must be exactly one JSON document. The built CLI's own stdout: test/process/json-output.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { commandTree } from '../helpers/command-tree.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { jsonCases, unswept, type JsonContext } from '../helpers/sweeps.js';

guardStrayOutput();

let sandbox: TestSandbox;
let wp: FakeWordPress;
let dir: string;
let env: Record<string, string>;
const outputs: CliResult[] = [];

beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  dir = tempConfigDir();
  env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: sandbox.apiKey };
  await addSite('s1');
  writeFileSync(join(dir, 'a.md'), '---\ntitle: File A\n---\nHello from A.\n');
  writeFileSync(join(dir, 'b.md'), '---\ntitle: File B\n---\nHello from B.\n');
});
afterAll(async () => {
  // No secret in anything any command printed.
  for (const r of outputs)
    for (const secret of [sandbox.apiKey, wp.password]) {
      expect(r.stdout).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
  await Promise.all([sandbox?.close(), wp?.close()]);
});

async function blogctl(args: string[], input?: string): Promise<CliResult> {
  const result = await runInProcess(args, { env, ...(input !== undefined && { input }) });
  outputs.push(result);
  return result;
}

async function addSite(id: string): Promise<void> {
  const res = await blogctl(
    ['wp', 'sites', 'add', id, '--url', wp.url, '--username', wp.username, '--password-stdin', '--force'],
    `${wp.password}\n`,
  );
  expect(res.code, res.stderr).toBe(0);
}

async function newBlog(): Promise<string> {
  const res = await blogctl(['blog', 'create', ...createFlags(), '-q']);
  expect(res.code, res.stderr).toBe(0);
  return res.stdout.trim();
}

/** The servers and config dir each verb's cases run against (their sweep.ts files). */
const context: JsonContext = {
  get sandbox() {
    return sandbox;
  },
  get wp() {
    return wp;
  },
  get dir() {
    return dir;
  },
  newBlog,
  addSite,
};
const CASES = jsonCases();

describe('the cases', () => {
  it('run every declared verb that prints data (declares JSON fields)', () => {
    expect(unswept(commandTree()).json).toEqual([]);
  });
});

/** `--json` (or `--json <field>`) spliced in at `position`: first, after the group, or last. */
function withJson(args: string[], words: number, position: string, json: string[]): string[] {
  const at = position === 'first' ? 0 : position === 'after the group' ? 1 : args.length;
  expect(words).toBeGreaterThan(1);
  return [...args.slice(0, at), ...json, ...args.slice(at)];
}

/** Exactly one JSON document: the whole of stdout parses, and it ends with its one newline. */
function oneDocument(res: CliResult): unknown {
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout.endsWith('\n'), res.stdout).toBe(true);
  return JSON.parse(res.stdout);
}

describe('--json anywhere on the line: exactly one JSON document on stdout', () => {
  for (const [name, c] of Object.entries(CASES)) {
    for (const position of ['first', 'after the group', 'last']) {
      it(`${name}, --json ${position}`, async () => {
        const args = await c.args(context);
        oneDocument(await blogctl(withJson(args, c.words, position, ['--json']), c.input?.(context)));
      });
    }
  }
});

describe('--json <field>: only that field, on every command', () => {
  for (const [name, c] of Object.entries(CASES)) {
    for (const position of ['first', 'last']) {
      it(`${name}, --json ${c.field} ${position}`, async () => {
        const args = await c.args(context);
        const at = position === 'first' ? 0 : args.length;
        const res = await blogctl(
          [...args.slice(0, at), '--json', c.field, ...args.slice(at)],
          c.input?.(context),
        );
        const doc = oneDocument(res);
        const items = (Array.isArray(doc) ? doc : [doc]) as Record<string, unknown>[];
        expect(items.length, res.stdout).toBeGreaterThan(0);
        for (const item of items) expect(Object.keys(item)).toEqual([c.field]);
      });
    }
  }
});

describe('--json with a field the output does not have', () => {
  for (const [name, c] of Object.entries(CASES)) {
    if (c.open) continue;
    it(`${name}: exit 2 naming it and the available fields; nothing printed or sent`, async () => {
      const args = await c.args(context);
      const sent = sandbox.logs.length + wp.requests.length;
      const res = await blogctl([...args, '--json', `${c.field},bogus`], c.input?.(context));
      expect(res.code, res.stderr).toBe(2);
      expect(res.stdout).toBe('');
      const [line, json, ...rest] = res.stderr.trimEnd().split('\n');
      expect(line).toMatch(/^error: --json: unknown field "bogus" \(available: \w+(, \w+)*\)$/);
      expect(JSON.parse(json!)).toMatchObject({ error: 'usage', exitCode: 2 });
      expect(rest).toEqual([]);
      expect(sandbox.logs.length + wp.requests.length - sent).toBe(0);
    });
  }

  it('blog list, show and create: an unknown field is exit 2 before anything is sent, like every command', async () => {
    const id = await newBlog();
    const sent = sandbox.logs.length;
    for (const args of [
      ['blog', 'list', '--json', 'id,bogus'],
      ['blog', 'list', '--search', 'no such blog anywhere', '--json', 'bogus'],
      ['blog', 'show', id, '--json', 'id,bogus'],
      ['blog', 'create', ...createFlags(), '--json', 'id,bogus'],
    ]) {
      const res = await blogctl(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^error: --json: unknown field "bogus" \(available: id, _id, title, /);
    }
    expect(sandbox.logs.length).toBe(sent);
  });

  it('a known field no blog has is left out, with a warning-free exit 0', async () => {
    const res = await blogctl(['blog', 'list', '--search', 'no such blog anywhere', '--json', 'category']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('[]\n');
    expect(res.stderr).toBe('');
  });
});

describe('a --json field named like a command elsewhere in the tree', () => {
  it('is a field where that command cannot follow (`status` is also `auth status`)', async () => {
    await newBlog();
    for (const args of [
      ['blog', 'list', '--json', 'status'],
      ['--json', 'status', 'blog', 'list'],
      ['blog', '--json', 'status', 'list'],
    ]) {
      const res = await blogctl(args);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      for (const blog of JSON.parse(res.stdout) as object[]) expect(Object.keys(blog)).toEqual(['status']);
    }
  });

  it('is the command where it can follow: `wp --json settings …` is a bare --json', async () => {
    const res = await blogctl([
      'wp',
      '--json',
      'settings',
      'update',
      '--site',
      's1',
      '--label',
      'L',
      '--dry-run',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ settings: { id: 's1', label: 'L' } });
  });
});

describe('config set and unset with --json', () => {
  it('describe what they did: {key, value} as stored, {key, removed}', async () => {
    const set = await blogctl(['config', 'set', 'retries', '5', '--json']);
    expect(oneDocument(set)).toEqual({ key: 'retries', value: 5 });
    expect(set.stderr).toBe('');
    expect(oneDocument(await blogctl(['--json', 'config', 'unset', 'retries']))).toEqual({
      key: 'retries',
      removed: true,
    });
    expect(oneDocument(await blogctl(['config', 'unset', 'retries', '--json']))).toEqual({
      key: 'retries',
      removed: false,
    });
  });
});

describe('parse errors: one line, and with --json anywhere the JSON error object too', () => {
  // The wording itself: test/commands/error-wording.test.ts. The line may end in the advice, folded in.
  const cases: [string, string[], RegExp][] = [
    ['an unknown option', ['config', 'list', '--frob'], /^--frob: not a flag of blogctl config list/],
    ['an unknown command', ['config', 'lst'], /^"lst": not a command of blogctl config/],
    [
      'an invalid choice of an option',
      ['wp', 'publish', '--status', 'nope'],
      /^--status: "nope" must be one of publish, /,
    ],
    ['an invalid argument', ['completion', 'tcsh'], /^<shell>: "tcsh" must be one of /],
    ['a missing argument', ['config', 'get'], /^<key>: missing/],
    ['a missing option value', ['blog', 'list', '--limit'], /^--limit: missing its value/],
    ['too many arguments', ['config', 'path', 'extra'], /^"extra": too many arguments/],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: exit 2`, async () => {
      const text = await blogctl(args);
      expect(text.code).toBe(2);
      expect(text.stdout).toBe('');
      expect(text.stderr.split('\n')).toEqual([expect.stringMatching(/^error: /), '']);
      expect(text.stderr.slice('error: '.length).trimEnd()).toMatch(message);

      for (const line of [
        ['--json', ...args],
        [...args, '--json'],
        ['--json=id', ...args],
      ]) {
        const res = await blogctl(line);
        expect(res.code, line.join(' ')).toBe(2);
        expect(res.stdout).toBe('');
        const [first, json, ...rest] = res.stderr.split('\n');
        expect(first, line.join(' ')).toBe(text.stderr.trimEnd());
        const object = JSON.parse(json!) as Record<string, unknown>;
        expect(object).toMatchObject({
          error: 'usage',
          message: expect.stringMatching(message),
          exitCode: 2,
        });
        expect(Object.keys(object).filter((k) => k !== 'hints')).toEqual(['error', 'message', 'exitCode']);
        expect(rest).toEqual(['']);
      }
    });
  }
});
