// A restored revision is drift without the companion plugin (issue 30 item 3d), against real WordPress
// (pretty and plain permalinks), every run from a new, empty config dir. blogctl's marker records when it
// wrote, on the site's clock; WordPress's `modified_gmt` later than that is a save on the site, even when the
// content and marker are an older write's (their sums match). What leaves `modified_gmt` alone (a comment)
// is checked on the real site too.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { getPost, updatePost } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, siteClient, syncWorld } from '../helpers/sync-project.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-restored', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

const WRITTEN = /(sums=[^ ]*?)written\.([0-9a-f]+)/;
const revisions = z.array(
  z.looseObject({ id: z.number(), content: z.looseObject({ raw: z.optional(z.string()) }) }),
);

describe.each(instances)('a restored revision ($permalinks permalinks)', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-restored-${wp.permalinks}`;
  const editor = siteClient(adminLogin(wp));
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(world.home, `${wp.permalinks}-`));
  });
  const publish = (extra: string[] = []): Promise<CliResult> =>
    freshRun(['wp', 'publish', '--site', 'site', `${dir}/`, '--json', ...extra], {
      service: { url: world.sandbox.url, apiKey: world.sandbox.apiKey },
      site: adminLogin(wp),
      profile: 'site',
      spawn: true,
      cwd: dir,
    });
  const source = (body: string): Promise<void> =>
    writeFile(join(dir, 'a.md'), `---\nkey: a-${tag}\nstatus: publish\n---\n# Restored ${tag}\n\n${body}\n`);

  it('is reported and kept, a conflict when the file changed; --force overwrites it', async () => {
    await source('First version.');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const id = Number(rows(first)[0]!.id);
    const written = await getPost(editor, id);

    // A comment does not change the post's `modified_gmt`: no drift.
    await editor.route('wp/v2/comments', {
      method: 'POST',
      json: { post: id, content: `A reader's comment ${tag}` },
      label: 'comment',
    });
    expect((await getPost(editor, id)).modified_gmt).toBe(written.modified_gmt);

    // WordPress 6.1 keeps no revision of a post's first version: the second and third are the revisions.
    for (const version of ['Second version.', 'Third version.']) {
      await source(version);
      const next = await publish();
      expect(rows(next)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
      expect((await getPost(editor, id)).content?.raw).toMatch(WRITTEN);
    }
    // blogctl's own writes (the update, its settling write) are no drift.
    const again = await publish(['--exit-code']);
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]!.action).toBe('unchanged');
    expect(rows(again)[0]!.edited).toBeUndefined();

    // The editor restores the second version's revision: WordPress saves its title and content again (what
    // wp_restore_post_revision does). That write is taken as 10 minutes old (its stamp moved back),
    // since a restore seconds after it is within the margin, and the test does not wait.
    const history = await editor.route(`wp/v2/posts/${id}/revisions`, {
      method: 'GET',
      params: { context: 'edit', per_page: 100 },
      schema: revisions,
      label: 'revisions',
    });
    const old = history.body.find((r) => r.content.raw?.includes('Second version.'));
    expect(old, "the second version's revision").toBeDefined();
    const raw = old!.content.raw!.replace(
      WRITTEN,
      (_all, head: string, hex: string) => `${head}written.${(parseInt(hex, 16) - 600).toString(16)}`,
    );
    await updatePost(editor, id, { content: raw });

    await source('Fourth version.');
    const kept = await publish();
    expect(kept.code, kept.stdout).toBe(6);
    expect(kept.stderr).toContain("saved on the site after blogctl's last write");
    expect((await getPost(editor, id)).content?.raw).toContain('Second version.');

    const forced = await publish(['--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(rows(forced)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
    expect((await getPost(editor, id)).content?.raw).toContain('Fourth version.');
    const after = await publish(['--exit-code']);
    expect(after.code, after.stderr).toBe(0);
    expect(rows(after)[0]!.edited).toBeUndefined();
  });
});
