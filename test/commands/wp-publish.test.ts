// `wp publish` as people write, the command tree in-process: terms by name (and --create-terms), featured images,
// Markdown with front matter, batches of files and folders, schedules, and publishing in step with the site
// (create, update in place, unchanged), against the sandbox, relaying to a fake WordPress that also serves
// terms, media, users/me, the look-ups and updates. Nothing here needs a process: exit codes, pipes and
// terminals of `wp publish` are test/process/publish-blog.test.ts's and pty.test.ts's.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareAltService, type BareAltService } from '../helpers/bare-alt-service.js';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { stripMarker } from '../../src/publishing/identity.js';

// A 1×1 PNG; WordPress (and the fake) only need the bytes and the name.
guardStrayOutput();

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let sandbox: TestSandbox;
let wp: FakeWordPress;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), wp.close()]);
});

interface Setup {
  dir: string;
  env: Record<string, string>;
  run(args: string[], input?: string): Promise<CliResult>;
}

/**
 * A fresh config dir with a site profile "blog" for the fake WordPress; the posts are written there too, in a
 * git work tree (a file's source is its path from the work tree's root).
 */
async function setup(): Promise<Setup> {
  const dir = tempConfigDir();
  mkdirSync(join(dir, '.git'));
  const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: sandbox.apiKey };
  const run = (args: string[], input?: string): Promise<CliResult> =>
    runInProcess(args, { env, cwd: dir, ...(input !== undefined && { input }) });
  const add = await run(
    ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    `${wp.password}\n`,
  );
  expect(add.code, add.stderr).toBe(0);
  return { dir, env, run };
}

const postsTitled = (title: string) => wp.posts.filter((p) => p.title === title);
const lastPost = () => wp.posts.at(-1)!;
/** A post's HTML as the source gave it: without blogctl's marker. */
const body = (post: Record<string, unknown>) => stripMarker(String(post['content'] ?? ''));

describe('categories and tags by name', () => {
  it('unknown names without --create-terms → exit 2 naming them, nothing published', async () => {
    const { run } = await setup();
    const before = wp.posts.length;
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Named terms',
      '--content',
      '<p>x</p>',
      '--category',
      'Espresso Gear',
      '--tag',
      'grinders',
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'error: unknown category: Espresso Gear (use --create-terms to create it); unknown tag: grinders (use --create-terms to create it); nothing was published\n',
    );
    expect(wp.posts.length).toBe(before);
  });

  it('--create-terms creates them; later runs find them by name, slug or any case', async () => {
    const { run } = await setup();
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Created terms',
      '--content',
      '<p>x</p>',
      '--category',
      'Brew Guides,uncategorized',
      '--tag',
      'Pour Over',
      '--create-terms',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const category = wp.terms.categories.find((t) => t.name === 'Brew Guides')!;
    const tag = wp.terms.tags.find((t) => t.name === 'Pour Over')!;
    expect(lastPost()).toMatchObject({
      title: 'Created terms',
      categories: [category.id, 1],
      tags: [tag.id],
    });

    const again = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Found terms',
      '--content',
      '<p>y</p>',
      '--category',
      'brew-guides',
      '--tag',
      'POUR OVER',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(lastPost()).toMatchObject({ title: 'Found terms', categories: [category.id], tags: [tag.id] });
    expect(wp.terms.categories.filter((t) => t.name === 'Brew Guides')).toHaveLength(1);
  });
});

