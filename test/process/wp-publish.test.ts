// Process tests of `wp publish` as people write: terms by name (and --create-terms), featured images,
// Markdown with front matter, batches of files, schedules and the publish journal. The built CLI against
// the sandbox, relaying to a fake WordPress that also serves terms, media and users/me.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareAltService, type BareAltService } from '../helpers/bare-alt-service.js';
import { runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// A 1×1 PNG; WordPress (and the fake) only need the bytes and the name.
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

/** A fresh config dir with a site profile "blog" for the fake WordPress. */
async function setup(): Promise<Setup> {
  const dir = tempConfigDir();
  const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: sandbox.apiKey };
  const run = (args: string[], input?: string): Promise<CliResult> =>
    runCli(args, { env, cwd: dir, ...(input !== undefined && { input }) });
  const add = await run(
    ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    `${wp.password}\n`,
  );
  expect(add.code, add.stderr).toBe(0);
  return { dir, env, run };
}

const postsTitled = (title: string) => wp.posts.filter((p) => p.title === title);
const lastPost = () => wp.posts.at(-1)!;

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
      'error: unknown category: Espresso Gear (use --create-terms to create it); nothing was published\n',
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
    expect(post['content']).toBe('<p>A <strong>bold</strong> start.</p>\n');
    expect((post['tags'] as number[]).length).toBe(2);
    expect(JSON.parse(res.stdout)).toMatchObject({ published: true, link: `${wp.url}/espresso-at-home/` });
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
    expect(lastPost()['content']).toBe('<h2>Raw</h2>\n<p># not markdown</p>\n');
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

  it('publishes each file; a TSV summary when piped; the worst exit code; then the journal skips them', async () => {
    const { dir, run } = await setup();
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
    // FILE, OUTCOME, WP STATUS, ID, LINK, ERROR.
    expect(rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      [files[0], 'published', 'publish'],
      [files[1], 'failed', ''],
      [files[2], 'published', 'publish'],
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

    // Fix the failing file and run the same batch again: only it is sent.
    writeFileSync(join(dir, files[1]!), '# Batch two\n\nSecond, fixed.\n');
    const again = await run(['wp', 'publish', '--site', 'blog', ...files, '--status', 'publish', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const out = JSON.parse(again.stdout) as { file: string; outcome: string; alreadyPublished: boolean }[];
    expect(out.map((o) => o.outcome)).toEqual(['already published', 'published', 'already published']);
    expect(again.stderr.match(/already published to/g)).toHaveLength(2);
    expect(postsTitled('Batch one')).toHaveLength(1);
    expect(postsTitled('Batch two')).toHaveLength(1);
  });

  it('a file named twice, or by another spelling of its path, is one publish: sent once, every other mention answered with its outcome', async () => {
    const { dir, run } = await setup();
    mkdirSync(join(dir, 'dup'));
    writeFileSync(join(dir, 'dup', 'a.md'), '# Twice named\n\nOnce sent.\n');
    writeFileSync(join(dir, 'dup', 'b.md'), '# Named once\n\nB.\n');
    // WordPress refuses it (400 rest_invalid_author): the service says isPublished false.
    writeFileSync(join(dir, 'dup', 'bad.md'), '---\nauthor: 999\n---\n# Refused twice\n\nNo.\n');
    const sent = () => wp.requests.filter((r) => r.method === 'POST' && r.url.includes('wp/v2/posts')).length;
    const before = sent();
    const files = ['dup/a.md', 'dup/b.md', 'dup/a.md', './dup/../dup/a.md', 'dup/bad.md', 'dup/bad.md'];
    // Enough workers for every mention at once: each would miss the others in the journal.
    const res = await run(['wp', 'publish', '--site', 'blog', ...files, '--concurrency', '6', '--json']);
    expect(res.code, res.stderr).toBe(6);
    const rows = JSON.parse(res.stdout) as { file: string; outcome: string; id: string; error?: string }[];
    expect(rows.map((r) => [r.file, r.outcome])).toEqual([
      ['dup/a.md', 'published'],
      ['dup/b.md', 'published'],
      ['dup/a.md', 'already published'],
      ['./dup/../dup/a.md', 'already published'],
      ['dup/bad.md', 'failed'],
      ['dup/bad.md', 'failed'],
    ]);
    expect(rows[2]!.id).toBe(rows[0]!.id);
    expect(rows[3]!.id).toBe(rows[0]!.id);
    expect(rows[4]!.error).toContain('Invalid author ID');
    expect(rows[5]!.error).toBe(`not sent again: the same post as dup/bad.md: ${rows[4]!.error!}`);
    expect(res.stderr).toContain(
      `./dup/../dup/a.md: the same post as dup/a.md, named earlier in this run (post ${rows[0]!.id}); nothing sent again`,
    );
    expect(postsTitled('Twice named')).toHaveLength(1);
    // a.md, b.md and one try of bad.md reached WordPress.
    expect(sent() - before).toBe(3);

    // The next run finds a.md in the journal, for each mention; --force sends it again, once.
    const again = await run(['wp', 'publish', '--site', 'blog', 'dup/a.md', 'dup/a.md', '--force', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout) as { outcome: string; id: string }[];
    expect(second.map((r) => r.outcome)).toEqual(['published', 'already published']);
    expect(second[1]!.id).toBe(second[0]!.id);
    expect(postsTitled('Twice named')).toHaveLength(2);
  });

  it('a service that cannot be reached: the posts in flight fail, the rest are not attempted, nothing in doubt', async () => {
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
    const res = await runCli(
      ['--retries', '0', 'wp', 'publish', '--site', 'blog', ...files, '--concurrency', '2', '--json'],
      { env: { ...env, BLOGCTL_BASE_URL: `http://127.0.0.1:${port}` }, cwd: dir },
    );
    expect(res.code, res.stderr).toBe(7);
    const rows = JSON.parse(res.stdout) as { file: string; outcome: string; error: string }[];
    expect(rows.map((r) => r.outcome)).toEqual(Array(6).fill('failed'));
    // The two in flight met the refused connection; the four after them were not sent into it.
    expect(rows.slice(0, 2).map((r) => r.error)).toEqual(
      Array(2).fill(
        expect.stringMatching(/^publish to WordPress failed: cannot reach .*: connection refused$/),
      ),
    );
    expect(rows.slice(2).map((r) => r.error)).toEqual(
      Array(4).fill(expect.stringMatching(/^not attempted: publish to WordPress failed: cannot reach /)),
    );
    // Never sent: nothing is left in doubt, and the next run sends them all.
    expect(readFileSync(join(dir, 'in-doubt.jsonl'), 'utf8')).toBe('');
    expect(postsTitled('Down 1')).toHaveLength(0);
  });

  it('-q prints one link per post; per-post flags with several files → exit 2', async () => {
    const { dir, run } = await setup();
    mkdirSync(join(dir, 'q'));
    writeFileSync(join(dir, 'q', 'a.md'), '# Quiet a\n\nA.\n');
    writeFileSync(join(dir, 'q', 'b.html'), '<p>B</p>');
    const refused = await run(['wp', 'publish', '--site', 'blog', 'q/a.md', 'q/b.html', '--title', 'Same']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--title describes one post, but 2 files were given');
    const noTitle = await run(['wp', 'publish', '--site', 'blog', 'q/a.md', 'q/b.html']);
    expect(noTitle.code).toBe(2);
    expect(noTitle.stderr).toContain('q/b.html: invalid post: --title is required');

    // `--json` takes an optional value: a post file right after it is still a file.
    const json = await run(['wp', 'publish', '--site', 'blog', '--json', 'q/b.html', '--title', 'B page']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ file: 'q/b.html', outcome: 'published' }),
    ]);

    const quiet = await run(['wp', 'publish', '--site', 'blog', 'q/a.md', '-q']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?p=\d+\n$/);
  });
});

