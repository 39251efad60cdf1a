// SEO fields against real WordPress, pretty and plain permalinks. Yoast SEO itself is not installed: the test
// mu-plugin seo-yoast.php (switch "seo-yoast") adds a route in its namespace so the REST index lists
// `yoast/v1`, and the meta stored is under the keys Yoast reads (_yoast_wpseo_*), registered for REST by
// blogctl's companion plugin where it is installed. `wp sites verify` reads the registered keys from
// `OPTIONS wp/v2/posts` and says which fields the site takes: all five with the plugin, none without.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { adminLogin, siteClient } from '../helpers/sync-project.js';
import { pluginInstances, wordpressInstances, type WordPressInstance } from './instances.js';

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
  },
);