describe('categories and tags by id', () => {
  it('an id is checked even alone; a number that is no id is a name ("2024"); unknown → exit 2, nothing published', async () => {
    const { run } = await setup();
    const named2024 = { id: 500 + wp.terms.tags.length, name: '2024', slug: '2024', parent: 0 };
    wp.terms.tags.push(named2024);
    const before = wp.posts.length;
    const publish = (title: string, ...terms: string[]) =>
      run(['wp', 'publish', '--site', 'blog', '--title', title, '--content', '<p>x</p>', ...terms]);

    for (const terms of [
      ['--category', '9999'],
      ['--tag', '9999'],
      ['--tag', '2024,9999'],
    ]) {
      const res = await publish('Unknown id', ...terms);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(/^error: unknown (category|tag) id: 9999 \(no (category|tag) has this id/);
      expect(res.stderr).toContain('nothing was published');
    }
    expect(wp.posts.length).toBe(before);

    const byName = await publish('Tag named 2024', '--tag', '2024', '--category', '1');
    expect(byName.code, byName.stderr).toBe(0);
    expect(lastPost()).toMatchObject({ title: 'Tag named 2024', tags: [named2024.id], categories: [1] });
  });
});

describe('featured images and Markdown', () => {
  it('--featured-image uploads the file and sets featured_media', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'cover.png'), PNG);
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'With cover',
      '--content',
      '<p>x</p>',
      '--featured-image',
      'cover.png',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const upload = wp.media.at(-1)!;
    expect(upload).toMatchObject({ filename: 'cover.png', bytes: PNG.length });
    expect(lastPost()).toMatchObject({ title: 'With cover', featured_media: upload.id });
  });

  it('a missing image file → exit 2 before anything is sent', async () => {
    const { run } = await setup();
    const before = wp.requests.length;
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      't',
      '--content',
      'c',
      '--featured-image',
      'nope.png',
    ]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--featured-image: nope.png: no such file');
    expect(wp.requests.length).toBe(before);
  });

  it('--content-file post.md: front matter fills the fields, flags override it, the image is relative to the file', async () => {
    const { dir, run } = await setup();
    mkdirSync(join(dir, 'posts', 'img'), { recursive: true });
    writeFileSync(join(dir, 'posts', 'img', 'hero.png'), PNG);
    writeFileSync(
      join(dir, 'posts', 'espresso.md'),
      `---
slug: espresso-at-home
status: draft
excerpt: From the front matter
tags: [crema, Brew Guides]
featured_image: img/hero.png
format: aside
meta:
  blogctl_source: espresso.md
layout: post
---
# Espresso *at home*

A **bold** start.
`,
    );
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--content-file',
      'posts/espresso.md',
      '--status',
      'publish',
      '--create-terms',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('front matter not used: layout');
    const post = lastPost();
    expect(post).toMatchObject({
      title: 'Espresso at home',
      slug: 'espresso-at-home',
      status: 'publish',
      excerpt: 'From the front matter',
      format: 'aside',
      meta: { blogctl_source: 'espresso.md' },
      featured_media: wp.media.at(-1)!.id,
    });
    expect(wp.media.at(-1)!.filename).toBe('hero.png');
    expect(body(post)).toBe('<p>A <strong>bold</strong> start.</p>');
    expect((post['tags'] as number[]).length).toBe(2);
    expect((JSON.parse(res.stdout) as object[])[0]).toMatchObject({
      action: 'created',
      published: true,
      link: `${wp.url}/espresso-at-home/`,
    });
    // The same file again: nothing sent, the image not uploaded again; then a new image: uploaded, and set.
    const uploads = wp.media.length;
    const again = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--content-file',
      'posts/espresso.md',
      '--status',
      'publish',
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject([{ action: 'unchanged', id: String(post.id) }]);
    expect(wp.media.length).toBe(uploads);
    writeFileSync(join(dir, 'posts', 'img', 'hero.png'), Buffer.concat([PNG, Buffer.from([0])]));
    const image = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--content-file',
      'posts/espresso.md',
      '--status',
      'publish',
      '--json',
    ]);
    expect(image.code, image.stderr).toBe(0);
    expect((JSON.parse(image.stdout) as object[])[0]).toMatchObject({
      action: 'updated',
      id: String(post.id),
      fields: ['image'],
    });
    expect(wp.media.length).toBe(uploads + 1);
    expect(post['featured_media']).toBe(wp.media.at(-1)!.id);
  });

  it('an .html file is sent as-is', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'body.html'), '<h2>Raw</h2>\n<p># not markdown</p>\n');
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Raw HTML',
      '--content-file',
      'body.html',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(body(lastPost())).toBe('<h2>Raw</h2>\n<p># not markdown</p>');
  });

  it('an HTML file takes its title from <title>, else from its first <h1>, which then leaves the body', async () => {
    const { dir, run } = await setup();
    mkdirSync(join(dir, 'html'));
    writeFileSync(
      join(dir, 'html', 'page.html'),
      '<!doctype html><html><head><title>Caf&eacute; &amp; more</title></head><body><h1>Heading</h1><p>P</p></body></html>',
    );
    writeFileSync(join(dir, 'html', 'frag.html'), '<h1>From the <em>heading</em></h1>\n<p>F</p>\n');
    const res = await run(['wp', 'publish', '--site', 'blog', 'html/', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(postsTitled('From the heading')).toHaveLength(1);
    expect(body(postsTitled('From the heading')[0]!)).toBe('<p>F</p>');
    const page = wp.posts.find((p) => body(p) === '<h1>Heading</h1><p>P</p>');
    expect(page?.title).toBe('Café & more');
  });
});

