// Pages in the sync, in-process against the sandbox relaying to a fake WordPress that has pages beside posts
// (its wp/v2/types lists the hierarchical `page`; wp/v2/pages answers as WordPress's posts controller does):
// an editor's change of a page's parent or menu_order is drift (reported, kept, a conflict when the source
// changed it too); a changed `type:` is refused at its line; a page whose source is gone is an orphan even in
// a run with no page in it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import {
  startFakeWordPress,
  type FakePost,
  type FakeWordPress,
  type FakeWordPressOptions,
} from '../helpers/fake-wordpress.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('pages', { fakeWordPress: false });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

interface Row {
  source: string;
  action: string;
  id: string;
  type?: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
const writes = (wp: FakeWordPress): number => wp.requests.filter((r) => r.method !== 'GET').length;

async function setup(options: FakeWordPressOptions = {}): Promise<{
  dir: string;
  wp: FakeWordPress;
  publish: (...extra: string[]) => Promise<CliResult>;
}> {
  const wp = await startFakeWordPress({ pages: true, ...options });
  closers.push(() => wp.close());
  const run = await world.runner({ wp });
  const dir = mkdtempSync(join(world.home, 'pages-'));
  // A project: its runs hold every source of its namespace, so they look for orphans.
  writeFileSync(join(dir, 'blogctl.yml'), `site: blog\nnamespace: ${dir.split('/').pop()!.toLowerCase()}\n`);
  return {
    dir,
    wp,
    publish: (...extra) => run(['wp', 'publish', '--site', 'blog', dir, '--json', ...extra]),
  };
}

const page = (key: string, title: string, front = ''): string =>
  `---\nkey: ${key}\ntype: page\n${front}---\n# ${title}\n\nThe body of ${title}.\n`;

describe("a page's parent and menu_order (drift)", () => {
  it("an editor's change is reported and kept; changed in the source too, a conflict unless --force", async () => {
    const { dir, wp, publish } = await setup();
    writeFileSync(join(dir, 'about.md'), page('about', 'About'));
    writeFileSync(join(dir, 'team.md'), page('team', 'Team', 'parent: about\nmenu_order: 2\n'));
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const about = wp.posts.find((p) => p.title === 'About') as FakePost;
    const team = wp.posts.find((p) => p.title === 'Team') as FakePost;
    expect(team).toMatchObject({ type: 'page', parent: about.id, menu_order: 2 });
    expect((await publish('--dry-run', '--exit-code')).code).toBe(0);

    // An editor moves the page to the top level and changes its order in WordPress.
    team['parent'] = 0;
    team['menu_order'] = 5;
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code).toBe(8);
    expect(rows(plan).find((r) => r.source.endsWith('team.md'))).toMatchObject({
      action: 'unchanged',
      edited: ['parent', 'menu_order'],
    });
    const before = writes(wp);
    const kept = await publish();
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toMatch(
      /was edited on the site \(parent, menu_order\): kept as the editor left them/,
    );
    expect(writes(wp)).toBe(before);
    expect(team).toMatchObject({ parent: 0, menu_order: 5 });

    // The source changes the order too: a conflict, nothing sent; --force sends the source's.
    writeFileSync(join(dir, 'team.md'), page('team', 'Team', 'parent: about\nmenu_order: 3\n'));
    const conflict = await publish('--dry-run');
    expect(conflict.code).toBe(6);
    expect((await publish()).code).toBe(6);
    expect(rows(conflict).find((r) => r.source.endsWith('team.md'))).toMatchObject({
      action: 'conflict',
      edited: ['menu_order'],
    });
    expect(team['menu_order']).toBe(5);
    const forced = await publish('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(team).toMatchObject({ parent: 0, menu_order: 3 });
    expect(rows(forced).find((r) => r.source.endsWith('team.md'))).toMatchObject({
      action: 'updated',
      fields: ['menu_order'],
      edited: ['parent'],
    });
  });
});

describe('a changed type', () => {
  it('is refused at its line (exit 2), nothing sent: WordPress cannot change a post type through REST', async () => {
    const { dir, wp, publish } = await setup();
    const file = join(dir, 'about.md');
    writeFileSync(file, page('about', 'About'));
    expect((await publish()).code).toBe(0);
    const before = writes(wp);
    writeFileSync(file, page('about', 'About').replace('type: page', 'type: post'));
    const res = await publish();
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/about\.md:3: type: its post on the site \(\d+\) is a page/);
    expect(res.stderr).toContain('nothing was published');
    expect(writes(wp)).toBe(before);
  });
});

