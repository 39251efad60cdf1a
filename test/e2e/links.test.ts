// Links between sources against the real WordPress (pretty and plain permalinks): a Markdown link to another
// source of the project is, on the published page, the target post's `link` as WordPress gives it (its
// fragment kept), two new posts linking to each other included; the next run plans nothing and sends nothing.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/wordpress/client.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { pluginInstances, RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

// With the companion plugin too (its meta keeps the sync state): the second request of a circle writes it.
const instances = [...wordpressInstances(), ...pluginInstances()];
let sandbox: TestSandbox;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ wordpressTimeoutMs: 30_000 });
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-links-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

const stored = z.looseObject({
  id: z.number(),
  link: z.string(),
  content: z.looseObject({ rendered: z.string() }),
});

interface Row {
  source: string;
  action: string;
  id: string;
  link: string;
}

/** The `href` of every `<a>` in a page (WordPress writes them double-quoted). */
const hrefs = (html: string): string[] =>
  [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

describe.each(instances)(
  'links between sources on WordPress with $permalinks permalinks',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-lnk-${wp.permalinks}${wp.syncPlugin ? '-plugin' : ''}`;
    let dir: string;
    let client: WordPressClient;
    const blogctl = (args: string[], input?: string, cwd?: string): Promise<CliResult> =>
      runCli(['--base-url', sandbox.url, ...args], {
        env: { BLOGCTL_CONFIG_DIR: join(dir, 'config'), BLOGCTL_API_KEY: sandbox.apiKey },
        cwd: cwd ?? dir,
        timeoutMs: 90_000,
        ...(input !== undefined && { input }),
      });
    const read = async (id: string): Promise<z.infer<typeof stored>> =>
      (
        await client.route(`wp/v2/posts/${id}`, {
          method: 'GET',
          params: { context: 'view' },
          schema: stored,
          label: 'e2e read',
        })
      ).body;

    beforeAll(async () => {
      dir = await mkdtemp(join(work, `${wp.permalinks}-${wp.port}-`));
      client = new WordPressClient({
        websiteUrl: wp.baseUrl,
        username: wp.username,
        password: wp.appPassword,
      });
      const add = await blogctl(
        ['wp', 'sites', 'add', 'site', '--url', wp.baseUrl, '--username', wp.username, '--password-stdin'],
        `${wp.appPassword}\n`,
      );
      expect(add.code, add.stderr).toBe(0);
    });
    afterAll(() => client?.close());

    it('the published page links to the target post’s link; a second run sends nothing', async () => {
      const project = join(dir, 'project');
      await mkdir(join(project, 'posts', 'guides'), { recursive: true });
      const init = await blogctl(
        ['wp', 'init', '--site', 'site', '--namespace', `lnk-${tag}`.toLowerCase()],
        undefined,
        project,
      );
      expect(init.code, init.stderr).toBe(0);
      await writeFile(
        join(project, 'posts', 'intro.md'),
        [
          '---',
          `title: Intro ${tag}`,
          'status: publish',
          '---',
          `Read [the guide](guides/setup.md#step-2) next.`,
          '',
        ].join('\n'),
      );
      await writeFile(
        join(project, 'posts', 'guides', 'setup.md'),
        [
          '---',
          `title: Setup ${tag}`,
          'status: publish',
          '---',
          `Back to [the intro][intro].`,
          '',
          '[intro]: ../intro.md',
          '',
        ].join('\n'),
      );
      const first = await blogctl(['wp', 'publish', '--site', 'site', '--json'], undefined, project);
      expect(first.code, first.stderr).toBe(0);
      const rows = JSON.parse(first.stdout) as Row[];
      const intro = rows.find((r) => r.source === 'posts/intro.md')!;
      const setup = rows.find((r) => r.source === 'posts/guides/setup.md')!;
      expect([intro.action, setup.action]).toEqual(['created', 'created']);
      const [introPost, setupPost] = await Promise.all([read(intro.id), read(setup.id)]);
      // WordPress's own `link` of each post, as the REST API gives it.
      expect(hrefs(introPost.content.rendered)).toEqual([`${setupPost.link}#step-2`]);
      expect(hrefs(setupPost.content.rendered)).toEqual([introPost.link]);
      if (wp.permalinks === 'plain') expect(setupPost.link).toBe(`${wp.baseUrl}/?p=${setupPost.id}`);
      else expect(setupPost.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/setup-/);
      // The public page readers get, as the theme renders it.
      const page = await fetch(introPost.link);
      expect(page.status).toBe(200);
      expect(hrefs(await page.text())).toContain(`${setupPost.link}#step-2`);

      const plan = await blogctl(
        ['wp', 'publish', '--site', 'site', '--dry-run', '--exit-code', '--json'],
        undefined,
        project,
      );
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      const again = await blogctl(['wp', 'publish', '--site', 'site', '--json'], undefined, project);
      expect(again.code, again.stderr).toBe(0);
      expect((JSON.parse(again.stdout) as Row[]).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);

      // The target's new slug: its new link (pretty permalinks) is in the page linking to it, in the same run.
      await writeFile(
        join(project, 'posts', 'guides', 'setup.md'),
        [
          '---',
          `title: Setup ${tag}`,
          `slug: renamed-${tag}`.toLowerCase(),
          'status: publish',
          '---',
          `Back to [the intro][intro].`,
          '',
          '[intro]: ../intro.md',
          '',
        ].join('\n'),
      );
      const renamed = await blogctl(['wp', 'publish', '--site', 'site', '--json'], undefined, project);
      expect(renamed.code, renamed.stderr).toBe(0);
      const [introAfter, setupAfter] = await Promise.all([read(intro.id), read(setup.id)]);
      if (wp.permalinks === 'pretty')
        expect(setupAfter.link).toBe(`${wp.baseUrl}/renamed-${tag}/`.toLowerCase());
      expect(hrefs(introAfter.content.rendered)).toEqual([`${setupAfter.link}#step-2`]);
      const settled = await blogctl(
        ['wp', 'publish', '--site', 'site', '--dry-run', '--exit-code'],
        undefined,
        project,
      );
      expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    });
  },
);
