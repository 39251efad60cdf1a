// A post's identity against real WordPress (pretty and plain permalinks), every run from a new, empty config
// dir: a project publishes the same posts from its root, from inside posts/ with `.`, and with no paths;
// two projects publishing posts/welcome.md to one site each keep their own post, the other's untouched; a
// source saved without its status never demotes its live post; the look-up asks for one namespace's posts
// and WordPress answers with stored fields only (nothing rendered); a date without a time is 00:00 on the
// site; a post published from flags inside a project is none of its orphans; sources named from the working
// folder.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerSearch, nsHash } from '../../src/publishing/identity.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { getPost, searchPosts, type WpPostDetail } from '../../src/wordpress/posts.js';
import { runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
let sandbox: TestSandbox;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ wordpressTimeoutMs: 30_000 });
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-identity-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

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
  let reader: WordPressClient;

  /** A project folder (this run's own namespace) whose blogctl.yml names the site by URL and username. */
  async function project(name: string, extra = ''): Promise<string> {
    const root = await mkdtemp(join(work, `${name}-`));
    await mkdir(join(root, 'posts', 'sub'), { recursive: true });
    await writeFile(
      join(root, 'blogctl.yml'),
      `site:\n  url: ${wp.baseUrl}\n  username: ${wp.username}\nnamespace: ${tag}-${name}\n${extra}`,
    );
    return root;
  }
  /** A run from a new, empty config dir (a fresh CI runner, no site profile): the password from the environment. */
  const fresh = (args: string[], cwd: string): Promise<CliResult> =>
    runCli(['--base-url', sandbox.url, ...args], {
      env: {
        BLOGCTL_CONFIG_DIR: tempConfigDir(),
        BLOGCTL_API_KEY: sandbox.apiKey,
        BLOGCTL_WP_PASSWORD: wp.appPassword,
      },
      cwd,
      timeoutMs: 90_000,
    });
  const ofNamespace = (name: string): Promise<WpPostDetail[]> =>
    searchPosts(reader, markerSearch(nsHash(`${tag}-${name}`)), 'e2e look-up');

  beforeAll(() => {
    reader = new WordPressClient({
      websiteUrl: wp.baseUrl,
      username: wp.username,
      password: wp.appPassword,
    });
  });
  afterAll(async () => {
    await reader?.close();
  });

  it('one post per source from the root, from posts/ with ".", and with no paths from deep inside', async () => {
    const root = await project('cwd');
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
      work,
    );
    expect(outside.code, outside.stderr).toBe(0);
    expect(rows(outside)[0]).toMatchObject({ action: 'unchanged', id });
  });

  it("two projects publishing posts/welcome.md to one site: each its own post, the other's untouched", async () => {
    const x = await project('x');
    const y = await project('y');
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
    const root = await project('status');
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
    const root = await project('fields');
    await writeFile(join(root, 'posts', 'one.md'), `# One ${tag}\n\nBody.\n`);
    const res = await fresh(['wp', 'publish', '--json'], root);
    expect(res.code, res.stderr).toBe(0);
    const [post] = await ofNamespace('fields');
    expect(post?.content?.raw).toContain('blogctl:v1 ns=');
    expect(post?.content?.rendered).toBeUndefined();
    expect(post?.title?.rendered).toBeUndefined();
    expect(post?.excerpt?.rendered).toBeUndefined();
    expect(Object.keys(post!).sort()).toEqual(
      [
        'categories',
        'content',
        'excerpt',
        'featured_media',
        'id',
        'link',
        'password',
        'slug',
        'status',
        'tags',
        'title',
        'type',
      ].sort(),
    );
  });

  it('a date without a time is that day at 00:00 in the site’s time zone', async () => {
    const root = await project('date');
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
