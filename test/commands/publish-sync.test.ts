// Publishing in step with the site, in-process against the sandbox relaying to a fake WordPress: what a
// later run does with a source already published — a scheduled post whose date has passed, a folder with a
// symlink loop, two sources asking for one slug, an update that leaves an editor's work alone.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stripMarker } from '../../src/publishing/identity.js';
import { createFlags, type CliResult } from '../helpers/cli.js';
import type { FakePost } from '../helpers/fake-wordpress.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { syncWorld, type Run } from '../helpers/sync-project.js';

guardStrayOutput();

// A 1×1 PNG; WordPress (and the fake) only need the bytes and the name.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const world = syncWorld('sync');
// A file's source is its path relative to its project's root: `home` is a project. The tests run there too,
// so a post without a file (--from-blog, --key) is the project's as well.
beforeAll(() => writeFileSync(join(world.home, 'blogctl.yml'), 'namespace: sync-tests\n'));
beforeEach(() => process.chdir(world.home));

/** A fresh config dir (a new CI runner) with the site profile "blog"; `dir` is a new folder under `home`. */
async function setup(): Promise<{ dir: string; run: Run }> {
  const run = await world.runner();
  const dir = mkdtempSync(join(world.home, 'posts-')).slice(world.home.length + 1);
  return { dir, run };
}

const rows = (res: CliResult): { source: string; action: string; id: string; fields?: string[] }[] =>
  JSON.parse(res.stdout) as { source: string; action: string; id: string; fields?: string[] }[];
const postById = (id: string | number): FakePost => world.wp.posts.find((p) => p.id === Number(id))!;

describe('a scheduled post whose date has passed', () => {
  it('is left alone by later runs (exit 0); only sending its date or status again is refused', async () => {
    const { dir, run } = await setup();
    // Published once while its date was ahead; --allow-immediate stands in for the clock having moved on.
    writeFileSync(join(dir, 'gmt.md'), '---\nstatus: future\ndate: 2020-01-01T10:00:00Z\n---\n# Due\n\nA.\n');
    writeFileSync(
      join(dir, 'local.md'),
      '---\nstatus: future\ndate: 2020-01-01T10:00:00\n---\n# Due too\n\nB.\n',
    );
    writeFileSync(join(dir, 'other.md'), '# Other\n\nC.\n');
    const first = await run(['wp', 'publish', '--site', 'blog', dir, '--allow-immediate', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first).map((r) => r.action)).toEqual(['created', 'created', 'created']);

    const sent = world.wp.requests.length;
    for (const extra of [['--dry-run'], []]) {
      const again = await run(['wp', 'publish', '--site', 'blog', dir, '--json', ...extra]);
      expect(again.code, again.stderr).toBe(0);
      expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    }
    expect(world.wp.requests.slice(sent).filter((r) => r.method !== 'GET')).toEqual([]);

    // Another field changed: updated, its date and status not sent.
    writeFileSync(
      join(dir, 'gmt.md'),
      '---\nstatus: future\ndate: 2020-01-01T10:00:00Z\n---\n# Due, renamed\n\nA.\n',
    );
    const retitled = await run(['wp', 'publish', '--site', 'blog', dir, '--json']);
    expect(retitled.code, retitled.stderr).toBe(0);
    expect(rows(retitled)[0]).toMatchObject({ action: 'updated', fields: ['title'] });
    expect(world.wp.updates.at(-1)!.fields).not.toContain('date_gmt');

    // A new past date would be sent: refused before anything is, as for a new post (dry run too).
    writeFileSync(
      join(dir, 'local.md'),
      '---\nstatus: future\ndate: 2020-02-01T10:00:00\n---\n# Due too\n\nB.\n',
    );
    const before = world.wp.requests.filter((r) => r.method !== 'GET').length;
    for (const extra of [['--dry-run'], []]) {
      const moved = await run(['wp', 'publish', '--site', 'blog', dir, ...extra]);
      expect(moved.code).toBe(2);
      expect(moved.stderr).toMatch(
        /^error: .*local\.md: --status future needs a date at least 60 s ahead; .*is in the past.*; nothing was published$/m,
      );
    }
    expect(world.wp.requests.filter((r) => r.method !== 'GET').length).toBe(before);
    // --no-update leaves it: nothing would be sent.
    const left = await run(['wp', 'publish', '--site', 'blog', dir, '--no-update', '--json']);
    expect(left.code, left.stderr).toBe(0);
    expect(rows(left).map((r) => r.action)).toEqual(['unchanged', 'changed', 'unchanged']);
  });
});