describe('the journal', () => {
  it('a second run reports "already published" (exit 0) without sending; --force publishes again', async () => {
    const { dir, run } = await setup();
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
    const firstOut = JSON.parse(first.stdout);
    const sent = sandbox.logs.filter((l) => l.includes('/integrations/wordpress/publish')).length;

    const second = await run(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`already published to ${wp.url} as post ${firstOut.id}`);
    expect(JSON.parse(second.stdout)).toMatchObject({
      published: true,
      alreadyPublished: true,
      id: firstOut.id,
      link: firstOut.link,
      publishedAt: expect.any(String),
    });
    expect(sandbox.logs.filter((l) => l.includes('/integrations/wordpress/publish')).length).toBe(sent);
    expect(postsTitled('Cron post')).toHaveLength(1);

    const forced = await run([...args, '--force']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).alreadyPublished).toBe(false);
    expect(postsTitled('Cron post')).toHaveLength(2);

    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      site: wp.url,
      siteId: 'blog',
      source: { kind: 'flags' },
      postId: Number(firstOut.id),
      link: firstOut.link,
      status: 'draft',
    });
  });

  it('--key makes different content the same publish', async () => {
    const { run } = await setup();
    const base = ['wp', 'publish', '--site', 'blog', '--key', 'weekly-48', '--content', '<p>x</p>'];
    expect((await run([...base, '--title', 'Keyed A'])).code).toBe(0);
    const again = await run([...base, '--title', 'Keyed B']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already published');
    expect(postsTitled('Keyed B')).toHaveLength(0);
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
    expect(res.stderr).toContain('WordPress gave the post status "future", not "publish" as asked');
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'future', requestedStatus: 'publish' });
    expect(lastPost()).toMatchObject({ title: 'Later', date_gmt: later.slice(0, 19) });
    expect(lastPost()['date']).toBe(later.slice(0, 19));
  });

  it('future without a date → exit 2, unless --force (then WordPress publishes it at once)', async () => {
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
    const forced = await run([...args, '--force', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ status: 'publish', requestedStatus: 'future' });
  });

  it('future with a past or too-near date → exit 2 and nothing sent, unless --force', async () => {
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
        /^error: --status future needs a date at least 60 s ahead; --date .* UTC (is in the past|is only \d+ s ahead): WordPress publishes a "future" post .* at once \(status publish\) \(--force publishes it now anyway\)/,
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
      '--force',
      '--json',
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/is in the past: WordPress publishes a "future" post/);
    expect(JSON.parse(forced.stdout)).toMatchObject({ status: 'publish', requestedStatus: 'future' });
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
      runCli(args, { env, cwd: dir, ...(input !== undefined && { input }) });
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
    expect(res.stderr).toContain('WordPress gave the post status "future", not "publish" as asked');
    const read = wp.requests.at(-1)!;
    expect(read.method).toBe('GET');
    expect(read.url).toMatch(new RegExp(`/wp-json/wp/v2/posts/${lastPost().id}\\?context=edit$`));

    const json = await run([...args, '--title', 'Bare answer, JSON', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
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
      'published: true\nid:        42\nlink:      https://wp.example/?p=42\nstatus:    unknown\ntype:      unknown\n',
    );
    expect(res.stderr).toMatch(
      /^warning: the service did not say which status and type WordPress gave post 42, and reading it back from WordPress failed \(read WordPress post 42 failed: HTTP 404 .*Invalid post ID\.\): status and type unknown$/m,
    );
    const json = await run([...args, '--status', 'draft', '--key', 'unreadable-json', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ published: true, id: '42', status: null, type: null });
    for (const r of [res, json]) expect(r.stdout + r.stderr).not.toContain(wp.password);
  });
});
