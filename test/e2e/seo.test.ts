// SEO fields against real WordPress, pretty and plain permalinks. Yoast SEO itself is not installed: the test
// mu-plugin seo-yoast.php (switch "seo-yoast") adds a route in its namespace so the REST index lists
// `yoast/v1`, and the meta stored is under the keys Yoast reads (_yoast_wpseo_*), registered for REST by
// blogctl's companion plugin where it is installed. `wp sites verify` reads the registered keys from
// `OPTIONS wp/v2/posts` and says which fields the site takes: all five with the plugin, none without; `wp
// publish` stores front matter `seo:` under those keys with the plugin (read back as the site stored them),
// and without it warns per field and sends none.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, freshRunner, siteClient, syncWorld } from '../helpers/sync-project.js';
import { getPost, updatePost } from '../../src/wordpress/posts.js';
import { pluginInstances, RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const world = syncWorld('e2e-seo', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

const all = [...pluginInstances(), ...wordpressInstances()];
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-seo-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.each(all)(
  'SEO fields, $permalinks permalinks (companion plugin: $syncPlugin)',
  (wp: WordPressInstance) => {
    const admin = siteClient(adminLogin(wp));
    const switchYoast = (on: boolean) =>
      admin.route('blogctl-e2e/v1/switches', {
        method: 'POST',
        json: { 'seo-yoast': on },
        label: 'e2e switches',
      });
    let config: string;
    const blogctl = (args: string[], input?: string): Promise<CliResult> =>
      runCli(args, { env: { BLOGCTL_CONFIG_DIR: config }, ...(input !== undefined && { input }) });

    beforeAll(async () => {
      await switchYoast(true);
      config = join(await mkdtemp(join(work, `${wp.permalinks}-${wp.port}-`)), 'config');
      const add = await blogctl(
        [
          'wp',
          'sites',
          'add',
          'seo',
          '--url',
          wp.baseUrl,
          '--username',
          wp.username,
          '--password-stdin',
          '--no-verify',
        ],
        `${wp.appPassword}\n`,
      );
      expect(add.code, add.stderr).toBe(0);
    });
    afterAll(async () => {
      await switchYoast(false);
    });

    it('wp sites verify names Yoast and the fields the site can take', async () => {
      const res = await blogctl(['wp', 'sites', 'verify', 'seo', '--json', 'seo']);
      expect(res.code, res.stderr).toBe(0);
      const { seo } = JSON.parse(res.stdout) as { seo: Record<string, unknown> };
      if (wp.syncPlugin)
        expect(seo).toEqual({
          plugin: 'yoast',
          writable: ['title', 'description', 'focus_keyword', 'canonical', 'noindex'],
          missing: {},
        });
      else {
        expect(seo).toMatchObject({ plugin: 'yoast', writable: [] });
        expect((seo['missing'] as Record<string, string>)['title']).toContain(
          '_yoast_wpseo_title is not registered',
        );
      }
    });

    it('wp publish stores seo: under the keys Yoast reads where the site takes them, else warns', async () => {
      const dir = await mkdtemp(join(world.home, `${wp.permalinks}-${wp.port}-`));
      await writeFile(
        join(dir, 'a.md'),
        `---\nkey: ${RUN_ID}-seo-${wp.port}\nseo:\n  title: Short title\n  description: What it says\n  canonical: https://example.com/a\n  noindex: true\n---\n# ${RUN_ID} SEO\n\nBody.\n`,
      );
      const res = await freshRun(['wp', 'publish', '--site', 'blog', '--json', dir], {
        service: world.sandbox,
        site: adminLogin(wp),
      });
      expect(res.code, res.stderr).toBe(0);
      const [row] = JSON.parse(res.stdout) as { id: string }[];
      const stored = await getPost(admin, Number(row!.id), { context: 'edit' });
      const meta = (stored.meta ?? {}) as Record<string, unknown>;
      if (wp.syncPlugin) {
        expect(res.stderr).toContain(
          'SEO fields written to Yoast SEO: title, description, canonical, noindex',
        );
        expect(meta).toMatchObject({
          _yoast_wpseo_title: 'Short title',
          _yoast_wpseo_metadesc: 'What it says',
          _yoast_wpseo_canonical: 'https://example.com/a',
          '_yoast_wpseo_meta-robots-noindex': '1',
        });
      } else {
        expect(res.stderr).toContain('seo.title not sent: _yoast_wpseo_title is not registered');
        expect(res.stderr).not.toContain('SEO fields written');
        expect(meta).not.toHaveProperty('_yoast_wpseo_title');
      }
    });

    it.skipIf(!wp.syncPlugin)(
      'no change sends nothing; an editor changing the SEO title on the site is drift, kept',
      async () => {
        const dir = await mkdtemp(join(world.home, `drift-${wp.permalinks}-${wp.port}-`));
        await writeFile(
          join(dir, 'd.md'),
          `---\nkey: ${RUN_ID}-seo-drift-${wp.port}\nseo:\n  title: Short title\n---\n# ${RUN_ID} SEO drift\n\nBody.\n`,
        );
        const run = await freshRunner({ service: world.sandbox, site: adminLogin(wp) });
        const publish = (...extra: string[]) =>
          run(['wp', 'publish', '--site', 'blog', '--json', dir, ...extra]);
        const first = await publish();
        expect(first.code, first.stderr).toBe(0);
        const id = Number((JSON.parse(first.stdout) as { id: string }[])[0]!.id);

        const again = await publish('--exit-code');
        expect(again.code, again.stderr).toBe(0);
        expect(JSON.parse(again.stdout)[0]).toMatchObject({ action: 'unchanged' });

        // An editor rewrites the SEO title in WordPress.
        await updatePost(admin, id, { meta: { _yoast_wpseo_title: 'Editor title' } });
        const plan = await publish('--dry-run', '--exit-code');
        expect(plan.code, plan.stderr).toBe(8);
        expect(JSON.parse(plan.stdout)[0]).toMatchObject({ action: 'unchanged', edited: ['seo_title'] });
        const kept = await publish();
        expect(kept.code, kept.stderr).toBe(0);
        const stored = await getPost(admin, id, { context: 'edit' });
        expect((stored.meta as Record<string, unknown>)['_yoast_wpseo_title']).toBe('Editor title');
      },
    );

    it.skipIf(!wp.syncPlugin)(
      'a field removed from seo: is cleared under its Yoast key, and the next run is unchanged',
      async () => {
        const dir = await mkdtemp(join(world.home, `clear-${wp.permalinks}-${wp.port}-`));
        const file = join(dir, 'c.md');
        const write = (seo: string) =>
          writeFile(
            file,
            `---\nkey: ${RUN_ID}-seo-clear-${wp.port}\nseo:\n${seo}---\n# ${RUN_ID} SEO clear\n\nBody.\n`,
          );
        await write('  title: Kept title\n  description: Goes away\n  noindex: true\n');
        const run = await freshRunner({ service: world.sandbox, site: adminLogin(wp) });
        const publish = (...extra: string[]) =>
          run(['wp', 'publish', '--site', 'blog', '--json', dir, ...extra]);
        const first = await publish();
        expect(first.code, first.stderr).toBe(0);
        const id = Number((JSON.parse(first.stdout) as { id: string }[])[0]!.id);
        await write('  title: Kept title\n');
        const cleared = await publish();
        expect(cleared.code, cleared.stderr).toBe(0);
        expect(JSON.parse(cleared.stdout)[0]).toMatchObject({
          action: 'updated',
          fields: ['seo_description', 'seo_noindex'],
        });
        expect(cleared.stderr).toContain('SEO fields cleared in Yoast SEO: description, noindex');
        const meta = (await getPost(admin, id, { context: 'edit' })).meta as Record<string, unknown>;
        expect(meta).toMatchObject({ _yoast_wpseo_title: 'Kept title', _yoast_wpseo_metadesc: '' });
        expect(['', '0']).toContain(meta['_yoast_wpseo_meta-robots-noindex']);
        const again = await publish('--dry-run', '--exit-code');
        expect(again.code, again.stderr).toBe(0);
      },
    );

    it.skipIf(!wp.syncPlugin)(
      'wp pull writes seo: from the keys Yoast reads; adopted, the file publishes unchanged',
      async () => {
        // A category of its own keeps the other test files' posts out of the pull (they run alongside on this
        // site, and may change theirs while this one runs).
        const category = `SEO pulled ${RUN_ID} ${wp.port}`;
        const cat = (
          await admin.route('wp/v2/categories', {
            method: 'POST',
            json: { name: category },
            label: 'e2e seed',
          })
        ).body as { id: number };
        const made = (
          await admin.route('wp/v2/posts', {
            method: 'POST',
            json: {
              title: `${RUN_ID} SEO pulled ${wp.port}`,
              content: '<p>Made in WordPress.</p>',
              status: 'publish',
              categories: [cat.id],
              meta: { _yoast_wpseo_title: 'Pulled title', _yoast_wpseo_metadesc: 'Pulled description' },
            },
            label: 'e2e seed',
          })
        ).body as { id: number };
        const root = await mkdtemp(join(world.home, `pull-${wp.permalinks}-${wp.port}-`));
        await writeFile(join(root, 'blogctl.yml'), `site: blog\nnamespace: seo-pull-${wp.port}-${RUN_ID}\n`);
        const run = await freshRunner({ service: world.sandbox, site: adminLogin(wp) });
        const pulled = await run(
          ['wp', 'pull', 'pulled', '--site', 'blog', '--category', category, '--adopt', '--json'],
          { cwd: root },
        );
        expect(pulled.code, pulled.stderr).toBe(0);
        const rows = JSON.parse(pulled.stdout) as { file: string; id: string }[];
        const row = rows.find((r) => r.id === String(made.id))!;
        const text = await readFile(join(root, row.file), 'utf8');
        expect(text).toContain('seo:\n  title: "Pulled title"\n  description: "Pulled description"\n');
        const plan = await run(['wp', 'publish', '--site', 'blog', '--dry-run', '--exit-code', '--json'], {
          cwd: root,
        });
        expect(plan.code, plan.stdout).toBe(0);
        expect((JSON.parse(plan.stdout) as { action: string }[]).every((r) => r.action === 'unchanged')).toBe(
          true,
        );
      },
    );
  },
);
