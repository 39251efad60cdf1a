// `wp pull` against the real WordPress: 50 posts of every status, with categories, tags, a featured image,
// block editor content, a sticky and an aside, pulled into a project's files with --adopt; then `wp publish
// --dry-run --exit-code` finds every file unchanged (exit 0), an edit of one file is a one-line plan, a
// post edited on the site is reported by the next pull and its file left, and --media downloads the image.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/wordpress/client.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

const instances = wordpressInstances();
let sandbox: TestSandbox;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ wordpressTimeoutMs: 30_000 });
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-pull-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

const created = z.looseObject({
  id: z.number(),
  source_url: z.optional(z.string()),
  link: z.optional(z.string()),
});

describe.each(instances)('wp pull from WordPress with $permalinks permalinks', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-pull-${wp.permalinks}`;
  let dir: string;
  let client: WordPressClient;
  const ids: number[] = [];
  let mediaId = 0;
  let runCategory = 0;
  const blogctl = (args: string[], cwd: string, input?: string): Promise<CliResult> =>
    runCli(['--base-url', sandbox.url, ...args], {
      env: { BLOGCTL_CONFIG_DIR: join(dir, 'config'), BLOGCTL_API_KEY: sandbox.apiKey },
      cwd,
      timeoutMs: 90_000,
      ...(input !== undefined && { input }),
    });
  const post = async (route: string, body: unknown): Promise<z.infer<typeof created>> =>
    (await client.route(route, { method: 'POST', json: body, schema: created, label: 'e2e seed' })).body;

  beforeAll(async () => {
    dir = await mkdtemp(join(work, `${wp.permalinks}-`));
    client = new WordPressClient({ websiteUrl: wp.baseUrl, username: wp.username, password: wp.appPassword });
    const add = await blogctl(
      ['wp', 'sites', 'add', 'site', '--url', wp.baseUrl, '--username', wp.username, '--password-stdin'],
      dir,
      `${wp.appPassword}\n`,
    );
    expect(add.code, add.stderr).toBe(0);

    // The run's own category keeps other tests' posts out of the pull.
    const run = await post('wp/v2/categories', { name: `Pulled ${tag}` });
    const news = await post('wp/v2/categories', { name: `News & Notes ${tag}` });
    const tags = await Promise.all(
      [0, 1, 2].map((i) => post('wp/v2/tags', { name: `pull tag ${i} ${tag}` })),
    );
    const media = (
      await client.route('wp/v2/media', {
        method: 'POST',
        raw: { data: PNG, contentType: 'image/png' },
        headers: { 'content-disposition': `attachment; filename="cover-${tag}.png"` },
        schema: created,
        label: 'e2e upload',
      })
    ).body;
    mediaId = media.id;
    runCategory = run.id;
    const ahead = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 19);
    for (let i = 0; i < 50; i++) {
      const status = STATUSES[i % STATUSES.length]!;
      const blocks = i % 3 === 0;
      const content = blocks
        ? `<!-- wp:paragraph -->\n<p>Post ${i} with <strong>blocks</strong> and a <a href="https://example.com/x">link</a>.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:heading -->\n<h2>Part ${i}</h2>\n<!-- /wp:heading -->\n\n<!-- wp:list -->\n<ul><li>one</li><li>two</li></ul>\n<!-- /wp:list -->\n\n<!-- wp:latest-posts {"postsToShow":2} /-->`
        : `<p>Classic post ${i}: <em>emphasis</em> &amp; more.</p>\n<p>Second paragraph.</p>`;
      const p = await post('wp/v2/posts', {
        title: `Pulled post ${i} ${tag}`,
        content,
        status,
        ...(status === 'future' && { date: ahead }),
        ...(i % 4 === 0 && { excerpt: `Excerpt ${i}` }),
        categories: i % 2 ? [run.id, news.id] : [run.id],
        tags: i % 5 === 0 ? [] : tags.slice(0, 1 + (i % 3)).map((t) => t.id),
        ...(i % 7 === 0 && { featured_media: media.id }),
        ...(i === 1 && { sticky: true }),
        ...(i === 2 && { format: 'aside' }),
      });
      ids.push(p.id);
    }
    // A trashed post is not pulled.
    const trashed = await post('wp/v2/posts', {
      title: `Trashed ${tag}`,
      status: 'publish',
      categories: [run.id],
    });
    await client.route(`wp/v2/posts/${trashed.id}`, { method: 'DELETE', label: 'e2e trash' });

    await mkdir(join(dir, 'project', 'posts'), { recursive: true });
    const init = await blogctl(
      ['wp', 'init', '--site', 'site', '--namespace', `pull-${tag}`.toLowerCase()],
      join(dir, 'project'),
    );
    expect(init.code, init.stderr).toBe(0);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('pulls 50 posts into files; publishing them back plans every file unchanged; one edit is a one-line plan', async () => {
    const project = join(dir, 'project');
    const pulled = await blogctl(
      ['wp', 'pull', 'posts', '--category', `Pulled ${tag}`, '--adopt', '--json'],
      project,
    );
    expect(pulled.code, pulled.stderr).toBe(0);
    const rows = JSON.parse(pulled.stdout) as {
      file: string;
      action: string;
      id: string;
      adopted: boolean;
      status: string;
    }[];
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((r) => r.action))).toEqual(new Set(['created']));
    expect(rows.every((r) => r.adopted)).toBe(true);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(STATUSES));
    expect((await readdir(join(project, 'posts'))).filter((f) => f.endsWith('.md'))).toHaveLength(50);

    // The file of a post with blocks, terms, an image: fields by name, the dynamic block kept.
    const first = rows.find((r) => r.id === String(ids[0]))!;
    const text = await readFile(join(project, first.file), 'utf8');
    expect(text).toContain(`title: "Pulled post 0 ${tag}"`);
    expect(text).toContain(`categories: ["Pulled ${tag}"]`);
    expect(text).toContain('status: "publish"');
    expect(text).toMatch(/^featured_media: \d+ # http:\/\/127\.0\.0\.1:\d+\/wp-content\/uploads\/.*cover-/m);
    expect(text).toContain(`key: "wp-${ids[0]}"`);
    expect(text).toContain('<!-- wp:latest-posts {"postsToShow":2} /-->');
    // Its list is in the form before list-item blocks, which Markdown would rewrite: the site's HTML is kept.
    expect(text).toContain('body: "html"');
    expect(text).toContain('<!-- wp:heading -->\n<h2>Part 0</h2>\n<!-- /wp:heading -->');
    const classic = await readFile(join(project, rows.find((r) => r.id === String(ids[1]))!.file), 'utf8');
    expect(classic).toContain('Classic post 1: *emphasis* & more.\n\nSecond paragraph.\n');
    const second = await readFile(join(project, rows.find((r) => r.id === String(ids[1]))!.file), 'utf8');
    expect(second).toMatch(/^categories: \["(Pulled|News & Notes) .*","(Pulled|News & Notes) .*"\]$/m);
    expect(second).toContain('sticky: true');

    const plan = await blogctl(
      ['wp', 'publish', '--site', 'site', 'posts', '--dry-run', '--exit-code', '--json'],
      project,
    );
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { source: string; action: string }[];
    expect(planned).toHaveLength(50);
    expect(planned.filter((p) => p.action !== 'unchanged')).toEqual([]);

    // One file edited: one line of plan.
    const edited = join(project, rows[3]!.file);
    await writeFile(
      edited,
      (await readFile(edited, 'utf8')).replace(/^title: ".*"$/m, 'title: "Edited in git"'),
    );
    const one = await blogctl(
      ['wp', 'publish', '--site', 'site', 'posts', '--dry-run', '--exit-code', '-q'],
      project,
    );
    expect(one.code).toBe(8);
    expect(one.stdout.trim().split('\n')).toEqual([rows[3]!.file]);
    const md = await blogctl(
      ['wp', 'publish', '--site', 'site', 'posts', '--dry-run', '--markdown'],
      project,
    );
    expect(md.stdout).toMatch(/^#### update \(1\)$/m);
    expect(md.stdout).toMatch(/\| title \|$/m);
  });

  it('a post edited on the site is reported by the next pull, and its file left unless --force', async () => {
    const project = join(dir, 'project');
    await client.route(`wp/v2/posts/${ids[5]}`, {
      method: 'POST',
      json: { title: `Edited on the site ${tag}` },
      label: 'e2e edit',
    });
    // The plan tells the editor's change from the post as it was adopted.
    const drift = await blogctl(['wp', 'publish', '--site', 'site', 'posts', '--dry-run', '--json'], project);
    const planned = JSON.parse(drift.stdout) as { source: string; edited?: string[] }[];
    expect(planned.filter((r) => r.edited?.length)).toEqual([
      expect.objectContaining({
        source: expect.stringContaining('pulled-post-5-') as unknown,
        edited: ['title'],
      }),
    ]);
    const again = await blogctl(['wp', 'pull', 'posts', '--category', `Pulled ${tag}`, '--json'], project);
    expect(again.code, again.stderr).toBe(0);
    const rows = JSON.parse(again.stdout) as { file: string; action: string; id: string }[];
    const differs = rows.filter((r) => r.action === 'differs');
    // The file edited in git (previous test) and the post edited on the site.
    expect(differs.map((r) => r.id).sort()).toEqual([String(ids[3]), String(ids[5])].sort());
    expect(again.stderr).toContain('left as it is; --force takes the site');
    const file = join(project, rows.find((r) => r.id === String(ids[5]))!.file);
    expect(await readFile(file, 'utf8')).not.toContain('Edited on the site');
    const forced = await blogctl(
      ['wp', 'pull', 'posts', '--category', `Pulled ${tag}`, '--force', '--json'],
      project,
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toContain(`title: "Edited on the site ${tag}"`);
  });

  it('--media downloads the featured image next to the posts', async () => {
    const other = join(dir, 'media-project');
    await mkdir(other, { recursive: true });
    const init = await blogctl(
      ['wp', 'init', '--site', 'site', '--namespace', `media-${tag}`.toLowerCase()],
      other,
    );
    expect(init.code, init.stderr).toBe(0);
    const fresh = await post('wp/v2/posts', {
      title: `With an image ${tag}`,
      content: '<p>Image</p>',
      status: 'publish',
      categories: [runCategory],
      featured_media: mediaId,
    });
    const pulled = await blogctl(
      ['wp', 'pull', '--category', `Pulled ${tag}`, '--status', 'publish', '--media', '--json'],
      other,
    );
    expect(pulled.code, pulled.stderr).toBe(0);
    const rows = JSON.parse(pulled.stdout) as { file: string; id: string }[];
    // The 50 adopted posts are the first project's: left out here.
    expect(pulled.stderr).toMatch(/\d+ posts left out: published by blogctl from another source/);
    const withImage = rows.find((r) => r.id === String(fresh.id))!;
    const text = await readFile(join(other, withImage.file), 'utf8');
    const image = /^featured_image: "(.*)"$/m.exec(text)?.[1];
    expect(image).toMatch(/^media\/\d+-cover-.*\.png$/);
    expect(await readFile(join(other, image!))).toEqual(PNG);
  });
});