describe('batches of files', () => {
  function writePosts(dir: string): string[] {
    const files = ['one', 'two', 'three'].map((n) => join('batch', `${n}.md`));
    mkdirSync(join(dir, 'batch'), { recursive: true });
    writeFileSync(join(dir, files[0]!), '# Batch one\n\nFirst.\n');
    // WordPress refuses an author that does not exist (400 rest_invalid_author): the service says isPublished false.
    writeFileSync(join(dir, files[1]!), '---\nauthor: 999\n---\n# Batch two\n\nSecond.\n');
    writeFileSync(join(dir, files[2]!), '---\ntags: [batch]\n---\n# Batch three\n\nThird.\n');
    return files;
  }

  it('publishes each file; a TSV summary when piped; the worst exit code; the next run sends only what changed', async () => {
    const { dir, env, run } = await setup();
    const files = writePosts(dir);
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      ...files,
      '--status',
      'publish',
      '--create-terms',
      '--concurrency',
      '2',
    ]);
    expect(res.code).toBe(6);
    const rows = res.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    // SOURCE, ACTION, WP STATUS, ID, LINK, ERROR.
    expect(rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      [files[0], 'created', 'publish'],
      [files[1], 'failed', ''],
      [files[2], 'created', 'publish'],
    ]);
    expect(rows[0]![4]).toBe(`${wp.url}/batch-one/`);
    expect(rows[1]![5]).toContain('Invalid author ID');
    const errors = res.stderr.split('\n').filter((l) => l.startsWith('error:'));
    // The line ends with the failure behind the exit code: a script gets no hint lines.
    expect(errors).toEqual([
      expect.stringMatching(
        /^error: 1 of 3 posts not published \(batch\/two\.md\); .*: batch\/two\.md: .*Invalid author ID/,
      ),
    ]);
    expect(postsTitled('Batch one')).toHaveLength(1);
    expect(postsTitled('Batch three')).toHaveLength(1);

    // Fix the failing file and run the same batch again, from a new config dir (a fresh CI runner): only it
    // is sent; the folder gives the same sources as the files did.
    writeFileSync(join(dir, files[1]!), '# Batch two\n\nSecond, fixed.\n');
    const fresh = { ...env, BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const add = await runInProcess(
      ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
      { env: fresh, cwd: dir, input: `${wp.password}\n` },
    );
    expect(add.code, add.stderr).toBe(0);
    const again = await runInProcess(
      ['wp', 'publish', '--site', 'blog', 'batch', '--status', 'publish', '--json'],
      {
        env: fresh,
        cwd: dir,
      },
    );
    expect(again.code, again.stderr).toBe(0);
    const out = JSON.parse(again.stdout) as { source: string; action: string; id: string }[];
    expect(out.map((o) => [o.source, o.action])).toEqual([
      ['batch/one.md', 'unchanged'],
      ['batch/three.md', 'unchanged'],
      ['batch/two.md', 'created'],
    ]);
    expect(postsTitled('Batch one')).toHaveLength(1);
    expect(postsTitled('Batch two')).toHaveLength(1);

    // An edit updates that post in place: same id, same link; nothing else is sent.
    const one = postsTitled('Batch one')[0]!;
    writeFileSync(join(dir, files[0]!), '# Batch one, renamed\n\nFirst, edited.\n');
    const posts = wp.posts.length;
    const edited = await run(['wp', 'publish', '--site', 'blog', 'batch/', '--status', 'publish', '--json']);
    expect(edited.code, edited.stderr).toBe(0);
    const rows2 = JSON.parse(edited.stdout) as {
      action: string;
      id: string;
      fields?: string[];
      link: string;
    }[];
    expect(rows2.map((r) => r.action)).toEqual(['updated', 'unchanged', 'unchanged']);
    expect(rows2[0]).toMatchObject({
      id: String(one.id),
      fields: ['title', 'content'],
      link: `${wp.url}/batch-one/`,
    });
    expect(wp.posts.length).toBe(posts);
    expect(one.title).toBe('Batch one, renamed');
    expect(wp.updates.at(-1)).toEqual({ id: one.id, fields: ['content', 'title'] });
  });

  it('a file named twice, or by another spelling of its path, is read once; two files naming one post → exit 2', async () => {
    const { dir, run } = await setup();
    mkdirSync(join(dir, 'dup'));
    writeFileSync(join(dir, 'dup', 'a.md'), '# Twice named\n\nOnce sent.\n');
    writeFileSync(join(dir, 'dup', 'b.md'), '# Named once\n\nB.\n');
    const files = ['dup/a.md', 'dup/b.md', 'dup/a.md', './dup/../dup/a.md', 'dup'];
    const res = await run(['wp', 'publish', '--site', 'blog', ...files, '--concurrency', '6', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const rows = JSON.parse(res.stdout) as { source: string; action: string }[];
    expect(rows.map((r) => [r.source, r.action])).toEqual([
      ['dup/a.md', 'created'],
      ['dup/b.md', 'created'],
    ]);
    expect(postsTitled('Twice named')).toHaveLength(1);

    // Two files with the same front matter key would be one post on the site: refused, nothing sent.
    writeFileSync(join(dir, 'dup', 'c.md'), '---\nkey: shared\n---\n# C\n\nC.\n');
    writeFileSync(join(dir, 'dup', 'd.md'), '---\nkey: shared\n---\n# D\n\nD.\n');
    const posts = wp.posts.length;
    const clash = await run(['wp', 'publish', '--site', 'blog', 'dup/']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(
      /^error: dup\/c\.md:2 and dup\/d\.md:2 are the same post \(key "shared"\): .*nothing was published$/m,
    );
    expect(wp.posts.length).toBe(posts);
  });

  it('a service that cannot be reached: the post in flight fails, the rest are not attempted, nothing in doubt', async () => {
    const { dir, env } = await setup();
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((r) => closed.close(() => r()));
    mkdirSync(join(dir, 'down'));
    const files = [1, 2, 3, 4, 5, 6].map((n) => {
      writeFileSync(join(dir, 'down', `${n}.md`), `# Down ${n}\n\nBody ${n}.\n`);
      return join('down', `${n}.md`);
    });
    const res = await runInProcess(
      ['--retries', '0', 'wp', 'publish', '--site', 'blog', ...files, '--concurrency', '2', '--json'],
      { env: { ...env, BLOGCTL_BASE_URL: `http://127.0.0.1:${port}` }, cwd: dir },
    );
    expect(res.code, res.stderr).toBe(7);
    const rows = JSON.parse(res.stdout) as { source: string; action: string; error: string }[];
    expect(rows.map((r) => r.action)).toEqual(Array(6).fill('failed'));
    // A run's first create goes alone (its look-up is checked before more are made): it met the refused
    // connection, and the five after it were not sent into it.
    expect(rows[0]!.error).toMatch(/^publish to WordPress failed: cannot reach .*: connection refused$/);
    expect(rows.slice(1).map((r) => r.error)).toEqual(
      Array(5).fill(expect.stringMatching(/^not attempted: publish to WordPress failed: cannot reach /)),
    );
    // Never sent, and nothing kept on this machine: the next run finds none of them on the site and sends them.
    expect(existsSync(join(dir, 'in-doubt.jsonl'))).toBe(false);
    expect(postsTitled('Down 1')).toHaveLength(0);
  });

  it('-q prints one link per post; per-post flags with several files → exit 2', async () => {
    const { dir, run } = await setup();
    mkdirSync(join(dir, 'q'));
    writeFileSync(join(dir, 'q', 'a.md'), '# Quiet a\n\nA.\n');
    writeFileSync(join(dir, 'q', 'b.html'), '<p>B</p>');
    const refused = await run(['wp', 'publish', '--site', 'blog', 'q/a.md', 'q/b.html', '--title', 'Same']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--title describes one post, but several files were given');
    const noTitle = await run(['wp', 'publish', '--site', 'blog', 'q/a.md', 'q/b.html']);
    expect(noTitle.code).toBe(2);
    expect(noTitle.stderr).toContain('q/b.html: --title is required');

    // `--json` takes an optional value: a post file right after it is still a file.
    const json = await run(['wp', 'publish', '--site', 'blog', '--json', 'q/b.html', '--title', 'B page']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ source: 'q/b.html', action: 'created' }),
    ]);

    const quiet = await run(['wp', 'publish', '--site', 'blog', 'q/a.md', '-q']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?p=\d+\n$/);
  });
});

