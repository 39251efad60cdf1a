// One namespace, one owner (project/scope.ts, sources/repository-keys.ts), in-process against the sandbox
// relaying to a fake WordPress: a file published from a git repository's root and a project in its `posts/`
// folder (whose namespace `wp init` derives from the repository's name) never share a namespace. The
// project's --prune never touches the root file's post, the root file's run never takes the project's post,
// and a root file's post published when they did share one is found again, and left alone by the project.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { syncWorld } from '../helpers/sync-project.js';
import { readMarker, nsHash } from '../../src/publishing/identity.js';

guardStrayOutput();

const world = syncWorld('ns-owner');

interface Row {
  source: string;
  action: string;
  id: string | null;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

let repositories = 0;
/** This test's repository name (each test publishes to the file's one fake WordPress). */
let name = '';

/** A git work tree (its `origin` is team/blog-N) with a project in posts/ of the namespace `wp init` gives it. */
function repository(): string {
  name = `team/blog-${++repositories}`;
  const repo = mkdtempSync(join(world.home, 'repo-'));
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(repo, '.git', 'config'), `[remote "origin"]\n\turl = git@example.test:${name}.git\n`);
  mkdirSync(join(repo, 'posts'));
  writeFileSync(join(repo, 'posts', 'blogctl.yml'), `site: blog\nnamespace: ${name}\n`);
  writeFileSync(join(repo, 'posts', 'a.md'), '# Project post A\n\nA.\n');
  return repo;
}

const post = (id: string | null): Record<string, unknown> => world.wp.posts.find((p) => p.id === Number(id))!;
const nsOf = (id: string | null): string | undefined => readMarker(String(post(id)['content']))?.ns;

describe('a root file and a project of one repository', () => {
  it("the project's --prune neither reports nor trashes the root file's post; the root file's run never takes the project's", async () => {
    const run = await world.runner();
    const repo = repository();
    writeFileSync(join(repo, 'hello.md'), '# Root hello\n\nFrom the root.\n');
    // The same path relative to the project's root as hello.md's to the repository's: once the same post.
    writeFileSync(join(repo, 'posts', 'hello.md'), '# Project hello\n\nFrom the project.\n');

    const root = await run(['wp', 'publish', '--site', 'blog', 'hello.md', '--json'], { cwd: repo });
    expect(root.code, root.stderr).toBe(0);
    expect(rows(root)[0]).toMatchObject({ action: 'created' });
    const rootId = rows(root)[0]!.id;
    expect(nsOf(rootId)).toBe(nsHash(`git:${name}`));

    const project = await run(['wp', 'publish', '--prune', '--json'], { cwd: join(repo, 'posts') });
    expect(project.code, project.stderr).toBe(0);
    expect(rows(project).map((r) => r.action)).toEqual(['created', 'created']);
    expect(rows(project).map((r) => r.id)).not.toContain(rootId);
    expect(post(rootId)).toMatchObject({ status: 'draft', title: 'Root hello' });

    // The reverse: the root file's run finds its own post, never the project's posts/hello.md.
    const again = await run(['wp', 'publish', '--site', 'blog', 'hello.md', '--json'], { cwd: repo });
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: rootId });
    const projectHello = rows(project).find((r) => r.source.endsWith('hello.md'))!.id;
    expect(post(projectHello)).toMatchObject({ title: 'Project hello' });
    const twice = await run(['wp', 'publish', '--prune', '--json'], { cwd: join(repo, 'posts') });
    expect(rows(twice).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
  });
});

describe('posts published when loose files carried the repository’s name', () => {
  /** The state before: hello.md's post in namespace team/blog, keyed by its path (what a run at the root made). */
  async function oldRootPost(repo: string): Promise<string> {
    const run = await world.runner();
    // A project at the root of that namespace gives the post exactly the identity a loose file had.
    writeFileSync(join(repo, 'blogctl.yml'), `site: blog\nnamespace: ${name}\nsources: [hello.md]\n`);
    const made = await run(['wp', 'publish', '--json', 'hello.md'], { cwd: repo });
    expect(made.code, made.stderr).toBe(0);
    rmSync(join(repo, 'blogctl.yml'));
    const id = rows(made)[0]!.id!;
    expect(nsOf(id)).toBe(nsHash(name));
    return id;
  }

  it("the project leaves it while its file exists; the root file's next run takes it (same id) into its own namespace", async () => {
    const run = await world.runner();
    const repo = repository();
    writeFileSync(join(repo, 'hello.md'), '# Old root hello\n\nPublished before.\n');
    const oldId = await oldRootPost(repo);

    const plan = await run(['wp', 'publish', '--prune', '--dry-run', '--json'], { cwd: join(repo, 'posts') });
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan).map((r) => r.id)).not.toContain(oldId);
    const project = await run(['wp', 'publish', '--prune', '--json'], { cwd: join(repo, 'posts') });
    expect(project.code, project.stderr).toBe(0);
    expect(rows(project).map((r) => r.action)).toEqual(['created']);
    expect(post(oldId)['status']).not.toBe('trash');

    const root = await run(['wp', 'publish', '--site', 'blog', 'hello.md', '--json'], { cwd: repo });
    expect(root.code, root.stderr).toBe(0);
    expect(rows(root)[0]).toMatchObject({ action: 'updated', id: oldId });
    expect(root.stderr).toContain(`it now carries "git:${name}"`);
    expect(nsOf(oldId)).toBe(nsHash(`git:${name}`));
    const again = await run(['wp', 'publish', '--site', 'blog', 'hello.md', '--json'], { cwd: repo });
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: oldId });

    // Once the file is gone from the repository, its old post is no file's: the project may prune it only
    // while it carried the project's namespace, which it no longer does.
    rmSync(join(repo, 'hello.md'));
    const after = await run(['wp', 'publish', '--prune', '--json'], { cwd: join(repo, 'posts') });
    expect(rows(after).map((r) => r.id)).not.toContain(oldId);
  });

  it("a deleted root file's old post is the project's orphan again (no file outside claims it)", async () => {
    const run = await world.runner();
    const repo = repository();
    writeFileSync(join(repo, 'hello.md'), '# Gone hello\n\nPublished before, then deleted.\n');
    const oldId = await oldRootPost(repo);
    rmSync(join(repo, 'hello.md'));
    const plan = await run(['wp', 'publish', '--prune', '--dry-run', '--json'], { cwd: join(repo, 'posts') });
    expect(rows(plan).find((r) => r.id === oldId)).toMatchObject({ action: 'prune' });
  });

  it('a root file never takes a post a project file of that namespace names (they were one post): it gets its own', async () => {
    const run = await world.runner();
    const repo = repository();
    writeFileSync(join(repo, 'posts', 'hello.md'), '# Project hello\n\nThe project’s.\n');
    const project = await run(['wp', 'publish', '--json'], { cwd: join(repo, 'posts') });
    expect(project.code, project.stderr).toBe(0);
    const projectHello = rows(project).find((r) => r.source.endsWith('hello.md'))!.id;
    writeFileSync(join(repo, 'hello.md'), '# Root hello\n\nThe root’s.\n');
    const root = await run(['wp', 'publish', '--site', 'blog', 'hello.md', '--json'], { cwd: repo });
    expect(root.code, root.stderr).toBe(0);
    expect(rows(root)[0]).toMatchObject({ action: 'created' });
    expect(rows(root)[0]!.id).not.toBe(projectHello);
    expect(post(projectHello)).toMatchObject({ title: 'Project hello' });
    expect(nsOf(projectHello)).toBe(nsHash(name));
  });
});
