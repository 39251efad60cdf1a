// Pruned posts come back (issue 30 item 4) against real WordPress (pretty and plain permalinks), every run
// from a new, empty config dir: --prune trashes a post whose file is gone; the file comes back and the same
// post is restored (same id, same link, live again); an editor's restore from the trash is not undone.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPost } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, newProject, siteClient, syncWorld } from '../helpers/sync-project.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-prune-back', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  link: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe.each(instances)('a pruned post comes back ($permalinks permalinks)', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-back-${wp.permalinks}`;
  const reader = siteClient(adminLogin(wp));

  it('same id and link, live again; an editor restore is reported, not trashed again', async () => {
    const root = newProject(
      world.home,
      `site:\n  url: ${wp.baseUrl}\n  username: ${wp.username}\nnamespace: ${tag}\n`,
      ['posts'],
    );
    const file = join(root, 'posts', 'a.md');
    const text = `---\nkey: a\nstatus: publish\n---\n# Back ${tag}\n\nBody.\n`;
    await writeFile(file, text);
    await writeFile(
      join(root, 'posts', 'b.md'),
      `---\nkey: b\nstatus: publish\n---\n# Stays ${tag}\n\nBody.\n`,
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
    const { id, link } = rows(first)[0]!;

    await rm(file);
    expect((await publish('--prune')).code).toBe(0);
    expect((await getPost(reader, Number(id))).status).toBe('trash');

    await writeFile(file, text);
    const back = await publish();
    expect(back.code, back.stderr).toBe(0);
    expect(rows(back)[0]).toMatchObject({ action: 'updated', id, link });
    const restored = await getPost(reader, Number(id));
    expect(restored.status).toBe('publish');
    expect(restored.link).toBe(link);
    expect(rows(await publish('--exit-code'))[0]).toMatchObject({ action: 'unchanged', id });

    // Pruned again; an editor restores it from the trash (WordPress makes it a draft).
    await rm(file);
    expect((await publish('--prune')).code).toBe(0);
    await reader.route(`wp/v2/posts/${id}`, { method: 'POST', json: { status: 'draft' } });
    const kept = await publish('--prune');
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toContain('restored on site after --prune trashed it');
    expect((await getPost(reader, Number(id))).status).toBe('draft');
  });
});
