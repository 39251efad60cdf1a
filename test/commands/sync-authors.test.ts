// Authorship an Author cannot forge (issue 30 item 3c): a post carrying a project's marker that another
// account wrote (an Author copied the marker, which is in every page's source) is never taken for the
// project's post — never updated, never preferred to the real one, never pruned, never deleted as a twin —
// and it is reported. In-process against the sandbox relaying to a fake WordPress.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakePost, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('authors', { fakeWordPress: false });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

interface Row {
  source: string;
  action: string;
  id: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
const AUTHOR = 7;

/** An Author's own post (user 7), as WordPress stores it. */
function plant(wp: FakeWordPress, content: string, title = 'Planted'): FakePost {
  const id = Math.max(0, ...wp.posts.map((p) => p.id)) + 100;
  const post: FakePost = { id, status: 'publish', slug: `planted-${id}`, title, content, author: AUTHOR };
  wp.posts.push(post);
  return post;
}

describe('a marker copied into a post another account wrote', () => {
  it('never wins over the real post, is never updated nor pruned, and is reported', async () => {
    const wp = await startFakeWordPress();
    closers.push(() => wp.close());
    const root = newProject(world.home, 'site: blog\nnamespace: authors-test\n', ['posts']);
    writeFileSync(join(root, 'posts', 'a.md'), '---\nkey: a\nstatus: publish\n---\n# Real\n\nThe body.\n');
    const run = await world.runner({ wp });
    const publish = (...extra: string[]): Promise<CliResult> =>
      run(['wp', 'publish', '--json', ...extra], { cwd: root });
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const real = wp.posts[0]!;
    const marker = /<!-- blogctl:v1 [^>]*-->/.exec(String(real['content']))![0];
    // An Author copies the marker into an older post of their own (a lower id than the real one would win).
    const planted: FakePost = {
      id: 0,
      status: 'publish',
      slug: 'older',
      title: 'Older',
      content: `<p>Mine${marker}</p>`,
      author: AUTHOR,
    };
    wp.posts.unshift(planted);
    // ... and plants the namespace with another key (an orphan to be pruned, were it the project's).
    const otherKey = marker.replace(/key=[0-9a-f]{24}/, `key=${'0'.repeat(24)}`);
    const orphan = plant(wp, `<p>Orphan bait${otherKey}</p>`);

    const again = await publish('--prune');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again).map((r) => [r.action, r.id])).toEqual([['unchanged', String(real.id)]]);
    expect(again.stderr).toContain(
      `post 0 carries this source's marker, but user ${AUTHOR} wrote it, not the publishing account: a copied marker is never taken for the project's post`,
    );
    expect(again.stderr).not.toContain('delete the other');
    expect(orphan.status).toBe('publish');

    writeFileSync(
      join(root, 'posts', 'a.md'),
      '---\nkey: a\nstatus: publish\n---\n# Real\n\nThe body, edited.\n',
    );
    const edit = await publish();
    expect(edit.code, edit.stderr).toBe(0);
    expect(rows(edit)[0]).toMatchObject({ action: 'updated', id: String(real.id) });
    expect(planted['content']).toBe(`<p>Mine${marker}</p>`);
    expect(wp.updates.every((u) => u.id === real.id)).toBe(true);
  });

  it('does not block a new file: the file gets its own post', async () => {
    const wp = await startFakeWordPress();
    closers.push(() => wp.close());
    const root = newProject(world.home, 'site: blog\nnamespace: authors-new\n', ['posts']);
    const run = await world.runner({ wp });
    // The marker the file will carry, planted before it is ever published (anyone can compute the hashes).
    writeFileSync(join(root, 'posts', 'b.md'), '---\nkey: b\nstatus: publish\n---\n# Fresh\n\nBody.\n');
    const dry = await run(['wp', 'publish', '--json'], { cwd: root });
    expect(dry.code, dry.stderr).toBe(0);
    const mine = wp.posts[0]!;
    const marker = /<!-- blogctl:v1 [^>]*-->/.exec(String(mine['content']))![0];
    wp.posts.splice(0, 1);
    plant(wp, `<p>Squat${marker}</p>`, 'Fresh');
    const res = await run(['wp', 'publish', '--json'], { cwd: root });
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]!.action).toBe('created');
    expect(wp.posts.filter((p) => p['author'] === undefined || p['author'] === 1)).toHaveLength(1);
  });
});
