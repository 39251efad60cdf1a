// One output shape per command, in-process against the sandbox and a fake WordPress: `wp publish --json` is
// an array of rows whatever names the post (a file, --content-file, flags), and piped rows have the same
// columns in a dry run as in a run.
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

let sandbox: TestSandbox;
let wp: FakeWordPress;
let home: string;
const cwd = process.cwd();
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  home = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-shapes-')));
  process.chdir(home);
});
afterAll(async () => {
  process.chdir(cwd);
  await Promise.all([sandbox?.close(), wp?.close()]);
});

async function setup(): Promise<(args: string[]) => Promise<CliResult>> {
  const env = {
    BLOGCTL_CONFIG_DIR: tempConfigDir(),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
  };
  const add = await runInProcess(
    ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    { env, input: `${wp.password}\n` },
  );
  expect(add.code, add.stderr).toBe(0);
  return (args) => runInProcess(args, { env });
}

describe('wp publish --json', () => {
  it('FILE and --content-file FILE: the same array of rows, with the same keys', async () => {
    const run = await setup();
    writeFileSync(join(home, 'one.md'), '# One\n\nFirst.\n');
    writeFileSync(join(home, 'two.md'), '# Two\n\nSecond.\n');
    const positional = await run(['wp', 'publish', '--site', 'blog', 'one.md', '--json']);
    const flag = await run(['wp', 'publish', '--site', 'blog', '--content-file', 'two.md', '--json']);
    const fromFlags = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'T',
      '--content',
      'c',
      '--json',
    ]);
    const shapes = [positional, flag, fromFlags].map((res) => {
      expect(res.code, res.stderr).toBe(0);
      const doc = JSON.parse(res.stdout) as Record<string, unknown>[];
      expect(Array.isArray(doc)).toBe(true);
      expect(doc).toHaveLength(1);
      return Object.keys(doc[0]!);
    });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    expect(shapes[0]!.slice(0, 2)).toEqual(['source', 'action']);
  });

  it('--json with a field of the rows works for every form', async () => {
    const run = await setup();
    writeFileSync(join(home, 'three.md'), '# Three\n\nThird.\n');
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--content-file',
      'three.md',
      '--json',
      'source,action',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([{ source: expect.any(String), action: 'created' }]);
  });
});

describe('wp publish piped: the columns of a dry run are those of a run', () => {
  it('a folder: the same number of tab-separated columns, in the same order of meaning', async () => {
    const run = await setup();
    const dir = mkdtempSync(join(home, 'posts-')).slice(home.length + 1);
    writeFileSync(join(dir, 'a.md'), '# A\n\nA.\n');
    writeFileSync(join(dir, 'b.md'), '# B\n\nB.\n');
    const dry = await run(['wp', 'publish', '--site', 'blog', dir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const real = await run(['wp', 'publish', '--site', 'blog', dir]);
    expect(real.code, real.stderr).toBe(0);
    const cells = (res: CliResult): string[][] =>
      res.stdout
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => l.split('\t'));
    const [planned, done] = [cells(dry), cells(real)];
    expect(planned.map((r) => r.length)).toEqual(done.map((r) => r.length));
    // SOURCE first, ACTION second in both.
    expect(planned.map((r) => r[0])).toEqual(done.map((r) => r[0]));
    expect(planned.map((r) => r[1])).toEqual(['create', 'create']);
    expect(done.map((r) => r[1])).toEqual(['created', 'created']);
  });
});
