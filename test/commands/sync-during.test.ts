// A save on the site during a run is drift (issue 30 item 3d): the post is read again right before it is
// updated, and planned again when it was saved since the look-up. In-process against the sandbox relaying
// to a fake WordPress.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { startFakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('during', { fakeWordPress: false });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

interface Row {
  action: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe('an editor saving while a run is in progress', () => {
  it("keeps the editor's save: the post is planned again, the save reported, the next run too", async () => {
    let during: (() => void) | undefined;
    const wp = await startFakeWordPress({ afterSearch: () => during?.() });
    closers.push(() => wp.close());
    const dir = mkdtempSync(join(world.home, 'posts-'));
    const run = await world.runner({ wp });
    const publish = (...extra: string[]): Promise<CliResult> =>
      run(['wp', 'publish', '--site', 'blog', dir, '--json', ...extra]);
    const file = join(dir, 'a.md');
    writeFileSync(file, '---\nkey: during\n---\n# Title\n\nThe body.\n');
    expect((await publish()).code).toBe(0);
    const post = wp.posts[0]!;

    // The source's title changes; during the run, after its look-up, an editor rewrites the body.
    writeFileSync(file, '---\nkey: during\n---\n# Title, new\n\nThe body.\n');
    during = () => {
      during = undefined;
      const marker = /<!-- blogctl:v1 [^>]*-->/.exec(String(post['content']))![0];
      post['content'] = `<p>The editor's body.${marker}</p>`;
      post['modified_gmt'] = '2099-01-01T00:00:00';
    };
    const res = await publish();
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'updated', fields: ['title'], edited: ['content'] });
    expect(String(post['content'])).toContain("The editor's body.");
    expect(post.title).toBe('Title, new');
    const next = await publish();
    expect(rows(next)[0]).toMatchObject({ action: 'unchanged', edited: ['content'] });
  });
});
