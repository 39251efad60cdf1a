// Stale runs change nothing (issue 30 item 5) against real WordPress, without and with the companion plugin,
// every run from a new, empty config dir as a process: a real git repository with two commits, published at
// the newer; a run of the older one (a CI job re-run) exits 6 naming both commits and changes nothing, its
// --prune trashes nothing; --force publishes. With the plugin the commit is in the post's meta state. And
// with the plugin, a post whose state is in the meta is the project's whoever its author is: a second
// Editor account publishes into it, and a byline an editor changed keeps it the project's.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseState } from '../../src/publishing/sync-state-plugin.js';
import { STATE_META } from '../../src/wordpress/blogctl-plugin.js';
import { getPost } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { git } from '../helpers/git.js';
import { adminLogin, freshRun, siteClient, syncWorld } from '../helpers/sync-project.js';
import { pluginInstances, RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const world = syncWorld('e2e-stale', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

const instances = [...wordpressInstances(), ...pluginInstances()];

describe.each(instances)(
  'a run of an older commit ($permalinks permalinks, plugin: $syncPlugin)',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-stale-${wp.permalinks}-${wp.syncPlugin ? 'plugin' : 'marker'}`;
    const reader = siteClient(adminLogin(wp));

    it('changes nothing and exits 6 naming both commits (its --prune trashes nothing); --force publishes', async () => {
      const root = await mkdtemp(join(world.home, 'repo-'));
      git(root, ['init', '-q', '-b', 'main']);
      await writeFile(
        join(root, 'blogctl.yml'),
        `site:\n  url: ${wp.baseUrl}\n  username: ${wp.username}\nnamespace: ${tag}\n`,
      );
      await mkdir(join(root, 'posts'));
      const a = join(root, 'posts', 'a.md');
      await writeFile(a, `---\nkey: a\nstatus: publish\n---\n# A ${tag}\n\nOne.\n`);
      git(root, ['add', '-A']);
      git(root, ['commit', '-q', '-m', 'older'], 1_700_000_000);
      const older = git(root, ['rev-parse', 'HEAD']);
      await writeFile(a, `---\nkey: a\nstatus: publish\n---\n# A ${tag}\n\nTwo.\n`);
      await writeFile(join(root, 'posts', 'b.md'), `---\nkey: b\nstatus: publish\n---\n# B ${tag}\n\nNew.\n`);
      git(root, ['add', '-A']);
      git(root, ['commit', '-q', '-m', 'newer'], 1_700_000_100);
      const newer = git(root, ['rev-parse', 'HEAD']);

      const publish = (...extra: string[]): Promise<CliResult> =>
        freshRun(['wp', 'publish', '--json', ...extra], {
          service: world.sandbox,
          spawn: true,
          env: { BLOGCTL_WP_PASSWORD: wp.appPassword },
          cwd: root,
        });
      const first = await publish();
      expect(first.code, first.stderr).toBe(0);
      const [idA, idB] = rows(first).map((r) => Number(r.id));
      const stored = await getPost(reader, idA!);
      if (wp.syncPlugin) {
        const meta = stored.meta as Record<string, unknown>;
        expect(parseState(meta[STATE_META])).toMatchObject({ commit: newer, committed: 1_700_000_100 });
      } else expect(stored.content!.raw).toContain(`commit.${newer}`);

      git(root, ['checkout', '-q', older]);
      for (const extra of [[], ['--dry-run'], ['--prune']]) {
        const stale = await publish(...extra);
        expect(stale.code, stale.stderr).toBe(6);
        expect(stale.stderr).toContain(
          `this run is at commit ${older.slice(0, 7)}, older than commit ${newer.slice(0, 7)}`,
        );
        expect(stale.stderr).toContain('--force');
      }
      const after = await getPost(reader, idA!);
      expect(after.modified_gmt).toBe(stored.modified_gmt);
      expect(after.content!.raw).toContain('Two.');
      expect((await getPost(reader, idB!)).status).toBe('publish');

      const forced = await publish('--force');
      expect(forced.code, forced.stderr).toBe(0);
      expect(rows(forced)[0]).toMatchObject({ action: 'updated', id: String(idA) });
      expect((await getPost(reader, idA!)).content!.raw).toContain('One.');
    });
  },
);