describe('in step with the site, from any machine', () => {
  it('a post from flags alone has no source: each run makes a new one, and says so', async () => {
    const { run } = await setup();
    const args = [
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Cron post',
      '--content',
      '<p>weekly</p>',
      '--json',
    ];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /^warning: a post from flags alone has no source to be found by: .*--slug or --key/m,
    );
    expect((await run(args)).code).toBe(0);
    expect(postsTitled('Cron post')).toHaveLength(2);
  });

  it('--key (or --slug) names the post: a new title updates it in place, from a new config dir too', async () => {
    const { run } = await setup();
    const base = ['wp', 'publish', '--site', 'blog', '--key', 'weekly-48', '--content', '<p>x</p>', '--json'];
    const first = (
      JSON.parse((await run([...base, '--title', 'Keyed A'])).stdout) as { id: string; link: string }[]
    )[0]!;
    const other = await setup();
    const again = await other.run([...base, '--title', 'Keyed B']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as object[])[0]).toMatchObject({
      action: 'updated',
      id: first.id,
      link: first.link,
      fields: ['title'],
    });
    expect(postsTitled('Keyed A')).toHaveLength(0);
    expect(postsTitled('Keyed B')).toHaveLength(1);
    const same = await other.run([...base, '--title', 'Keyed B']);
    expect((JSON.parse(same.stdout) as object[])[0]).toMatchObject({ action: 'unchanged', id: first.id });

    // --no-update reports the change and leaves the post; --exit-code makes that exit 8.
    const left = await other.run([...base, '--title', 'Keyed C', '--no-update', '--exit-code']);
    expect(left.code).toBe(8);
    expect((JSON.parse(left.stdout) as object[])[0]).toMatchObject({
      action: 'changed',
      id: first.id,
      fields: ['title'],
    });
    expect(postsTitled('Keyed B')).toHaveLength(1);
    // --dry-run shows the plan and sends nothing.
    const requests = wp.requests.length;
    const plan = await other.run([...base, '--title', 'Keyed C', '--dry-run', '--exit-code']);
    expect(plan.code).toBe(8);
    expect(JSON.parse(plan.stdout)).toEqual([
      expect.objectContaining({ source: 'flags', action: 'update', id: first.id, fields: ['title'] }),
    ]);
    expect(wp.requests.slice(requests).every((r) => r.method === 'GET')).toBe(true);
    expect(postsTitled('Keyed B')).toHaveLength(1);
  });

  it("an editor's post holding the slug a source asks for is never overwritten nor taken as its post", async () => {
    const { run } = await setup();
    wp.posts.push({
      id: 9000,
      status: 'publish',
      slug: 'editors-pick',
      title: 'By an editor',
      content: '<p>mine</p>',
    });
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Mine',
      '--slug',
      'editors-pick',
      '--content',
      'x',
    ]);
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(
      /^error: the slug "editors-pick" belongs to post 9000 \(publish\), which blogctl did not publish: it is never overwritten/m,
    );
    expect(wp.posts.find((p) => p.id === 9000)).toMatchObject({
      title: 'By an editor',
      content: '<p>mine</p>',
    });
    expect(wp.updates.filter((u) => u.id === 9000)).toEqual([]);
  });

  it('a post in the trash is left there and reported; --exit-code says the site is not in step', async () => {
    const { run } = await setup();
    const args = [
      'wp',
      'publish',
      '--site',
      'blog',
      '--slug',
      'binned',
      '--title',
      'Binned',
      '--content',
      'x',
      '--json',
    ];
    const first = (JSON.parse((await run(args)).stdout) as { id: string }[])[0]!;
    wp.posts.find((p) => p.id === Number(first.id))!.status = 'trash';
    const posts = wp.posts.length;
    const again = await run([...args, '--exit-code']);
    expect(again.code).toBe(8);
    expect(JSON.parse(again.stdout)).toMatchObject([{ action: 'trashed', id: first.id }]);
    expect(again.stderr).toContain("is in WordPress's trash: left there");
    expect(wp.posts.length).toBe(posts);
  });
});

