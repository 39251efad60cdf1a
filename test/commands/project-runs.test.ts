// Two things a project run must not take from the folder it runs in: absolute paths in its output (sources
// are named from the working folder, as files given on the command line are), and the namespace of a post
// without a file (flags, --key): such a post belongs to no project unless --namespace says so, so a
// whole-project run never calls it an orphan nor --prune trashes it; one published before under the
// project's namespace is found there and moved out of it.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';
import { keyHash, nsHash, readMarker } from '../../src/publishing/identity.js';

guardStrayOutput();

const world = syncWorld('runs');

interface Row {
  source: string;
  action: string;
  id: string | null;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

/** A project (sources: posts/) on a fresh config dir with the site profile "blog"; runs start in its root. */
async function project(
  namespace: string,
): Promise<{ root: string; run: (args: string[]) => Promise<CliResult> }> {
  const run = await world.runner();
  const root = newProject(world.home, `site: blog\nnamespace: ${namespace}\nsources: [posts]\n`);
  writeFileSync(join(root, 'posts', 'a.md'), '# A\n\nBody A.\n');
  writeFileSync(join(root, 'posts', 'sub', 'b.md'), '# B\n\nBody B.\n');
  process.chdir(root);
  return { root, run: (args) => run(args) };
}

describe('a project run names its sources from the working folder', () => {
  it('the same names as the paths given on the command line; no absolute path in JSON or the table', async () => {
    const { root, run } = await project('paths-test');
    const plan = await run(['wp', 'publish', '--dry-run', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan).map((r) => r.source)).toEqual(['posts/a.md', 'posts/sub/b.md']);
    const given = await run(['wp', 'publish', 'posts', '--dry-run', '--json']);
    expect(rows(given).map((r) => r.source)).toEqual(rows(plan).map((r) => r.source));

    const done = await run(['wp', 'publish', '--json']);
    expect(done.code, done.stderr).toBe(0);
    expect(rows(done).map((r) => [r.source, r.action])).toEqual([
      ['posts/a.md', 'created'],
      ['posts/sub/b.md', 'created'],
    ]);
    const table = await run(['wp', 'publish']);
    expect(table.code, table.stderr).toBe(0);
    for (const res of [plan, done, table]) expect(res.stdout + res.stderr).not.toContain(root);
    expect(table.stdout).toMatch(/^posts\/a\.md\tunchanged/m);

    // From a folder inside the project: paths from there, and the same posts.
    process.chdir(join(root, 'posts', 'sub'));
    const inside = await run(['wp', 'publish', '--dry-run', '--json']);
    expect(inside.code, inside.stderr).toBe(0);
    expect(rows(inside).map((r) => [r.source, r.action, r.id])).toEqual([
      ['../a.md', 'unchanged', rows(done)[0]!.id],
      ['../sub/b.md', 'unchanged', rows(done)[1]!.id],
    ]);
  });

  it('an error about the project file names it from the working folder', async () => {
    const { root, run } = await project('paths-errors');
    writeFileSync(join(root, 'blogctl.yml'), 'site: blog\nnamespace: paths-errors\nsources: [posts, gone]\n');
    process.chdir(join(root, 'posts'));
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('error: ../blogctl.yml: sources: ../gone does not exist');
  });
});

describe('a post without a file takes no namespace from the folder', () => {
  // One site for every test: each its own key.
  const flagsPost = (key: string): string[] => [
    '--title',
    'Daily',
    '--content',
    '<p>Today.</p>',
    '--key',
    key,
    '--json',
  ];

  it('is never an orphan of the project it was published from, nor pruned; found again from anywhere', async () => {
    const { root, run } = await project('flags-test');
    const daily = flagsPost('daily-1');
    const first = await run(['wp', 'publish', ...daily]);
    expect(first.code, first.stderr).toBe(0);
    const id = rows(first)[0]!.id!;
    const post = world.wp.posts.find((p) => p.id === Number(id))!;
    expect(readMarker(String(post['content']))).toMatchObject({
      ns: nsHash(''),
      key: keyHash('key:daily-1'),
    });

    await run(['wp', 'publish']);
    const plan = await run(['wp', 'publish', '--dry-run', '--json', '--exit-code']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    const pruned = await run(['wp', 'publish', '--prune', '--json']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(rows(pruned).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    expect(world.wp.posts.find((p) => p.id === Number(id))!.status).not.toBe('trash');

    // The same post from inside the project, from a folder of it, and from outside any project.
    for (const dir of [
      root,
      join(root, 'posts', 'sub'),
      realpathSync(mkdtempSync(join(world.home, 'cron-'))),
    ]) {
      process.chdir(dir);
      const again = await run(['wp', 'publish', '--site', 'blog', ...daily]);
      expect(again.code, again.stderr).toBe(0);
      expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id });
    }
  });

  it('--namespace puts it in a namespace on purpose; refused with files and when malformed', async () => {
    const { run } = await project('flags-explicit');
    const daily = flagsPost('daily-2');
    await run(['wp', 'publish']);
    const mine = await run(['wp', 'publish', ...daily, '--namespace', 'flags-explicit']);
    expect(mine.code, mine.stderr).toBe(0);
    const plan = await run(['wp', 'publish', '--dry-run', '--json']);
    expect(rows(plan).map((r) => [r.action, r.id])).toEqual([
      ['unchanged', expect.any(String)],
      ['unchanged', expect.any(String)],
      ['orphaned', rows(mine)[0]!.id],
    ]);
    const withFile = await run(['wp', 'publish', 'posts/a.md', '--namespace', 'x']);
    expect(withFile.code).toBe(2);
    expect(withFile.stderr).toMatch(/^error: --namespace is for a post without a file/m);
    const bad = await run(['wp', 'publish', ...daily, '--namespace', 'Not Valid']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --namespace: "Not Valid" is not a namespace/m);
  });

  it('one published before under the project namespace is found there and moved out of it: same id', async () => {
    const { run } = await project('flags-former');
    const daily = flagsPost('daily-3');
    await run(['wp', 'publish']);
    // What a post published from flags inside the project carried before: the project's namespace.
    const before = await run(['wp', 'publish', ...daily, '--namespace', 'flags-former']);
    expect(before.code, before.stderr).toBe(0);
    const id = rows(before)[0]!.id;

    const plan = await run(['wp', 'publish', ...daily, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan)[0]).toMatchObject({ action: 'move', id });
    const moved = await run(['wp', 'publish', ...daily]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(rows(moved)[0]).toMatchObject({ action: 'updated', id });
    expect(moved.stderr).toContain(`post ${id} carried project "flags-former"'s namespace`);
    const post = world.wp.posts.find((p) => p.id === Number(id))!;
    expect(readMarker(String(post['content']))!.ns).toBe(nsHash(''));

    const whole = await run(['wp', 'publish', '--dry-run', '--json', '--exit-code']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(rows(whole).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    const again = await run(['wp', 'publish', ...daily]);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id });
  });

  it('a file of the project naming it by its key takes it into the project: same id, then its orphan if the file goes', async () => {
    const { root, run } = await project('flags-given-a-file');
    const daily = flagsPost('daily-4');
    const first = await run(['wp', 'publish', ...daily]);
    const id = rows(first)[0]!.id;
    writeFileSync(join(root, 'posts', 'daily.md'), '---\nkey: daily-4\ntitle: Daily\n---\nToday.\n');
    const plan = await run(['wp', 'publish', '--dry-run', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan).find((r) => r.source === 'posts/daily.md')).toMatchObject({ action: 'move', id });
    const taken = await run(['wp', 'publish', '--json']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(rows(taken).find((r) => r.source === 'posts/daily.md')).toMatchObject({ action: 'updated', id });
    expect(readMarker(String(world.wp.posts.find((p) => p.id === Number(id))!['content']))!.ns).toBe(
      nsHash('flags-given-a-file'),
    );
    rmSync(join(root, 'posts', 'daily.md'));
    const gone = await run(['wp', 'publish', '--dry-run', '--json']);
    expect(rows(gone).find((r) => r.id === id)).toMatchObject({ action: 'orphaned' });
  });
});
