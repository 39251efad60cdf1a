// The built CLI → the sandbox (in-process here) → real WordPress, with pretty and with plain permalinks:
// a post with all 18 content fields read back field by field from WordPress's REST API, a wrong Application
// Password refused with WordPress's reason (exit 6), a batch of Markdown files landing as that many posts,
// a second run finding its post on the site rather than making a duplicate, term ids checked (a tag literally named "2024"),
// an Author creating tags, and the status read back when the service's answer does not carry it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripMarker } from '../../src/publishing/identity.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { findPostsBySlugs, getPost, type WpPostDetail } from '../../src/wordpress/posts.js';
import { listTerms } from '../../src/wordpress/terms.js';
import { startBareAltService, type BareAltService } from '../helpers/bare-alt-service.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';
import { createAuthor } from './users.js';

// A valid 1×1 PNG (GD reads it when WordPress makes its sizes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const instances = wordpressInstances();
const findPostsBySlug = (client: WordPressClient, slug: string): Promise<WpPostDetail[]> =>
  findPostsBySlugs(client, [slug], 'e2e look-up');
let sandbox: TestSandbox;
/** A service answering only {success, postUrl, postId}: no status, no type. */
let bare: BareAltService;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ wordpressTimeoutMs: 30_000 });
  bare = await startBareAltService();
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-cli-'));
});
afterAll(async () => {
  await sandbox?.close();
  await bare?.close();
  await rm(work, { recursive: true, force: true });
});

