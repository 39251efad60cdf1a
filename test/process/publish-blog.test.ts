// `blog create … --publish <site>`, the cron one-liner, end to end: generate with the sandbox, publish through
// its relay to a fake WordPress, with the same identity on the site and exit codes as `wp publish`. What can
// fail without generating fails before generating. The first test runs the built CLI as cron would; the
// others the command tree in-process (the profile is always added in-process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { stripMarker } from '../../src/publishing/identity.js';

guardStrayOutput();

const REQUIRED = createFlags();

let sandbox: TestSandbox;
let wp: FakeWordPress;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), wp.close()]);
});

async function setup(
  password = wp.password,
  how: 'in-process' | 'process' = 'in-process',
): Promise<(args: string[]) => Promise<CliResult>> {
  const env = {
    BLOGCTL_CONFIG_DIR: tempConfigDir(),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
  };
  // Stored unchecked: some tests store a password the site refuses on purpose.
  const add = await runInProcess(
    [
      'wp',
      'sites',
      'add',
      'blog',
      '--url',
      wp.url,
      '--username',
      wp.username,
      '--password-stdin',
      '--no-verify',
    ],
    { env, input: `${password}\n` },
  );
  expect(add.code).toBe(0);
  return (args) => (how === 'process' ? runCli(args, { env }) : runInProcess(args, { env }));
}

const generated = (): number => sandbox.logs.filter((l) => l.includes('/create-blog')).length;

describe('blog create --publish', () => {
  it('--json prints {blog, publish}; the post is the generated title and content', async () => {
    const run = await setup(wp.password, 'process');
    const res = await run([
      'blog',
      'create',
      ...REQUIRED,
      '--publish',
      'blog',
      '--status',
      'publish',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const { blog, publish } = JSON.parse(res.stdout);
    expect(blog._id).toMatch(/^[0-9a-f]{24}$/);
    expect(publish).toMatchObject({ action: 'created', published: true, status: 'publish', type: 'post' });
    const post = wp.posts.find((p) => String(p.id) === publish.id)!;
    expect(post).toMatchObject({ title: blog.title, status: 'publish' });
    expect(stripMarker(String(post['content']))).toBe(blog.content.trimEnd());
  });

  it("-q prints the link; --category is the blog's, --wp-category the post's; tags apply", async () => {
    const run = await setup();
    const res = await run([
      'blog',
      'create',
      ...REQUIRED,
      '--category',
      'Coffee Corner',
      '--publish',
      'blog',
      '--wp-category',
      'Coffee Corner',
      '--tag',
      'espresso',
      '--create-terms',
      '--status',
      'publish',
      '-q',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[a-z0-9-]+\/\n$/);
    const category = wp.terms.categories.find((t) => t.name === 'Coffee Corner')!;
    const tag = wp.terms.tags.find((t) => t.name === 'espresso')!;
    expect(wp.posts.at(-1)).toMatchObject({ categories: [category.id], tags: [tag.id] });
  });

  it('with --key: a second run (from another config dir) finds the post on the site, generating nothing', async () => {
    const run = await setup();
    const args = ['blog', 'create', ...REQUIRED, '--publish', 'blog', '--key', 'weekly-2026-48'];
    const first = await run([...args, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const before = generated();
    const posts = wp.posts.length;
    const second = await (await setup())([...args, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('nothing generated or sent');
    expect(JSON.parse(second.stdout)).toMatchObject({
      blog: null,
      publish: { action: 'unchanged', id: JSON.parse(first.stdout).publish.id },
    });
    expect(generated()).toBe(before);
    expect(wp.posts.length).toBe(posts);
  });

  it('fails before generating: an unknown category (exit 2), an unknown site (exit 5), future without a date', async () => {
    const run = await setup();
    const before = generated();
    const unknown = await run([
      'blog',
      'create',
      ...REQUIRED,
      '--publish',
      'blog',
      '--wp-category',
      'Nowhere',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown category: Nowhere');
    const noSite = await run(['blog', 'create', ...REQUIRED, '--publish', 'ghost']);
    expect(noSite.code).toBe(5);
    const future = await run(['blog', 'create', ...REQUIRED, '--publish', 'blog', '--status', 'future']);
    expect(future.code).toBe(2);
    // The site is read before generating: a refused password fails then (exit 4).
    const refused = await (
      await setup('wrong pass 0000 1111')
    )(['blog', 'create', ...REQUIRED, '--publish', 'blog']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(
      /^error: looking up which posts already exist on blog failed: .*nothing was published/m,
    );
    // --dry-run checks the same, sending nothing.
    const dry = await run([
      'blog',
      'create',
      ...REQUIRED,
      '--publish',
      'blog',
      '--wp-category',
      'Nowhere',
      '--dry-run',
    ]);
    expect(dry.code).toBe(2);
    const plan = await run(['blog', 'create', ...REQUIRED, '--publish', 'blog', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('create a new post from the generated blog');
    expect(generated()).toBe(before);
  });

  it('WordPress refuses: exit 6; the blog is still printed and the way to publish it later is shown', async () => {
    const run = await setup();
    // The fake WordPress, as the real one, refuses an author that does not exist (400 rest_invalid_author).
    const res = await run(['blog', 'create', ...REQUIRED, '--publish', 'blog', '--author', '999', '--json']);
    expect(res.code).toBe(6);
    const out = JSON.parse(res.stdout);
    expect(out.publish).toMatchObject({ published: false, exitCode: 6 });
    expect(res.stderr).toContain('WordPress did not publish the post');
    expect(res.stderr).toContain(`blogctl wp publish --site blog --from-blog ${out.blog._id} --author 999`);
  });
});
