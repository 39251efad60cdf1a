// Authorship a real Author account cannot forge (issue 30 item 3c), against real WordPress (pretty and plain
// permalinks), every run from a new, empty config dir: an Author copies a project post's marker (from the
// page's source) into an older post of their own and plants the namespace under another key; the project's
// next run with --prune keeps its own post, leaves the Author's posts as they are, and reports the copy.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/wordpress/client.js';
import { getPost } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, newProject, siteClient, syncWorld } from '../helpers/sync-project.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';
import { createAuthor } from './users.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-authors', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe.each(instances)('a marker an Author copies ($permalinks permalinks)', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-authors-${wp.permalinks}`;
  const reader = siteClient(adminLogin(wp));

  it('is never taken for the project post: not updated, not pruned, not preferred; reported', async () => {
    const author = await createAuthor(wp, `au${tag.replace(/[^a-z0-9]/g, '').slice(-20)}`);
    const client = new WordPressClient(
      { websiteUrl: wp.baseUrl, username: author.username, password: author.appPassword },
      { timeoutMs: 30_000 },
    );
    try {
      // The Author's older post, made before the project's.
      const older = await client.route('wp/v2/posts', {
        method: 'POST',
        json: { title: `Older ${tag}`, content: `<p>Mine ${tag}</p>`, status: 'publish' },
      });
      const olderId = (older.body as { id: number }).id;

      const root = newProject(
        world.home,
        `site:\n  url: ${wp.baseUrl}\n  username: ${wp.username}\nnamespace: ${tag}\n`,
        ['posts'],
      );
      await writeFile(
        join(root, 'posts', 'a.md'),
        `---\nkey: a\nstatus: publish\n---\n# Real ${tag}\n\nBody.\n`,
      );
      const publish = (...extra: string[]): Promise<CliResult> =>
        freshRun(['wp', 'publish', '--json', ...extra], {
          service: world.sandbox,
          spawn: true,
          env: { BLOGCTL_WP_PASSWORD: wp.appPassword },
          cwd: root,
        });
      const first = await publish();
      expect(first.code, first.stderr).toBe(0);
      const realId = Number(rows(first)[0]!.id);
      const marker = /<!-- blogctl:v1 [^>]*-->/.exec((await getPost(reader, realId)).content!.raw!)![0];

      // The Author copies it into their older post, and plants the namespace under another key.
      await client.route(`wp/v2/posts/${olderId}`, {
        method: 'POST',
        json: { content: `<p>Mine ${tag}${marker}</p>` },
      });
      expect((await getPost(reader, olderId)).content!.raw).toContain(marker);
      const bait = await client.route('wp/v2/posts', {
        method: 'POST',
        json: {
          title: `Bait ${tag}`,
          content: `<p>Bait${marker.replace(/key=[0-9a-f]{24}/, `key=${'0'.repeat(24)}`)}</p>`,
          status: 'publish',
        },
      });
      const baitId = (bait.body as { id: number }).id;

      const again = await publish('--prune');
      expect(again.code, again.stderr).toBe(0);
      expect(rows(again).map((r) => [r.action, r.id])).toEqual([['unchanged', String(realId)]]);
      expect(again.stderr).toContain(`post ${olderId} carries this source's marker, but user`);
      expect((await getPost(reader, baitId)).status).toBe('publish');

      await writeFile(
        join(root, 'posts', 'a.md'),
        `---\nkey: a\nstatus: publish\n---\n# Real ${tag}\n\nBody, edited.\n`,
      );
      const edit = await publish();
      expect(edit.code, edit.stderr).toBe(0);
      expect(rows(edit)[0]).toMatchObject({ action: 'updated', id: String(realId) });
      expect((await getPost(reader, olderId)).content!.raw).toBe(`<p>Mine ${tag}${marker}</p>`);
    } finally {
      await client.close();
    }
  });
});
