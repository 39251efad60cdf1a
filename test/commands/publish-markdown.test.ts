// The plan for a pull request: `wp publish --dry-run --markdown` and `--summary <file>`, and the input errors
// as GitHub Actions annotations, in-process against the sandbox relaying to a fake WordPress.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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
  home = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-md-')));
  // A repository: annotations name files from its root.
  mkdirSync(join(home, '.git'));
  mkdirSync(join(home, 'site'));
  process.chdir(join(home, 'site'));
});
afterAll(async () => {
  process.chdir(cwd);
  await Promise.all([sandbox?.close(), wp?.close()]);
});

async function setup(
  extraEnv: Record<string, string> = {},
): Promise<{ dir: string; run: (args: string[]) => Promise<CliResult> }> {
  const env = {
    BLOGCTL_CONFIG_DIR: tempConfigDir(),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
    ...extraEnv,
  };
  const add = await runInProcess(
    ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    { env, input: `${wp.password}\n` },
  );
  expect(add.code, add.stderr).toBe(0);
  const dir = mkdtempSync(join(home, 'site', 'posts-')).slice(join(home, 'site').length + 1);
  return { dir, run: (args) => runInProcess(args, { env }) };
}

describe('wp publish --dry-run --markdown', () => {
  it('prints the plan as tables grouped by action, with links and the fields that change', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'a.md'), '# Alpha\n\nA.\n');
    writeFileSync(join(dir, 'b.md'), '# Beta\n\nB.\n');
    const first = await run(['wp', 'publish', '--site', 'blog', dir, '--status', 'publish']);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(dir, 'b.md'), '# Beta | two\n\nB changed.\n');
    writeFileSync(join(dir, 'c.md'), '# Gamma\n\nC.\n');

    const plan = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      dir,
      '--status',
      'publish',
      '--dry-run',
      '--markdown',
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    const md = plan.stdout;
    expect(md).toMatch(/^### blogctl plan for blog: 1 create, 1 update, 1 unchanged$/m);
    // Groups in order: create, update, then unchanged folded.
    expect(md.indexOf('#### create (1)')).toBeGreaterThan(0);
    expect(md.indexOf('#### update (1)')).toBeGreaterThan(md.indexOf('#### create (1)'));
    expect(md).toContain('<details><summary>unchanged (1)</summary>');
    expect(md).toMatch(
      new RegExp(
        `^\\| ${dir}/b\\.md \\| \\[\\d+\\]\\(http://127\\.0\\.0\\.1:\\d+/beta/\\) \\| publish \\| title, content \\|$`,
        'm',
      ),
    );
    expect(md).toContain(`| ${dir}/c.md |  |  |  |`);
    // No table is printed besides it.
    expect(md).not.toMatch(/SOURCE\tACTION/);
  });

  it('--summary appends the same Markdown to a file, and the usual output stays', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'a.md'), '# Alpha\n\nA.\n');
    const summary = join(home, 'summary.md');
    writeFileSync(summary, 'before\n');
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      dir,
      '--dry-run',
      '--summary',
      summary,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject([{ action: 'create' }]);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('before\n### blogctl plan for blog: 1 create\n')).toBe(true);
    // A real run appends what it did.
    const real = await run(['wp', 'publish', '--site', 'blog', dir, '--summary', summary]);
    expect(real.code, real.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8')).toMatch(/### blogctl publish for blog: 1 created\n/);
  });

  it('--summary through a symbolic link (even dangling): exit 2 naming it, nothing sent or written', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'a.md'), '# Alpha\n\nA.\n');
    const aim = join(home, 'elsewhere.md');
    const summary = join(home, 'linked-summary.md');
    symlinkSync(aim, summary);
    const before = wp.posts.length;
    const res = await run(['wp', 'publish', '--site', 'blog', dir, '--summary', summary]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`--summary: ${summary} is a symbolic link`);
    expect(existsSync(aim)).toBe(false);
    expect(wp.posts.length).toBe(before);
  });

  it('a plan that fails on input still gives its Markdown, naming every problem', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'bad.md'), '---\ntitle: Bad\nstatus: nope\n---\nBody\n');
    const summary = join(home, 'failed.md');
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      dir,
      '--dry-run',
      '--markdown',
      '--summary',
      summary,
    ]);
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(/^### blogctl plan: 1 error$/m);
    expect(res.stdout).toContain(`- ${dir}/bad.md:3: status: must be one of`);
    expect(readFileSync(summary, 'utf8')).toBe(`${res.stdout}\n`);
  });

  it('refuses --markdown with --json', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'a.md'), '# A\n');
    const res = await run(['wp', 'publish', '--site', 'blog', dir, '--dry-run', '--markdown', '--json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--markdown .* leave out --json/);
  });
});