describe.skipIf(!pluginInstances().length).each(pluginInstances())(
  'a post whose state is in the plugin meta ($permalinks permalinks)',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-guarded-${wp.permalinks}`;
    const reader = siteClient(adminLogin(wp));

    it("is the project's whoever its author is: a second Editor account, a changed byline", async () => {
      const root = await mkdtemp(join(world.home, 'bots-'));
      await mkdir(join(root, 'posts'));
      await writeFile(join(root, 'blogctl.yml'), `namespace: ${tag}\n`);
      const file = join(root, 'posts', 'a.md');
      const as =
        (username: string, password: string) =>
        (...extra: string[]): Promise<CliResult> =>
          freshRun(['wp', 'publish', '--json', '--url', wp.baseUrl, '--username', username, ...extra], {
            service: world.sandbox,
            spawn: true,
            env: { BLOGCTL_WP_PASSWORD: password },
            cwd: root,
          });
      const adminBot = as(wp.username, wp.appPassword);
      const editorBot = as(wp.editorUsername, wp.editorAppPassword);

      await writeFile(file, `---\nkey: a\nstatus: publish\n---\n# Bots ${tag}\n\nOne.\n`);
      const first = await adminBot();
      expect(first.code, first.stderr).toBe(0);
      const id = rows(first)[0]!.id;

      // Another CI account (an Editor) publishes the next change: the same post, updated.
      await writeFile(file, `---\nkey: a\nstatus: publish\n---\n# Bots ${tag}\n\nTwo.\n`);
      const second = await editorBot();
      expect(second.code, second.stderr).toBe(0);
      expect(rows(second)[0]).toMatchObject({ action: 'updated', id });
      expect(second.stderr).not.toContain('copied marker');

      // An editor gives the post another byline (the Editor user): the admin's next run still updates it.
      const users = (await reader.route('wp/v2/users', {
        method: 'GET',
        params: { search: wp.editorUsername, context: 'edit' },
      })) as { body: { id: number; username: string }[] };
      const editorId = users.body.find((u) => u.username === wp.editorUsername)!.id;
      await reader.route(`wp/v2/posts/${id}`, { method: 'POST', json: { author: editorId } });
      await writeFile(file, `---\nkey: a\nstatus: publish\n---\n# Bots ${tag}\n\nThree.\n`);
      const third = await adminBot();
      expect(third.code, third.stderr).toBe(0);
      expect(rows(third)[0]).toMatchObject({ action: 'updated', id });
      const post = await getPost(reader, Number(id));
      expect(post.content!.raw).toContain('Three.');
      expect(post.author).toBe(editorId);
    });
  },
);

describe.each(wordpressInstances())("a folder's input errors ($permalinks permalinks)", (wp) => {
  it('come in one report: a bad status, an unknown post type and an unknown tag, each at its line', async () => {
    const root = await mkdtemp(join(world.home, 'inputs-'));
    await writeFile(join(root, 'a.md'), '---\nkey: a\nstatus: sideways\n---\n# A\n\nBody.\n');
    await writeFile(join(root, 'b.md'), '---\nkey: b\ntype: no-such-type\n---\n# B\n\nBody.\n');
    await writeFile(join(root, 'c.md'), `---\nkey: c\ntags:\n  - none-${RUN_ID}\n---\n# C\n\nBody.\n`);
    for (const extra of [['--dry-run'], []]) {
      const res = await freshRun(
        ['wp', 'publish', root, '--url', wp.baseUrl, '--username', wp.username, '--json', ...extra],
        { service: world.sandbox, spawn: true, env: { BLOGCTL_WP_PASSWORD: wp.appPassword } },
      );
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(/a\.md:3: status: /);
      expect(res.stderr).toMatch(/b\.md:3: type: the site has no post type "no-such-type"/);
      expect(res.stderr).toMatch(new RegExp(`c\\.md:3: unknown tag: none-${RUN_ID}`));
      expect(res.stderr).toContain('nothing was published');
    }
  });
});
