// Pruned posts come back (issue 30 item 4): a source that returns after --prune brings its post back (same
// id and link, the status it states); a post an editor restored from the trash is reported `restored on
// site` and not trashed again without --force. In-process against the sandbox relaying to a fake WordPress.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('prune-back');

interface Row {
  source: string;
  action: string;
  id: string;
  status?: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe('a pruned post', () => {
  it('comes back with its source: same id, the stated status; an editor-restored one is not trashed again', async () => {
    const root = newProject(world.home, 'site: blog\nnamespace: prune-back\n', ['posts']);
    const file = join(root, 'posts', 'a.md');
    const text = '---\nkey: a\nstatus: publish\n---\n# Back\n\nBody.\n';
    writeFileSync(file, text);
    writeFileSync(join(root, 'posts', 'b.md'), '---\nkey: b\nstatus: publish\n---\n# Stays\n\nBody.\n');
    const run = await world.runner();
    const publish = (...extra: string[]): Promise<CliResult> =>
      run(['wp', 'publish', '--json', ...extra], { cwd: root });
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const id = rows(first)[0]!.id;
    const post = world.wp.posts.find((p) => String(p.id) === id)!;

    rmSync(file);
    const pruned = await publish('--prune');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(post.status).toBe('trash');

    // The file comes back (git revert): the same post, out of the trash, live again.
    writeFileSync(file, text);
    const back = await publish();
    expect(back.code, back.stderr).toBe(0);
    expect(rows(back)[0]).toMatchObject({ action: 'updated', id });
    expect(back.stderr).toContain(
      `post ${id}, moved to the trash by --prune, is back with its source: restored`,
    );
    expect(post.status).toBe('publish');
    expect(world.wp.posts.filter((p) => p.title === 'Back')).toHaveLength(1);
    expect(rows(await publish('--exit-code'))[0]).toMatchObject({ action: 'unchanged', id });

    // Pruned again; an editor restores it (WordPress restores as a draft): reported, not trashed again.
    rmSync(file);
    expect((await publish('--prune')).code).toBe(0);
    expect(post.status).toBe('trash');
    post.status = 'draft';
    // The plan says what the run does: left, not pruned (the plan is the run).
    const plan = await publish('--prune', '--dry-run');
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan).find((r) => r.id === id)).toMatchObject({ action: 'orphaned' });
    expect(plan.stderr).toContain('restored on site after --prune trashed it');
    const restored = await publish('--prune');
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain('restored on site after --prune trashed it');
    expect(post.status).toBe('draft');
    const forced = await publish('--prune', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(post.status).toBe('trash');
  });
});
