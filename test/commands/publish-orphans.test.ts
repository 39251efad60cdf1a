// A project published as a whole, in-process against the sandbox relaying to a fake WordPress: a post whose
// source is gone is reported (and counted by --exit-code), moved to the trash only with --prune and only
// within the project's namespace; a moved or re-keyed source keeps its post (same id and link).
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('orphans');

interface Row {
  source: string;
  action: string;
  id: string;
  link: string;
  status: string;
  fields?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
const writes = (): number => world.wp.requests.filter((r) => r.method !== 'GET').length;

/** A fresh config dir with the site profile "blog", and a project folder (namespace `ns`) as the cwd. */
async function project(
  ns: string,
): Promise<{ root: string; publish: (...a: string[]) => Promise<CliResult> }> {
  const run = await world.runner();
  const root = newProject(world.home, `site: blog\nnamespace: ${ns}\n`);
  return { root, publish: (...args: string[]) => run(['wp', 'publish', '--json', ...args], { cwd: root }) };
}

describe('orphans', () => {
  it('reported and counted; --prune trashes them, only within the namespace; a partial run refuses --prune', async () => {
    const other = await project('orphans-other');
    writeFileSync(join(other.root, 'posts', 'theirs.md'), '# Theirs\n\nAnother project.\n');
    expect((await other.publish()).code).toBe(0);

    const { root, publish } = await project('orphans-mine');
    for (const n of ['a', 'b', 'c']) writeFileSync(join(root, 'posts', `${n}.md`), `# ${n}\n\nBody ${n}.\n`);
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const gone = rows(first)[2]!;

    rmSync(join(root, 'posts', 'c.md'));
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code).toBe(8);
    expect(rows(plan).map((r) => r.action)).toEqual(['unchanged', 'unchanged', 'orphaned']);
    expect(rows(plan)[2]).toMatchObject({ id: gone.id, source: `post ${gone.id} "c"` });
    const sent = writes();
    const left = await publish();
    expect(left.code, left.stderr).toBe(0);
    expect(rows(left)[2]).toMatchObject({ action: 'orphaned', id: gone.id });
    expect(left.stderr).toContain(`post ${gone.id} "c": its source is gone from the project; left as it is`);
    expect((await publish('--exit-code')).code).toBe(8);
    expect(writes()).toBe(sent);

    // Only the whole project knows its orphans.
    const partial = await publish('posts/a.md', '--prune');
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('--prune: orphans are known only when the whole project is published');

    expect(rows(await publish('--prune', '--dry-run'))[2]).toMatchObject({ action: 'prune', id: gone.id });
    expect(writes()).toBe(sent);
    const pruned = await publish('--prune');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(rows(pruned)[2]).toMatchObject({ action: 'pruned', id: gone.id, status: 'trash' });
    expect(world.wp.posts.find((p) => p.id === Number(gone.id))!.status).toBe('trash');
    // Moved to the trash, never deleted; the other project's post untouched.
    expect(world.wp.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      expect.stringMatching(new RegExp(`/wp/v2/posts/${gone.id}$`)),
    ]);
    expect(world.wp.posts.find((p) => p.title === 'Theirs')!.status).toBe('draft');
    const after = await publish('--exit-code');
    expect(after.code, after.stderr).toBe(0);
    expect(rows(after).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
  });
});

describe('moves and renames', () => {
  it('a moved file, and a changed key, keep their post (same id and link); an edit in the same run is sent', async () => {
    const { root, publish } = await project('moves');
    writeFileSync(join(root, 'posts', 'b.md'), '# Bee\n\nThe bee body.\n');
    writeFileSync(join(root, 'posts', 'k.md'), '---\nkey: first-key\n---\n# Kay\n\nThe kay body.\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const [bee, kay] = rows(first);

    renameSync(join(root, 'posts', 'b.md'), join(root, 'posts', 'sub', 'b.md'));
    writeFileSync(
      join(root, 'posts', 'k.md'),
      '---\nkey: second-key\n---\n# Kay, renamed\n\nThe kay body.\n',
    );
    const plan = await publish('--dry-run');
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan).map((r) => [r.source, r.action, r.id])).toEqual([
      ['posts/k.md', 'move', kay!.id],
      ['posts/sub/b.md', 'move', bee!.id],
    ]);
    const moved = await publish();
    expect(moved.code, moved.stderr).toBe(0);
    expect(rows(moved)).toEqual([
      expect.objectContaining({ action: 'moved', id: kay!.id, link: kay!.link, fields: ['title'] }),
      expect.objectContaining({ action: 'moved', id: bee!.id, link: bee!.link, fields: [] }),
    ]);
    expect(world.wp.posts.find((p) => p.id === Number(kay!.id))!.title).toBe('Kay, renamed');
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
  });
});
