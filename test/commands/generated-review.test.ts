// "Generate → review in a pull request → publish on merge": the files `blog create --save` and `blog show
// --markdown` write are published `unchanged` by the project's `wp publish` with no flags (its site, its
// namespace, its defaults), in-process against the sandbox relaying to a fake WordPress.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFlags, type CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld, type Run } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('review');

async function project(namespace: string): Promise<Run> {
  const run = await world.runner();
  const dir = newProject(
    world.home,
    `site: blog\nnamespace: ${namespace}\nsources: [posts]\ndefaults:\n  status: publish\n`,
    ['posts'],
  );
  process.chdir(dir);
  return run;
}

const actions = (res: CliResult): string[] =>
  (JSON.parse(res.stdout) as { action: string }[]).map((r) => r.action);

describe('generated posts through review', () => {
  it('blog create --publish --save: the project publishes the saved file unchanged, with no flags', async () => {
    const run = await project('saved');
    const created = await run([
      'blog',
      'create',
      ...createFlags('cold brew'),
      '--publish',
      'blog',
      '--save',
      'posts/cold-brew.md',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(readFileSync('posts/cold-brew.md', 'utf8')).toMatch(/^key: /m);
    const plan = await run(['wp', 'publish', '--dry-run', '--exit-code', '--json']);
    expect(plan.code, plan.stdout + plan.stderr + readFileSync('posts/cold-brew.md', 'utf8')).toBe(0);
    expect(actions(plan)).toEqual(['unchanged']);
  });

  it('blog show --markdown of a published blog: the project takes its post (moved into its namespace), then it is unchanged', async () => {
    const run = await project('shown');
    const created = await run(['blog', 'create', ...createFlags('pour over'), '--publish', 'blog', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { blog: { _id: string } }).blog._id;
    const shown = await run(['blog', 'show', id, '--markdown']);
    expect(shown.code, shown.stderr).toBe(0);
    writeFileSync('posts/pour-over.md', shown.stdout);
    // Published without a file, the post is no project's: the project's file names it, and takes it.
    const plan = await run(['wp', 'publish', '--dry-run', '--exit-code', '--json']);
    expect(plan.code, plan.stderr).toBe(8);
    expect(actions(plan)).toEqual(['move']);
    const taken = await run(['wp', 'publish', '--json']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(actions(taken)).toEqual(['updated']);
    expect(taken.stderr).toMatch(/published without a file, is this source's/);
    const after = await run(['wp', 'publish', '--dry-run', '--exit-code', '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(actions(after)).toEqual(['unchanged']);
  });
});