describe('orphans of other types', () => {
  it('a page whose source is gone is found in a run holding posts only', async () => {
    const { dir, wp, publish } = await setup();
    mkdirSync(join(dir, 'pages'));
    writeFileSync(join(dir, 'pages', 'about.md'), page('about', 'About'));
    writeFileSync(join(dir, 'hello.md'), `---\nkey: hello\n---\n# Hello\n\nA post.\n`);
    expect((await publish()).code).toBe(0);
    rmSync(join(dir, 'pages'), { recursive: true });
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code, plan.stderr).toBe(8);
    const about = wp.posts.find((p) => p.title === 'About')!;
    expect(plan.stderr).toMatch(new RegExp(`orphan.*${about.id}|${about.id}.*orphan`, 's'));
    const pruned = await publish('--prune');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(about.status).toBe('trash');
  });

  it("a page made by hand holding a new post's slug is no conflict: slugs are unique within a type", async () => {
    const { dir, wp, publish } = await setup();
    wp.posts.push({
      id: 900,
      type: 'page',
      status: 'publish',
      slug: 'about',
      title: 'About',
      content: '<p>x</p>',
    });
    writeFileSync(join(dir, 'about.md'), `---\nkey: about-post\nstatus: publish\n---\n# About\n\nA post.\n`);
    const res = await publish();
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'created' });
  });

  it("a type the site lists whose route refuses the account (or is gone) is left out of a project's look-up", async () => {
    const { dir, wp, publish } = await setup({
      moreTypes: { secret: { slug: 'secret', rest_base: 'secrets', hierarchical: false, taxonomies: [] } },
    });
    writeFileSync(join(dir, 'hello.md'), `---\nkey: hello\n---\n# Hello\n\nA post.\n`);
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(wp.unexpected.length).toBeGreaterThan(0);
    expect(wp.unexpected.every((r) => r.url.includes('/wp/v2/secrets'))).toBe(true);
    expect((await publish('--dry-run', '--exit-code')).code).toBe(0);
  });
});

describe('a site that does not list its post types', () => {
  it('(404 or 403 at wp/v2/types, a security plugin) still publishes a project: a warning names what goes unseen', async () => {
    for (const status of [404, 403]) {
      const { dir, wp, publish } = await setup({
        serve: (_req, url, res) => {
          if (!url.pathname.endsWith('/wp/v2/types')) return false;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ code: status === 404 ? 'rest_no_route' : 'rest_forbidden', message: 'No.' }),
          );
          return true;
        },
      });
      writeFileSync(join(dir, 'hello.md'), `---\nkey: hello\n---\n# Hello\n\nA post.\n`);
      const first = await publish();
      expect(first.code, first.stderr).toBe(0);
      expect(rows(first)[0]).toMatchObject({ action: 'created' });
      expect(first.stderr).toMatch(/does not list its post types .*orphans are looked for among posts/);
      expect(wp.posts).toHaveLength(1);
      const again = await publish('--dry-run', '--exit-code');
      expect(again.code, again.stderr).toBe(0);
    }
  });
});

describe("a page's SEO fields", () => {
  it("Rank Math: written through updateMeta and read back at the page's own route, then tracked for drift", async () => {
    const { dir, wp, publish } = await setup({
      namespaces: ['wp/v2', 'rankmath/v1'],
      registeredMeta: ['rank_math_title', 'rank_math_description'],
      seoRoutes: 'rankmath',
    });
    writeFileSync(join(dir, 'about.md'), page('about', 'About', 'seo:\n  title: About us\n'));
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('SEO fields written to Rank Math: title');
    const about = wp.posts.find((p) => p.title === 'About')!;
    expect(wp.requests.some((r) => r.url.includes(`/wp/v2/pages/${about.id}?`))).toBe(true);
    (about['meta'] as Record<string, unknown>)['rank_math_title'] = 'Edited';
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code, plan.stderr).toBe(8);
    expect(rows(plan)[0]).toMatchObject({ action: 'unchanged', edited: ['seo_title'] });
  });
});