describe('a generated blog as a Markdown file', () => {
  it('blog create --publish … --save: the file carries the key and post flags used; publishing it is unchanged', async () => {
    const { dir, run } = await setup();
    const file = join(dir, 'saved.md');
    writeFileSync(join(dir, 'cover.png'), PNG);
    const created = await run([
      'blog',
      'create',
      ...createFlags('cold brew'),
      '--publish',
      'blog',
      '--key',
      'cold-brew',
      '--status',
      'publish',
      '--date',
      '2024-03-01T08:00:00Z',
      '--wp-category',
      'Coffee',
      '--tag',
      'brew,cold',
      '--post-meta',
      'blogctl_source=ci',
      '--comment-status',
      'closed',
      '--featured-image',
      join(dir, 'cover.png'),
      '--create-terms',
      '--save',
      file,
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { publish } = JSON.parse(created.stdout) as { publish: { id: string } };
    expect(created.stderr).toContain(`publish it with \`blogctl wp publish --site blog ${file}\``);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('key: "cold-brew"\n');
    expect(text).toContain('status: "publish"\n');
    expect(text).toContain('featured_image: "cover.png"\n');

    const sent = world.wp.requests.filter((r) => r.method !== 'GET').length;
    const again = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: publish.id });
    expect(world.wp.requests.filter((r) => r.method !== 'GET').length).toBe(sent);
  });

  it('blog create --save without --publish: the post flags and --key go into the file, and wp publish uses them', async () => {
    const { dir, run } = await setup();
    const file = join(dir, 'later.md');
    const created = await run([
      'blog',
      'create',
      ...createFlags('iced latte'),
      '--key',
      'iced-latte',
      '--status',
      'publish',
      '--wp-category',
      'Coffee',
      '--no-sticky',
      '--save',
      file,
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain("its post is the blog's (--key iced-latte)");
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('key: "iced-latte"\n');
    expect(text).toContain('status: "publish"\n');
    expect(text).toContain('sticky: false\n');

    const published = await run(['wp', 'publish', '--site', 'blog', file, '--create-terms', '--json']);
    expect(published.code, published.stderr).toBe(0);
    expect(rows(published)[0]).toMatchObject({ action: 'created' });
    const post = postById(rows(published)[0]!.id);
    expect(post['status']).toBe('publish');
    const again = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: String(post.id) });
    // Its identity is the key, not the blog: another file with that key is the same post.
    writeFileSync(
      join(dir, 'other.md'),
      '---\nkey: iced-latte\nstatus: publish\n---\n# Iced, retitled\n\nX.\n',
    );
    const same = await run(['wp', 'publish', '--site', 'blog', join(dir, 'other.md'), '--json']);
    expect(same.code, same.stderr).toBe(0);
    expect(rows(same)[0]).toMatchObject({ action: 'updated', id: String(post.id) });
  });

  it('blog create refuses a post flag without --publish (or --save), naming it, before generating', async () => {
    const { dir, run } = await setup();
    const generated = () => world.sandbox.logs.filter((l) => l.includes('/create-blog')).length;
    const before = generated();
    const cases: [string[], string][] = [
      [['--status', 'publish'], '--status applies only with --publish <site>, or with --save <file>'],
      [['--key', 'k1'], '--key applies only with --publish <site>, or with --save <file>'],
      [['--wp-category', 'Coffee'], '--wp-category applies only with --publish <site>'],
      [['--post-meta', 'a=1'], '--post-meta applies only with --publish <site>'],
      [['--no-sticky'], '--no-sticky applies only with --publish <site>'],
      [['--dry-run', '--date', '2030-01-01T00:00:00Z'], '--date applies only with --publish <site>'],
      // What a file does not keep needs --publish even with --save.
      [
        ['--save', join(dir, 'x.md'), '--create-terms'],
        '--create-terms applies only with --publish <site>: a --save file does not keep it',
      ],
      [['--save', join(dir, 'x.md'), '--post-password', 'pw'], '--post-password applies only with --publish'],
    ];
    for (const [extra, message] of cases) {
      const res = await run(['blog', 'create', ...createFlags('x'), ...extra]);
      expect(res.code, extra.join(' ')).toBe(2);
      expect(res.stderr).toContain(`error: ${message}`);
      expect(res.stderr).toContain('nothing was generated');
    }
    expect(generated()).toBe(before);
  });

  it("blog create --publish --key whose post is in WordPress's trash reports it trashed, as wp publish does", async () => {
    const { dir, run } = await setup();
    const create = ['blog', 'create', ...createFlags('french press'), '--publish', 'blog', '--key', 'press'];
    const first = await run([...create, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const { publish } = JSON.parse(first.stdout) as { publish: { id: string } };
    postById(publish.id).status = 'trash';

    const generated = () => world.sandbox.logs.filter((l) => l.includes('/create-blog')).length;
    const before = generated();
    const sent = world.wp.requests.filter((r) => r.method !== 'GET').length;
    const again = await run([...create, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      blog: null,
      publish: { action: 'trashed', published: false, id: publish.id, status: 'trash' },
    });
    expect(again.stderr).toContain(`--key press: its post ${publish.id} is in WordPress's trash: left there`);
    expect(again.stderr).not.toContain('already published');
    const dry = await run([...create, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(`post ${publish.id}, is in WordPress's trash and would be left there`);
    expect(generated()).toBe(before);
    expect(world.wp.requests.filter((r) => r.method !== 'GET').length).toBe(sent);

    // wp publish of a source with that key says the same.
    writeFileSync(join(dir, 'press.md'), '---\nkey: press\n---\n# Press\n\nX.\n');
    const file = await run(['wp', 'publish', '--site', 'blog', join(dir, 'press.md'), '--json']);
    expect(file.code, file.stderr).toBe(0);
    expect(rows(file)[0]).toMatchObject({ action: 'trashed', published: false, id: publish.id });
  });

  it("blog create's post flags are named as given in their errors", async () => {
    const { run } = await setup();
    const base = ['blog', 'create', ...createFlags('x'), '--publish', 'blog'];
    const meta = await run([...base, '--post-meta', 'nokey']);
    expect(meta.code).toBe(2);
    expect(meta.stderr).toMatch(/^error: --post-meta: /m);
    const category = await run([...base, '--wp-category', ',']);
    expect(category.code).toBe(2);
    expect(category.stderr).toMatch(/^error: --wp-category: /m);
  });

  it('blog show --markdown, published with wp publish, is the post wp publish --from-blog made', async () => {
    const { dir, run } = await setup();
    const created = await run(['blog', 'create', ...createFlags('moka pot'), '--json']);
    expect(created.code, created.stderr).toBe(0);
    const blog = JSON.parse(created.stdout) as { _id: string };
    const first = await run(['wp', 'publish', '--site', 'blog', '--from-blog', blog._id, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const { id } = (JSON.parse(first.stdout) as { id: string }[])[0]!;

    const shown = await run(['blog', 'show', blog._id, '--markdown']);
    writeFileSync(join(dir, 'moka.md'), shown.stdout);
    // Published without a file, the post is no project's: the project's file takes it (same id), once.
    const again = await run(['wp', 'publish', '--site', 'blog', dir, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'updated', id, fields: [] });
    const unchanged = await run(['wp', 'publish', '--site', 'blog', dir, '--json']);
    expect(rows(unchanged)[0]).toMatchObject({ action: 'unchanged', id });
    // The file edited: the same post, updated with the file's text.
    writeFileSync(join(dir, 'moka.md'), `${shown.stdout}\nOne more line.\n`);
    const edited = await run(['wp', 'publish', '--site', 'blog', dir, '--json']);
    expect(rows(edited)[0]).toMatchObject({ action: 'updated', id, fields: ['content'] });
    expect(stripMarker(String(postById(id)['content']))).toContain('<p>One more line.</p>');
  });
});

describe('folders', () => {
  it('a symlinked folder looping back is walked once: each file one source', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'a.md'), '# Looped\n\nA.\n');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.md'), '# Below\n\nB.\n');
    symlinkSync('.', join(dir, 'loop'));
    const res = await run(['wp', 'publish', '--site', 'blog', dir, join(dir, 'sub'), '--dry-run', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res).map((r) => [r.source, r.action])).toEqual([
      [`${dir}/a.md`, 'create'],
      [`${dir}/sub/b.md`, 'create'],
    ]);
  });

  it('two sources asking for one slug → exit 2 before anything is sent', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'a.md'), '---\nslug: one-slug\nkey: a\n---\n# A\n\nA.\n');
    writeFileSync(join(dir, 'b.md'), '---\nslug: one-slug\n---\n# B\n\nB.\n');
    const sent = world.wp.requests.length;
    for (const extra of [['--dry-run'], []]) {
      const res = await run(['wp', 'publish', '--site', 'blog', dir, ...extra]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(
        /^error: .*\/a\.md:2 and .*\/b\.md:2 ask for the same slug "one-slug": .*nothing was published$/m,
      );
    }
    expect(world.wp.requests.length).toBe(sent);
  });
});

describe("an update leaves an editor's work alone", () => {
  it("a title change keeps the site's body (only the marker replaced); an editor's password stays", async () => {
    const { dir, run } = await setup();
    const file = join(dir, 'kept.md');
    writeFileSync(file, '# Kept\n\nThe source body.\n');
    const first = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const post = postById(rows(first)[0]!.id);
    // An editor rewrites the body in WordPress, wrapping the marker in a block, and sets a password.
    const marker = /<!-- blogctl:v1 [^>]*-->/.exec(String(post['content']))![0];
    post['content'] =
      `<!-- wp:paragraph -->\n<p>The editor's body.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:html -->\n${marker}\n<!-- /wp:html -->`;
    post['password'] = 'editor-secret';

    const same = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(rows(same)[0]).toMatchObject({ action: 'unchanged' });

    writeFileSync(file, '# Kept, renamed\n\nThe source body.\n');
    const retitled = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(retitled.code, retitled.stderr).toBe(0);
    expect(rows(retitled)[0]).toMatchObject({ action: 'updated', fields: ['title'] });
    expect(world.wp.updates.at(-1)!.fields.sort()).toEqual(['content', 'title']);
    const content = String(post['content']);
    expect(content).toContain("<p>The editor's body.</p>");
    expect(content).not.toContain('The source body');
    expect(content).toMatch(/<!-- wp:html -->\n<!-- blogctl:v1 [^>]*-->\n<!-- \/wp:html -->$/);
    expect(content).not.toContain(marker);
    expect(post['password']).toBe('editor-secret');
    const after = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(rows(after)[0]).toMatchObject({ action: 'unchanged' });

    // The body changed in the source too: a conflict with the editor's body, nothing sent (exit 6) unless
    // --force; then the source's body is sent. A password in the source is managed.
    writeFileSync(file, '---\npassword: ""\n---\n# Kept, renamed\n\nThe source body, edited.\n');
    const refused = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toMatch(/post \d+ was edited on the site \(content\) and the source changed/);
    expect(String(post['content'])).toContain("<p>The editor's body.</p>");
    const edited = await run(['wp', 'publish', '--site', 'blog', file, '--json', '--force']);
    expect(rows(edited)[0]).toMatchObject({ action: 'updated', fields: ['content', 'password'] });
    expect(stripMarker(String(post['content']))).toContain('<p>The source body, edited.</p>');
    expect(post['password']).toBe('');
  });
});

describe('help', () => {
  it('says what identifies a post and what to do after a lost answer', async () => {
    const { run } = await setup();
    const flat = async (args: string[]): Promise<string> => {
      const res = await run([...args, '--help']);
      expect(res.code, res.stderr).toBe(0);
      return res.stdout.replace(/\s+/g, ' ');
    };
    const publish = await flat(['wp', 'publish']);
    expect(publish).toContain("a file's path relative to its project's root (blogctl.yml)");
    expect(publish).toContain('is simply run again, from any machine');
    expect(publish).toContain('the same Idempotency-Key');
    const create = await flat(['blog', 'create']);
    // blog create's help is kept short: what names the post, and where the rest is.
    expect(create).toContain('--key names the post: a repeat finds it and generates nothing');
    expect(create).toContain('docs/publishing.md');
    expect(create).toContain("the file's post is the blog's (as --from-blog, or --key)");
    expect(await flat(['blog', 'show'])).toContain(
      "the file's post is the blog's, the same as wp publish --from-blog <id>",
    );
  });
});