describe('schedules', () => {
  it('publish with a later date: warned before sending, and the status WordPress gave is reported', async () => {
    const { run } = await setup();
    const later = new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
    const res = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Later',
      '--content',
      'x',
      '--status',
      'publish',
      '--date',
      later,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/is in the future: WordPress schedules the post \(status future\)/);
    // Foreseen, so said once: not again when WordPress does as foreseen.
    expect(res.stderr).not.toContain('as asked');
    expect((JSON.parse(res.stdout) as object[])[0]).toMatchObject({
      status: 'future',
      requestedStatus: 'publish',
    });
    expect(lastPost()).toMatchObject({ title: 'Later', date_gmt: later.slice(0, 19) });
    expect(lastPost()['date']).toBe(later.slice(0, 19));
  });

  it('future without a date → exit 2, unless --allow-immediate (then WordPress publishes it at once)', async () => {
    const { run } = await setup();
    const args = [
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'No date',
      '--content',
      'x',
      '--status',
      'future',
    ];
    const refused = await run(args);
    expect(refused.code).toBe(2);
    expect((await run([...args, '--force'])).code).toBe(2);
    const forced = await run([...args, '--allow-immediate', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((JSON.parse(forced.stdout) as object[])[0]).toMatchObject({
      status: 'publish',
      requestedStatus: 'future',
    });
  });

  it('future with a past or too-near date → exit 2 and nothing sent, unless --allow-immediate', async () => {
    const { run } = await setup();
    const before = wp.posts.length;
    const soon = new Date(Date.now() + 20_000).toISOString();
    for (const date of ['2020-01-01T10:00:00Z', soon]) {
      const res = await run([
        'wp',
        'publish',
        '--site',
        'blog',
        '--title',
        `Not future ${date}`,
        '--content',
        'x',
        '--status',
        'future',
        '--date',
        date,
      ]);
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(
        /^error: --status future needs a date at least 60 s ahead; --date .* UTC (is in the past|is only \d+ s ahead): WordPress publishes a "future" post .* at once \(status publish\) \(--allow-immediate publishes it now anyway\)/,
      );
    }
    expect(wp.posts.length).toBe(before);

    const forced = await run([
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Past future, forced',
      '--content',
      'x',
      '--status',
      'future',
      '--date',
      '2020-01-01T10:00:00Z',
      '--allow-immediate',
      '--json',
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/is in the past: WordPress publishes a "future" post/);
    expect((JSON.parse(forced.stdout) as object[])[0]).toMatchObject({
      status: 'publish',
      requestedStatus: 'future',
    });
    expect(lastPost()).toMatchObject({ title: 'Past future, forced', status: 'publish' });
  });
});

describe('a service answering {success, postUrl, postId} without the status', () => {
  let bare: BareAltService;
  let faults: FaultServer;
  beforeAll(async () => {
    [bare, faults] = await Promise.all([startBareAltService(), startFaultServer({ publishShape: 'alt' })]);
  });
  afterAll(async () => {
    expect(bare.unexpected).toEqual([]);
    await Promise.all([bare.close(), faults.close()]);
  });

  /** The site profile "blog" (the fake WordPress) with `service` as the service. */
  async function setupWith(service: string): Promise<Setup> {
    const { dir } = await setup();
    const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: service, BLOGCTL_API_KEY: sandbox.apiKey };
    const run = (args: string[], input?: string): Promise<CliResult> =>
      runInProcess(args, { env, cwd: dir, ...(input !== undefined && { input }) });
    return { dir, env, run };
  }

  it('reads the status back from WordPress: reported, and the change from the status asked for warned', async () => {
    const { run } = await setupWith(bare.url);
    const later = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const args = [
      'wp',
      'publish',
      '--site',
      'blog',
      '--content',
      'x',
      '--status',
      'publish',
      '--date',
      later,
    ];
    const res = await run([...args, '--title', 'Bare answer']);
    expect(res.code, res.stderr).toBe(0);
    expect(bare.answers.at(-1)).toEqual({
      success: true,
      postUrl: expect.any(String),
      postId: String(lastPost().id),
    });
    expect(res.stdout).toMatch(/^status: {4}future$/m);
    expect(res.stdout).toMatch(/^type: {6}post$/m);
    expect(res.stderr).toMatch(/WordPress schedules the post \(status future\)/);
    expect(res.stderr).not.toContain('as asked');
    const read = wp.requests.at(-1)!;
    expect(read.method).toBe('GET');
    expect(read.url).toMatch(new RegExp(`/wp-json/wp/v2/posts/${lastPost().id}\\?context=edit$`));

    const json = await run([...args, '--title', 'Bare answer, JSON', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as object[])[0]).toMatchObject({
      published: true,
      id: String(lastPost().id),
      status: 'future',
      type: 'post',
      requestedStatus: 'publish',
    });
    for (const r of [res, json]) expect(r.stdout + r.stderr).not.toContain(wp.password);
  });

  it('a post that cannot be read back: status "unknown" said plainly, and why', async () => {
    // The fault server answers {success, postUrl, postId: 42}; the fake WordPress has no post 42 (404).
    const { run } = await setupWith(faults.url);
    const args = ['wp', 'publish', '--site', 'blog', '--title', 'Unreadable', '--content', 'x'];
    const res = await run([...args, '--status', 'publish']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(
      'action:    created\nid:        42\nlink:      https://wp.example/?p=42\nstatus:    unknown\ntype:      unknown\n',
    );
    expect(res.stderr).toMatch(
      /^warning: the service did not say which status and type WordPress gave post 42, and reading it back from WordPress failed \(read WordPress post 42 failed: HTTP 404 .*Invalid post ID\.\): status and type unknown$/m,
    );
    const json = await run([...args, '--status', 'draft', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as object[])[0]).toMatchObject({
      published: true,
      id: '42',
      status: null,
      type: null,
    });
    // A post with a source: WordPress has no post 42, so it was never published (exit 6, naming it).
    const keyed = await run([...args, '--status', 'draft', '--key', 'unreadable-json', '--json']);
    expect(keyed.code).toBe(6);
    expect(keyed.stderr).toMatch(/^error: the service answered with post 42, which does not exist on /m);
    for (const r of [res, json]) expect(r.stdout + r.stderr).not.toContain(wp.password);
  });
});
