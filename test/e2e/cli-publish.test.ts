// The built CLI → the sandbox (in-process here) → real WordPress, with pretty and with plain permalinks:
// a post with all 18 content fields read back field by field from WordPress's REST API, a wrong Application
// Password refused with WordPress's reason (exit 6), a batch of Markdown files landing as that many posts,
// and the journal keeping a second run from making a duplicate.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/wordpress/client.js';
import { findPostsBySlug, getPost } from '../../src/wordpress/posts.js';
import { listTerms } from '../../src/wordpress/terms.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

// A valid 1×1 PNG (GD reads it when WordPress makes its sizes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const instances = wordpressInstances();
let sandbox: TestSandbox;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ wordpressTimeoutMs: 30_000 });
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-cli-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

describe.each(instances)(
  'blogctl wp publish to WordPress with $permalinks permalinks',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-cli-${wp.permalinks}`;
    let dir: string;
    let reader: WordPressClient;
    /** blogctl with the sandbox as the service and a config dir holding the site profiles. */
    const blogctl = (args: string[], input?: string): Promise<CliResult> =>
      runCli(['--base-url', sandbox.url, ...args], {
        env: { BLOGCTL_CONFIG_DIR: join(dir, 'config'), BLOGCTL_API_KEY: sandbox.apiKey },
        cwd: dir,
        timeoutMs: 60_000,
        ...(input !== undefined && { input }),
      });

    beforeAll(async () => {
      dir = await mkdtemp(join(work, `${wp.permalinks}-`));
      reader = new WordPressClient({
        websiteUrl: wp.baseUrl,
        username: wp.username,
        password: wp.appPassword,
      });
      for (const [id, password] of [
        ['site', wp.appPassword],
        ['wrong', 'aaaa bbbb cccc dddd eeee ffff'],
      ] as const) {
        const add = await blogctl(
          ['wp', 'sites', 'add', id, '--url', wp.baseUrl, '--username', wp.username, '--password-stdin'],
          `${password}\n`,
        );
        expect(add.code, add.stderr).toBe(0);
      }
    });
    afterAll(async () => {
      await reader?.close();
    });

    it('publishes all 18 content fields, each of which lands in WordPress', async () => {
      await writeFile(join(dir, `cover-${tag}.png`), PNG);
      const when = new Date(Date.now() + 7 * 86_400_000);
      when.setUTCMilliseconds(0);
      // The same instant written with a +02:00 offset: the CLI must send it as UTC.
      const local = new Date(when.getTime() + 2 * 3_600_000).toISOString().replace('.000Z', '+02:00');
      const utc = when.toISOString().slice(0, 19);
      const category = `E2E CLI Category ${tag}`;
      const tagName = `e2e cli tag ${tag}`;
      const res = await blogctl([
        'wp',
        'publish',
        '--site',
        'site',
        '--title',
        `Eighteen via the CLI ${tag}`,
        '--content',
        '<p>All <strong>eighteen</strong> fields.</p>',
        '--status',
        'future',
        '--date',
        local,
        '--slug',
        `eighteen-cli-${tag}`,
        // Sticky: WordPress refuses a sticky post with a password, so this one's password is empty.
        '--post-password',
        '',
        '--author',
        '1',
        '--excerpt',
        'Eighteen, from flags.',
        '--featured-image',
        `cover-${tag}.png`,
        '--comment-status',
        'closed',
        '--ping-status',
        'closed',
        '--format',
        'aside',
        '--meta',
        `blogctl_source=cli ${tag}`,
        '--sticky',
        '--template',
        'blank',
        '--category',
        category,
        '--tag',
        tagName,
        '--create-terms',
        '--json',
      ]);
      expect(res.code, res.stderr).toBe(0);
      const out = JSON.parse(res.stdout);
      expect(out).toMatchObject({ published: true, alreadyPublished: false, status: 'future', type: 'post' });

      const post = await getPost(reader, Number(out.id));
      const categories = await listTerms(reader, 'categories');
      const tags = await listTerms(reader, 'tags');
      expect(post.title?.raw).toBe(`Eighteen via the CLI ${tag}`);
      expect(post.content?.raw).toBe('<p>All <strong>eighteen</strong> fields.</p>');
      expect(post.status).toBe('future');
      expect(post.date_gmt).toBe(utc);
      expect(post.date).toBe(utc); // the site's time zone is UTC
      expect(post.slug).toBe(`eighteen-cli-${tag}`);
      expect(post.password).toBe('');
      expect(post.author).toBe(1);
      expect(post.excerpt?.raw).toBe('Eighteen, from flags.');
      expect(post.featured_media).toBeGreaterThan(0);
      const media = await reader.route(`wp/v2/media/${post.featured_media}`, { method: 'GET' });
      expect((media.body as { source_url: string }).source_url).toMatch(new RegExp(`cover-${tag}\\.png$`));
      expect(post.comment_status).toBe('closed');
      expect(post.ping_status).toBe('closed');
      expect(post.format).toBe('aside');
      expect(post.meta).toMatchObject({ blogctl_source: `cli ${tag}` });
      expect(post.sticky).toBe(true);
      expect(post.template).toBe('blank');
      expect(post.categories).toEqual([categories.find((t) => t.name === category)!.id]);
      expect(post.tags).toEqual([tags.find((t) => t.name === tagName)!.id]);
    });

    it('sets a post password (on a post that is not sticky)', async () => {
      const res = await blogctl([
        'wp',
        'publish',
        '--site',
        'site',
        '--title',
        `Protected ${tag}`,
        '--content',
        'secret',
        '--status',
        'publish',
        '--post-password',
        'open-sesame',
        '--no-sticky',
        '--json',
      ]);
      expect(res.code, res.stderr).toBe(0);
      const post = await getPost(reader, Number(JSON.parse(res.stdout).id));
      expect(post).toMatchObject({ password: 'open-sesame', sticky: false, status: 'publish' });
    });

    it("a wrong Application Password: exit 6 with WordPress's reason", async () => {
      const res = await blogctl([
        'wp',
        'publish',
        '--site',
        'wrong',
        '--title',
        `Refused ${tag}`,
        '--content',
        'x',
        '--status',
        'publish',
      ]);
      expect(res.code).toBe(6);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(
        /^error: WordPress did not publish the post: WordPress answered HTTP 401 \(rest_cannot_create\)/,
      );
      expect(res.stderr).not.toContain('aaaa bbbb');
    });

    it('a batch of Markdown files lands as that many posts', async () => {
      const names = ['first', 'second', 'third'];
      for (const n of names) {
        await writeFile(
          join(dir, `${n}-${tag}.md`),
          `---\nslug: batch-${n}-${tag}\ntags: [batch ${tag}]\n---\n# Batch ${n} ${tag}\n\nThe *${n}* post.\n`,
        );
      }
      const files = names.map((n) => `${n}-${tag}.md`);
      const res = await blogctl([
        'wp',
        'publish',
        '--site',
        'site',
        ...files,
        '--status',
        'publish',
        '--create-terms',
        '--json',
      ]);
      expect(res.code, res.stderr).toBe(0);
      const rows = JSON.parse(res.stdout) as { file: string; outcome: string; id: string }[];
      expect(rows.map((r) => [r.file, r.outcome])).toEqual(files.map((f) => [f, 'published']));
      for (const [i, n] of names.entries()) {
        const found = await findPostsBySlug(reader, `batch-${n}-${tag}`);
        expect(found.map((p) => p.id)).toEqual([Number(rows[i]!.id)]);
        expect(found[0]!.title?.raw).toBe(`Batch ${n} ${tag}`);
        expect(found[0]!.content?.raw).toContain(`<em>${n}</em>`);
      }
    });

    it('the journal keeps a second run from publishing a duplicate', async () => {
      const args = [
        'wp',
        'publish',
        '--site',
        'site',
        '--title',
        `Once ${tag}`,
        '--content',
        '<p>once</p>',
        '--slug',
        `once-${tag}`,
        '--status',
        'publish',
        '--json',
      ];
      const first = await blogctl(args);
      expect(first.code, first.stderr).toBe(0);
      const second = await blogctl(args);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({
        alreadyPublished: true,
        id: JSON.parse(first.stdout).id,
      });
      expect(second.stderr).toContain('already published');
      // By title, in any status: a duplicate would have the slug once-…-2.
      const all = await reader.route('wp/v2/posts', {
        method: 'GET',
        params: { search: `Once ${tag}`, status: 'any', context: 'edit', per_page: 100 },
      });
      expect((all.body as { id: number }[]).map((p) => p.id)).toEqual([Number(JSON.parse(first.stdout).id)]);
    });
  },
);
