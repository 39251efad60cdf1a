// `wp pull` in-process against a fake WordPress: files written once and never overwritten without --force,
// a file that differs reported, --adopt making the next publish plan every file unchanged, another source's
// post left out, and no project refused.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('pull');

const seed = (id: number, fields: Record<string, unknown>): void => {
  world.wp.posts.push({
    id,
    status: 'publish',
    slug: `post-${id}`,
    title: `Post ${id}`,
    content: `<p>Body of ${id}</p>`,
    date: '2025-05-01T10:00:00',
    date_gmt: '2025-05-01T10:00:00',
    modified: '2025-05-02T10:00:00',
    categories: [1],
    author: 1,
    ...fields,
  });
};

async function project(): Promise<{ dir: string; run: (args: string[]) => Promise<CliResult> }> {
  const run = await world.runner();
  const dir = newProject(world.home, 'site: blog\nnamespace: pulled\nsources: [posts]\n', []);
  process.chdir(dir);
  return { dir, run };
}

describe('wp pull', () => {
  it('finds the stored profile of a project that names its site by URL and username, as wp publish does', async () => {
    world.wp.posts.length = 0;
    seed(9101, {});
    const run = await world.runner();
    const dir = newProject(
      world.home,
      `site:\n  url: ${world.wp.url}\n  username: ${world.wp.username}\nnamespace: by-url\nsources: [posts]\n`,
      [],
    );
    process.chdir(dir);
    // No BLOGCTL_WP_PASSWORD and no --password-stdin: the password is the stored profile's.
    const res = await run(['wp', 'pull', '--adopt', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject([{ id: '9101', action: 'created', adopted: true }]);
  });

  it('writes each post once; a differing file is reported and left; --force takes the site', async () => {
    world.wp.posts.length = 0;
    seed(9001, { excerpt: 'Short' });
    seed(9002, { status: 'draft', slug: '', date_gmt: null, modified: '2025-05-01T10:00:00' });
    const { dir, run } = await project();
    const first = await run(['wp', 'pull', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject([
      { file: 'posts/post-9001.md', action: 'created', id: '9001', status: 'publish', adopted: false },
      { file: 'posts/post-9002.md', action: 'created', id: '9002', status: 'draft' },
    ]);
    expect(readFileSync(join(dir, 'posts/post-9001.md'), 'utf8')).toBe(
      '---\ntitle: "Post 9001"\nslug: "post-9001"\nstatus: "publish"\ndate: "2025-05-01T10:00:00"\nexcerpt: "Short"\ncategories: ["Uncategorized"]\nauthor: 1\nkey: "wp-9001"\n---\n\nBody of 9001\n',
    );
    expect(readFileSync(join(dir, 'posts/post-9002.md'), 'utf8')).not.toContain('date:');

    const again = await run(['wp', 'pull', '--json']);
    expect(JSON.parse(again.stdout).map((r: { action: string }) => r.action)).toEqual([
      'unchanged',
      'unchanged',
    ]);

    // Edited on the site: reported, the file left.
    world.wp.posts[0]!.title = 'Retitled on the site';
    const edited = await run(['wp', 'pull', '--json']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout)[0]).toMatchObject({ action: 'differs' });
    expect(edited.stderr).toContain('posts/post-9001.md: the file and the post differ');
    expect(readFileSync(join(dir, 'posts/post-9001.md'), 'utf8')).toContain('title: "Post 9001"');
    const forced = await run(['wp', 'pull', '--force', '--json']);
    expect(JSON.parse(forced.stdout)[0]).toMatchObject({ action: 'updated' });
    expect(readFileSync(join(dir, 'posts/post-9001.md'), 'utf8')).toContain('title: "Retitled on the site"');
    expect(readdirSync(join(dir, 'posts'))).toEqual(['post-9001.md', 'post-9002.md']);
  });

  it('--adopt: the post carries the file’s identity and the next publish plans it unchanged', async () => {
    world.wp.posts.length = 0;
    seed(9101, { tags: [] });
    seed(9102, {
      content:
        '<p>Already someone else’s</p>\n<!-- blogctl:v1 ns=0123456789abcdef key=0123456789abcdef01234567 sums=title.01234567 -->',
    });
    const { dir, run } = await project();
    const res = await run(['wp', 'pull', '--adopt', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject([{ file: 'posts/post-9101.md', adopted: true }]);
    expect(res.stderr).toMatch(/1 post left out: published by blogctl from another source/);
    const stored = String(world.wp.posts[0]!['content']);
    expect(stored).toContain('<!-- blogctl:v1 ');
    expect(stored.replace(/<!-- blogctl:v1 [^>]*-->/, '')).toBe('<p>Body of 9101</p>');
    const plan = await run([
      'wp',
      'publish',
      'posts',
      '--site',
      'blog',
      '--dry-run',
      '--exit-code',
      '--json',
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject([{ source: 'posts/post-9101.md', action: 'unchanged' }]);
    writeFileSync(
      join(dir, 'posts/post-9101.md'),
      readFileSync(join(dir, 'posts/post-9101.md'), 'utf8').replace('Body of 9101', 'New body'),
    );
    const one = await run(['wp', 'publish', 'posts', '--site', 'blog', '--dry-run', '--exit-code', '--json']);
    expect(one.code).toBe(8);
    expect(JSON.parse(one.stdout)).toMatchObject([{ action: 'update', fields: ['content'] }]);
  });

  it('an account that cannot see other users\u2019 posts is refused before any file is written (exit 4)', async () => {
    const author = await startFakeWordPress({ role: 'author' });
    try {
      const run = await world.runner({ wp: author, profile: 'author' });
      const dir = newProject(world.home, 'site: author\nnamespace: pulled\n', []);
      const res = await run(['wp', 'pull'], { cwd: dir });
      expect(res.code).toBe(4);
      expect(res.stderr).toMatch(/cannot see other users' posts .*edit_others_posts .*nothing was written/);
      expect(readdirSync(dir)).toEqual(['blogctl.yml']);
    } finally {
      await author.close();
    }
  });

  it('a symbolic link in the way (a dangling posts/welcome.md, a linked posts/): exit 2 naming it, nothing written', async () => {
    world.wp.posts.length = 0;
    seed(9201, { slug: 'first' });
    seed(9202, { slug: 'welcome' });
    const { dir, run } = await project();
    const aim = join(world.home, `profile-${Date.now()}`);
    mkdirSync(join(dir, 'posts'));
    symlinkSync(aim, join(dir, 'posts', 'welcome.md'));
    const res = await run(['wp', 'pull']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('posts/welcome.md is a symbolic link');
    expect(existsSync(aim)).toBe(false);
    // Checked before the first write: the other post's file is not written either.
    expect(readdirSync(join(dir, 'posts'))).toEqual(['welcome.md']);

    const linked = await project();
    const elsewhere = mkdtempSync(join(world.home, 'elsewhere-'));
    symlinkSync(elsewhere, join(linked.dir, 'posts'));
    const through = await linked.run(['wp', 'pull']);
    expect(through.code).toBe(2);
    expect(through.stderr).toContain('posts is a symbolic link');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a project whose first source is outside it (sources: [../x]) is refused as `wp pull ../x` is', async () => {
    world.wp.posts.length = 0;
    seed(9301, {});
    const run = await world.runner();
    const dir = newProject(world.home, 'site: blog\nnamespace: pulled\nsources: [../outside-posts]\n', []);
    process.chdir(dir);
    const res = await run(['wp', 'pull']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('sources: ../outside-posts is outside the project');
    expect(existsSync(join(dir, '..', 'outside-posts'))).toBe(false);
  });

  it('--force never replaces a file that is not the post’s own (an unrelated <slug>-<id>.md)', async () => {
    world.wp.posts.length = 0;
    seed(9401, { slug: 'news' });
    const { dir, run } = await project();
    mkdirSync(join(dir, 'posts'));
    writeFileSync(join(dir, 'posts', 'news.md'), 'a person’s own news.md');
    writeFileSync(join(dir, 'posts', 'news-9401.md'), 'an unrelated file');
    const res = await run(['wp', 'pull', '--force', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject([{ file: 'posts/news-9401-2.md', action: 'created' }]);
    expect(readFileSync(join(dir, 'posts', 'news.md'), 'utf8')).toBe('a person’s own news.md');
    expect(readFileSync(join(dir, 'posts', 'news-9401.md'), 'utf8')).toBe('an unrelated file');
  });

  it('a post whose companion-plugin state (meta) names another source is left out, its marker stripped or not', async () => {
    world.wp.posts.length = 0;
    seed(9601, {
      meta: {
        _blogctl_state: JSON.stringify({
          v: 1,
          ns: '0123456789abcdef',
          key: '0123456789abcdef01234567',
          sums: {},
        }),
      },
    });
    seed(9602, {});
    const { run } = await project();
    const res = await run(['wp', 'pull', '--adopt', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject([{ id: '9602', action: 'created' }]);
    expect(res.stderr).toMatch(/1 post left out: published by blogctl from another source/);
    expect(String(world.wp.posts[0]!['content'])).toBe('<p>Body of 9601</p>');
  });

  it('a title with line and paragraph separators (U+2028, U+2029) pulls to one file, again and again, and publishes back unchanged', async () => {
    world.wp.posts.length = 0;
    seed(9501, { title: 'One\u2028two\u2029three', slug: 'one-two' });
    const { dir, run } = await project();
    const first = await run(['wp', 'pull', '--adopt', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject([{ file: 'posts/one-two.md', action: 'created' }]);
    const again = await run(['wp', 'pull', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject([{ file: 'posts/one-two.md', action: 'unchanged' }]);
    expect(readdirSync(join(dir, 'posts'))).toEqual(['one-two.md']);
    const plan = await run(['wp', 'publish', '--site', 'blog', '--dry-run', '--exit-code', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject([{ source: 'posts/one-two.md', action: 'unchanged' }]);
  });

  it('is refused outside a project, naming what to run', async () => {
    const outside = mkdtempSync(join(world.home, 'none-'));
    mkdirSync(join(outside, 'x'));
    process.chdir(join(outside, 'x'));
    const res = await runInProcess(['wp', 'pull'], { env: { BLOGCTL_CONFIG_DIR: tempConfigDir() } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/wp pull works inside a project.*wp init --site/s);
  });
});
