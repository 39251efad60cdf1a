// A post's identity against real WordPress (pretty and plain permalinks), every run from a new, empty config
// dir: a project publishes the same posts from its root, from inside posts/ with `.`, and with no paths;
// two projects publishing posts/welcome.md to one site each keep their own post, the other's untouched; a
// source saved without its status never demotes its live post; the look-up asks for one namespace's posts
// and WordPress answers with stored fields only (nothing rendered); a date without a time is 00:00 on the
// site; a post published from flags inside a project is none of its orphans; sources named from the working
// folder.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markerSearch, nsHash } from '../../src/publishing/identity.js';
import { getPost, searchPosts, type WpPostDetail } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, newProject, siteClient, syncWorld } from '../helpers/sync-project.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-identity', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  status: string;
  fields?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe.each(instances)('identity = namespace + key ($permalinks permalinks)', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-id-${wp.permalinks}`;
  const reader = siteClient(adminLogin(wp));

  /** A project folder (this run's own namespace) whose blogctl.yml names the site by URL and username. */
  const project = (name: string, extra = ''): string =>
    newProject(
      world.home,
      `site:\n  url: ${wp.baseUrl}\n  username: ${wp.username}\nnamespace: ${tag}-${name}\n${extra}`,
    );
  /** A run from a new, empty config dir (a fresh CI runner, no site profile): the password from the environment. */
  const fresh = (args: string[], cwd: string): Promise<CliResult> =>
    freshRun(args, {
      service: world.sandbox,
      spawn: true,
      env: { BLOGCTL_WP_PASSWORD: wp.appPassword },
      cwd,
    });
  const ofNamespace = (name: string): Promise<WpPostDetail[]> =>
    searchPosts(reader, markerSearch(nsHash(`${tag}-${name}`)), 'e2e look-up');

  it('one post per source from the root, from posts/ with ".", and with no paths from deep inside', async () => {
    const root = project('cwd');
    await writeFile(join(root, 'posts', 'a.md'), `# A ${tag}\n\nBody A.\n`);
    await writeFile(join(root, 'posts', 'sub', 'b.md'), `# B ${tag}\n\nBody B.\n`);
    const first = await fresh(['wp', 'publish', '--json'], root);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first).map((r) => r.action)).toEqual(['created', 'created']);
    const ids = rows(first).map((r) => r.id);
    const dot = await fresh(['wp', 'publish', '.', '--json'], join(root, 'posts'));
    expect(dot.code, dot.stderr).toBe(0);
    expect(rows(dot).map((r) => [r.action, r.id])).toEqual([
      ['unchanged', ids[0]],
      ['unchanged', ids[1]],
    ]);
    const deep = await fresh(['wp', 'publish', '--json'], join(root, 'posts', 'sub'));
    expect(rows(deep).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    expect((await ofNamespace('cwd')).map((p) => String(p.id)).sort()).toEqual([...ids].sort());
  });

  it('a post published from flags inside the project is none of its orphans, never pruned, the same post from anywhere', async () => {
    const root = await project('flags');
    await writeFile(join(root, 'posts', 'a.md'), `# A ${tag}\n\nBody A.\n`);
    const daily = ['--title', `Daily ${tag}`, '--content', '<p>Today.</p>', '--key', `daily-${tag}`];
    const first = await fresh(['wp', 'publish', ...daily, '--json'], root);
    expect(first.code, first.stderr).toBe(0);
    const id = rows(first)[0]!.id;
    const whole = await fresh(['wp', 'publish', '--json'], root);
    expect(whole.code, whole.stderr).toBe(0);
    // Named from the folder the run started in, never by an absolute path.
    expect(rows(whole).map((r) => [r.source, r.action])).toEqual([['posts/a.md', 'created']]);
    expect(whole.stdout).not.toContain(root);
    const plan = await fresh(['wp', 'publish', '--dry-run', '--exit-code', '--json'], root);
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan).map((r) => r.action)).toEqual(['unchanged']);
    const pruned = await fresh(['wp', 'publish', '--prune', '--json'], root);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect((await getPost(reader, Number(id))).status).not.toBe('trash');
    expect(await ofNamespace('flags')).toHaveLength(1);
    const outside = await fresh(
      ['wp', 'publish', '--url', wp.baseUrl, '--username', wp.username, ...daily, '--json'],
      world.home,
    );
    expect(outside.code, outside.stderr).toBe(0);
    expect(rows(outside)[0]).toMatchObject({ action: 'unchanged', id });
  });

  it("two projects publishing posts/welcome.md to one site: each its own post, the other's untouched", async () => {
    const x = project('x');
    const y = project('y');
    await writeFile(join(x, 'posts', 'welcome.md'), `---\nstatus: publish\n---\n# X ${tag}\n\nX body.\n`);
    await writeFile(join(y, 'posts', 'welcome.md'), `---\nstatus: publish\n---\n# Y ${tag}\n\nY body.\n`);
    const fromX = await fresh(['wp', 'publish', '--json'], x);
    expect(fromX.code, fromX.stderr).toBe(0);
    const fromY = await fresh(['wp', 'publish', '--json'], y);
    expect(fromY.code, fromY.stderr).toBe(0);
    expect(rows(fromY)[0]).toMatchObject({ action: 'created' });
    expect(rows(fromY)[0]!.id).not.toBe(rows(fromX)[0]!.id);
    const xPost = await getPost(reader, Number(rows(fromX)[0]!.id));
    expect(xPost.title?.raw).toBe(`X ${tag}`);
    expect(xPost.content?.raw).toContain('X body.');
    expect(await ofNamespace('x')).toHaveLength(1);
    expect(await ofNamespace('y')).toHaveLength(1);
    const again = await fresh(['wp', 'publish', '--json'], x);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: rows(fromX)[0]!.id });
  });

  it('a source saved without its status never demotes its live post', async () => {
    const root = project('status');
    const file = join(root, 'posts', 'live.md');
    await writeFile(file, `---\nstatus: publish\n---\n# Live ${tag}\n\nBody.\n`);
    const first = await fresh(['wp', 'publish', '--json'], root);
    expect(rows(first)[0]).toMatchObject({ action: 'created', status: 'publish' });
    await writeFile(file, `# Live, retitled ${tag}\n\nBody.\n`);
    const res = await fresh(['wp', 'publish', '--json', '--exit-code'], root);
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'updated', fields: ['title'], status: 'publish' });
    const post = await getPost(reader, Number(rows(first)[0]!.id));
    expect(post.status).toBe('publish');
    expect(post.title?.raw).toBe(`Live, retitled ${tag}`);
  });

  it("the look-up's answer holds the stored fields only: nothing rendered", async () => {
    const root = project('fields');
    await writeFile(join(root, 'posts', 'one.md'), `# One ${tag}\n\nBody.\n`);
    const res = await fresh(['wp', 'publish', '--json'], root);
    expect(res.code, res.stderr).toBe(0);
    const [post] = await ofNamespace('fields');
    expect(post?.content?.raw).toContain('blogctl:v1 ns=');
    expect(post?.content?.rendered).toBeUndefined();
    expect(post?.title?.rendered).toBeUndefined();
    expect(post?.excerpt?.rendered).toBeUndefined();
    // Only the fields the look-up asks for (src/wordpress/posts.ts LOOKUP_FIELDS), none rendered.
    const asked = [
      'id',
      'status',
      'slug',
      'link',
      'type',
      'password',
      'author',
      'modified_gmt',
      'title',
      'content',
      'excerpt',
      'categories',
      'tags',
      'featured_media',
      'parent',
      'menu_order',
      'template',
      'meta',
    ];
    expect(Object.keys(post!).filter((k) => !asked.includes(k))).toEqual([]);
    expect(Object.keys(post!)).toEqual(
      expect.arrayContaining(['id', 'status', 'title', 'content', 'author']),
    );
  });

  it('a dry run fails where the real run would: an unknown tag, named at its file and line', async () => {
    const root = project('plan');
    await writeFile(join(root, 'posts', 'good.md'), `# Good ${tag}\n\nBody.\n`);
    await writeFile(
      join(root, 'posts', 'tagged.md'),
      `---\ntitle: Tagged ${tag}\ntags: [no-such-tag-${tag}]\n---\nBody.\n`,
    );
    const plan = await fresh(['wp', 'publish', '--dry-run'], root);
    const real = await fresh(['wp', 'publish'], root);
    for (const res of [plan, real]) {
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain('posts/tagged.md:3');
      expect(res.stderr).toContain(`no-such-tag-${tag}`);
      expect(res.stderr).toContain('nothing was published');
    }
    // An input error stops the whole run: not even the good file was published.
    expect(await ofNamespace('plan')).toEqual([]);
  });

  it('a date without a time is that day at 00:00 in the site’s time zone', async () => {
    const root = project('date');
    await writeFile(
      join(root, 'posts', 'eve.md'),
      `---\nstatus: future\ndate: 2030-12-24\n---\n# Eve ${tag}\n\nBody.\n`,
    );
    const res = await fresh(['wp', 'publish', '--json'], root);
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'created', status: 'future' });
    const post = await getPost(reader, Number(rows(res)[0]!.id));
    expect(post.date).toBe('2030-12-24T00:00:00');
  });
});