describe('annotations (GITHUB_ACTIONS=true)', () => {
  it('an input error is also a workflow command naming the file from the repository root and the line', async () => {
    const { dir, run } = await setup({ GITHUB_ACTIONS: 'true' });
    writeFileSync(join(dir, 'bad.md'), '---\ntitle: "50%, done: yes"\nstatus: nope\n---\nBody\n');
    const res = await run(['wp', 'publish', '--site', 'blog', dir, '--dry-run']);
    expect(res.code).toBe(2);
    const lines = res.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(lines).toEqual([
      `::error file=site/${dir}/bad.md,line=3,title=blogctl::${dir}/bad.md:3: status: must be one of publish, draft, pending, private, future (got "nope")`,
    ]);
    expect(res.stdout).toBe('');
  });

  it('escapes the message and file name as the runner decodes them, and never shows a secret', async () => {
    const { dir, run } = await setup({ GITHUB_ACTIONS: 'true' });
    const name = 'a,b:100%.md';
    writeFileSync(join(dir, name), `---\ntitle: x\nstatus: "${wp.password}"\n---\n`);
    const res = await run(['wp', 'publish', '--site', 'blog', dir, '--dry-run']);
    expect(res.code).toBe(2);
    const line = res.stderr.split('\n').find((l) => l.startsWith('::error'))!;
    expect(line).toContain(`file=site/${dir}/a%2Cb%3A100%25.md,line=3,`);
    expect(line).toContain(`::${dir}/a,b:100%25.md:3: status`);
    expect(res.stderr).not.toContain(wp.password);
  });

  it('every bad file of a folder is annotated, and listed in the Markdown', async () => {
    const { dir, run } = await setup({ GITHUB_ACTIONS: 'true' });
    writeFileSync(join(dir, 'one.md'), '---\ntitle: One\nstatus: nope\n---\nBody\n');
    writeFileSync(join(dir, 'two.md'), '---\ntitle: Two\n\nsticky: maybe\n---\nBody\n');
    const res = await run(['wp', 'publish', '--site', 'blog', dir, '--dry-run', '--markdown']);
    expect(res.code).toBe(2);
    const lines = res.stderr.split('\n').filter((l) => l.startsWith('::error'));
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^::error file=site/${dir}/one\\.md,line=3,title=blogctl::.*one\\.md:3: status: `),
      ),
      expect.stringMatching(
        new RegExp(`^::error file=site/${dir}/two\\.md,line=4,title=blogctl::.*two\\.md:4: sticky: `),
      ),
    ]);
    expect(res.stdout).toMatch(/^### blogctl plan: 2 errors$/m);
    expect(res.stdout).toMatch(/^- .*one\.md:3: status: /m);
    expect(res.stdout).toMatch(/^- .*two\.md:4: sticky: /m);
  });

  it('nothing of the kind without GITHUB_ACTIONS=true', async () => {
    const { dir, run } = await setup({ GITHUB_ACTIONS: 'false' });
    writeFileSync(join(dir, 'bad.md'), '---\nstatus: nope\n---\n');
    const res = await run(['wp', 'publish', '--site', 'blog', dir, '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).not.toContain('::error');
  });
});