describe.each(instances)(
  'blogctl wp publish to WordPress with $permalinks permalinks',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-cli-${wp.permalinks}`;
    let dir: string;
    let reader: WordPressClient;
    /** blogctl with the sandbox (or `service`) as the service and a config dir holding the site profiles. */
    const blogctl = (args: string[], input?: string, service = sandbox.url): Promise<CliResult> =>
      runCli(['--base-url', service, ...args], {
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
        // The wrong password is stored on purpose (--no-verify): publishing with it is what is tested.
        const add = await blogctl(
          [
            ...['wp', 'sites', 'add', id, '--url', wp.baseUrl, '--username', wp.username, '--password-stdin'],
            '--no-verify',
          ],
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
      const out = (JSON.parse(res.stdout) as { id: string }[])[0]!;
      expect(out).toMatchObject({ action: 'created', published: true, status: 'future', type: 'post' });

      const post = await getPost(reader, Number(out.id));
      const categories = await listTerms(reader, 'categories');
      const tags = await listTerms(reader, 'tags');
      expect(post.title?.raw).toBe(`Eighteen via the CLI ${tag}`);
      // --slug names the post on the site: its content ends with blogctl's marker.
      expect(stripMarker(post.content!.raw!)).toBe('<p>All <strong>eighteen</strong> fields.</p>');
      expect(post.status).toBe('future');
      expect(post.date_gmt).toBe(utc);
      expect(post.date).toBe(utc); // the site's time zone is UTC
      expect(post.slug).toBe(`eighteen-cli-${tag}`);
      // The password field was sent, but empty: WordPress refuses a sticky post that has a password (400
      // rest_invalid_field), and this post is sticky. A real password is proven on a post that is not sticky,
      // in "sets a post password (on a post that is not sticky)" below.
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
      const post = await getPost(reader, Number((JSON.parse(res.stdout) as { id: string }[])[0]!.id));
      expect(post).toMatchObject({ password: 'open-sesame', sticky: false, status: 'publish' });
    });

    it('ids are checked and a number that is no id is a name: a tag literally named "2024"', async () => {
      // A real tag called "2024", whose id is not 2024.
      const created = await reader.route('wp/v2/tags', {
        method: 'POST',
        json: { name: '2024' },
        passStatuses: [400],
      });
      const id2024 =
        created.status === 400
          ? (created.body as { data: { term_id: number } }).data.term_id
          : (created.body as { id: number }).id;
      const other = `e2e other tag ${tag}`;
      const otherTag = await reader.route('wp/v2/tags', { method: 'POST', json: { name: other } });
      const otherId = (otherTag.body as { id: number }).id;
      for (const [taxonomy, id] of [
        ['tags', 2024],
        ['categories', 9999],
        ['tags', 9999],
      ] as const) {
        const exists = await reader.route(`wp/v2/${taxonomy}`, {
          method: 'GET',
          params: { include: id },
        });
        expect(exists.body, `this test needs no ${taxonomy} with id ${id} on the site`).toEqual([]);
      }
      expect(id2024).not.toBe(2024);

      const publish = (slug: string, ...terms: string[]) =>
        blogctl([
          'wp',
          'publish',
          '--site',
          'site',
          '--title',
          `Terms ${slug}`,
          '--content',
          'x',
          '--status',
          'publish',
          '--slug',
          `${slug}-${tag}`,
          ...terms,
          '--json',
        ]);
      const byName = await publish('tag-2024', '--tag', '2024');
      expect(byName.code, byName.stderr).toBe(0);
      expect(
        (await getPost(reader, Number((JSON.parse(byName.stdout) as { id: string }[])[0]!.id))).tags,
      ).toEqual([id2024]);

      const mixed = await publish('tag-2024-and-id', '--tag', '2024', '--tag', String(otherId));
      expect(mixed.code, mixed.stderr).toBe(0);
      expect(
        (await getPost(reader, Number((JSON.parse(mixed.stdout) as { id: string }[])[0]!.id))).tags,
      ).toEqual([id2024, otherId]);

      // WordPress would publish these with no category or tag at all: refused, nothing published.
      for (const [slug, terms, message] of [
        ['category-9999', ['--category', '9999'], 'unknown category id: 9999'],
        ['tag-9999', ['--tag', '9999', '--create-terms'], 'unknown tag id: 9999'],
        ['tag-2024-9999', ['--tag', '2024,9999'], 'unknown tag id: 9999'],
      ] as const) {
        const res = await publish(slug, ...terms);
        expect(res.code).toBe(2);
        expect(res.stdout).toBe('');
        expect(res.stderr).toContain(`error: ${message} (no `);
        expect(res.stderr).toContain('nothing was published');
        expect(await findPostsBySlug(reader, `${slug}-${tag}`)).toEqual([]);
      }
    });

    it('an Author creates a new tag with --create-terms, but not a new category', async () => {
      const author = await createAuthor(wp, `author-p-${RUN_ID}-${wp.permalinks}`);
      const add = await blogctl(
        [
          'wp',
          'sites',
          'add',
          'author',
          '--url',
          wp.baseUrl,
          '--username',
          author.username,
          '--password-stdin',
        ],
        `${author.appPassword}\n`,
      );
      expect(add.code, add.stderr).toBe(0);
      const tagName = `e2e author tag ${tag}`;
      const res = await blogctl([
        'wp',
        'publish',
        '--site',
        'author',
        '--title',
        `By an Author ${tag}`,
        '--content',
        'x',
        '--status',
        'publish',
        '--tag',
        tagName,
        '--create-terms',
        '--json',
      ]);
      expect(res.code, res.stderr).toBe(0);
      const post = await getPost(reader, Number((JSON.parse(res.stdout) as { id: string }[])[0]!.id));
      expect(post.tags).toHaveLength(1);
      // Read afresh: the reader's term listing was cached before this tag existed.
      const created = await reader.route(`wp/v2/tags/${post.tags![0]}`, { method: 'GET' });
      expect((created.body as { name: string }).name).toBe(tagName);

      const slug = `author-category-${tag}`;
      const refused = await blogctl([
        'wp',
        'publish',
        '--site',
        'author',
        '--title',
        `Author category ${tag}`,
        '--content',
        'x',
        '--category',
        `e2e author category ${tag}`,
        '--create-terms',
      ]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(
        /create the WordPress category "e2e author category .*" failed: HTTP 403/,
      );
      expect(await findPostsBySlug(reader, slug)).toEqual([]);
      expect(refused.stdout + refused.stderr + res.stdout + res.stderr).not.toContain(author.appPassword);
    });

    it('a service answering {success, postUrl, postId}: the status is read back from WordPress', async () => {
      const later = new Date(Date.now() + 86_400_000).toISOString();
      const res = await blogctl(
        [
          'wp',
          'publish',
          '--site',
          'site',
          '--title',
          `Bare answer ${tag}`,
          '--content',
          'x',
          '--status',
          'publish',
          '--date',
          later,
        ],
        undefined,
        bare.url,
      );
      expect(res.code, res.stderr).toBe(0);
      expect(bare.answers.at(-1)).toEqual({
        success: true,
        postUrl: expect.any(String),
        postId: expect.any(String),
      });
      expect(res.stdout).toMatch(/^status: {4}future$/m);
      expect(res.stdout).toMatch(/^type: {6}post$/m);
      // The schedule foresaw it: said once, before sending.
      expect(res.stderr).toMatch(/WordPress schedules the post \(status future\)/);
      expect(res.stderr).not.toContain('as asked');
      const id = Number(/^id: +(\d+)$/m.exec(res.stdout)![1]);
      expect((await getPost(reader, id)).status).toBe('future');
      expect(bare.unexpected).toEqual([]);
    });

    it("a wrong Application Password: exit 4 (authentication) with WordPress's reason", async () => {
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
      expect(res.code).toBe(4);
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
      const rows = JSON.parse(res.stdout) as { source: string; action: string; id: string }[];
      expect(rows.map((r) => [r.source, r.action])).toEqual(files.map((f) => [f, 'created']));
      for (const [i, n] of names.entries()) {
        const found = await findPostsBySlug(reader, `batch-${n}-${tag}`);
        expect(found.map((p) => p.id)).toEqual([Number(rows[i]!.id)]);
        expect(found[0]!.title?.raw).toBe(`Batch ${n} ${tag}`);
        expect(found[0]!.content?.raw).toContain(`<em>${n}</em>`);
      }
    });

    it('a second run finds its post on the site (by --slug) and sends nothing', async () => {
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
      expect((JSON.parse(second.stdout) as { id: string }[])[0]!).toMatchObject({
        action: 'unchanged',
        id: (JSON.parse(first.stdout) as { id: string }[])[0]!.id,
      });
      // By title, in any status: a duplicate would have the slug once-…-2.
      const all = await reader.route('wp/v2/posts', {
        method: 'GET',
        params: { search: `Once ${tag}`, status: 'any', context: 'edit', per_page: 100 },
      });
      expect((all.body as { id: number }[]).map((p) => p.id)).toEqual([
        Number((JSON.parse(first.stdout) as { id: string }[])[0]!.id),
      ]);
    });
  },
);
