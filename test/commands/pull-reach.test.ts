// `wp pull` of every type and of the SEO fields, in-process against a fake WordPress with pages beside posts
// and an SEO plugin's keys or route (AIOSEO's shaped from app/Common/Api/PostsTerms.php, as
// test/helpers/fake-wordpress.ts says): pages and posts pulled by default with their type, parent and
// menu_order; --type by name or REST base; `seo:` written from what the plugin stores; and pull --adopt then
// publish plans every file unchanged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import {
  startFakeWordPress,
  type FakeWordPress,
  type FakeWordPressOptions,
} from '../helpers/fake-wordpress.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('pull-reach', { fakeWordPress: false });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

const seed = (wp: FakeWordPress, id: number, fields: Record<string, unknown>): void => {
  wp.posts.push({
    id,
    status: 'publish',
    slug: `item-${id}`,
    title: `Item ${id}`,
    content: `<p>Body of ${id}</p>`,
    date: '2025-05-01T10:00:00',
    date_gmt: '2025-05-01T10:00:00',
    modified: '2025-05-02T10:00:00',
    author: 1,
    ...fields,
  });
};

async function site(options: FakeWordPressOptions): Promise<{
  wp: FakeWordPress;
  dir: string;
  run: (args: string[]) => Promise<CliResult>;
}> {
  const wp = await startFakeWordPress(options);
  closers.push(() => wp.close());
  const run = await world.runner({ wp });
  const dir = newProject(world.home, `site: blog\nnamespace: reach-${wp.url.split(':').pop()}\n`, []);
  process.chdir(dir);
  return { wp, dir, run };
}

const publishPlan = (run: (args: string[]) => Promise<CliResult>): Promise<CliResult> =>
  run(['wp', 'publish', '--site', 'blog', '--dry-run', '--exit-code', '--json']);

describe('wp pull: every type', () => {
  it('pulls pages beside posts by default, with type, parent and menu_order; adopted, they publish unchanged', async () => {
    const { wp, dir, run } = await site({ pages: true });
    seed(wp, 10, { categories: [1] });
    seed(wp, 11, { type: 'page', slug: 'about', parent: 0, menu_order: 0 });
    seed(wp, 12, { type: 'page', slug: 'team', parent: 11, menu_order: 3 });
    const res = await run(['wp', 'pull', '--adopt', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveLength(3);
    const team = readFileSync(join(dir, 'team.md'), 'utf8');
    expect(team).toContain('type: "page"');
    expect(team).toContain('parent: 11');
    expect(team).toContain('menu_order: 3');
    expect(readFileSync(join(dir, 'item-10.md'), 'utf8')).not.toContain('type:');
    const plan = await publishPlan(run);
    expect(plan.code, plan.stdout).toBe(0);
    const rows = JSON.parse(plan.stdout) as { action: string }[];
    expect(
      rows.map((r) => r.action),
      plan.stdout,
    ).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });

  it('--type takes a name or a REST base; an unknown one is refused before anything is written', async () => {
    const { wp, run } = await site({ pages: true });
    seed(wp, 20, { categories: [1] });
    seed(wp, 21, { type: 'page', slug: 'about' });
    const pages = await run(['wp', 'pull', '--type', 'pages', '--json']);
    expect(pages.code, pages.stderr).toBe(0);
    expect(JSON.parse(pages.stdout)).toMatchObject([{ id: '21' }]);
    // --category: only the types that have categories (a page's route would ignore the filter).
    const byCategory = await run(['wp', 'pull', '--category', '1', '--json', '--force']);
    expect(byCategory.code, byCategory.stderr).toBe(0);
    expect(JSON.parse(byCategory.stdout)).toMatchObject([{ id: '20' }]);
    expect(wp.requests.filter((r) => r.url.includes('/pages')).length).toBe(1);
    const noCategories = await run(['wp', 'pull', '--type', 'page', '--category', '1']);
    expect(noCategories.code).toBe(2);
    expect(noCategories.stderr).toContain('--category: the post type "page" has no categories');
    const bad = await run(['wp', 'pull', '--type', 'recipes', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--type: the site has no post type "recipes" (its types: post, page');
  });
});

describe('wp pull: seo:', () => {
  it("writes Yoast's registered keys as seo:, and the adopted file publishes unchanged", async () => {
    const { wp, dir, run } = await site({
      namespaces: ['wp/v2', 'yoast/v1'],
      registeredMeta: ['_yoast_wpseo_title', '_yoast_wpseo_metadesc', '_yoast_wpseo_meta-robots-noindex'],
    });
    seed(wp, 30, {
      categories: [1],
      meta: {
        _yoast_wpseo_title: 'SEO title',
        _yoast_wpseo_metadesc: 'What it says',
        '_yoast_wpseo_meta-robots-noindex': '1',
      },
    });
    const res = await run(['wp', 'pull', '--adopt', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(dir, 'item-30.md'), 'utf8')).toContain(
      'seo:\n  title: "SEO title"\n  description: "What it says"\n  noindex: true\n',
    );
    const plan = await publishPlan(run);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject([{ action: 'unchanged' }]);
  });

  it("writes AIOSEO's fields read through its route; adopted, an editor's later change there is drift", async () => {
    const { wp, dir, run } = await site({ namespaces: ['wp/v2', 'aioseo/v1'], seoRoutes: 'aioseo' });
    seed(wp, 40, { categories: [1] });
    wp.aioseo.set(40, {
      id: 40,
      title: 'AIO title',
      canonicalUrl: 'https://example.com/x',
      keyphrases: { focus: { keyphrase: 'bread' } },
    });
    const res = await run(['wp', 'pull', '--adopt', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(dir, 'item-40.md'), 'utf8')).toContain(
      'seo:\n  title: "AIO title"\n  focus_keyword: "bread"\n  canonical: "https://example.com/x"\n',
    );
    const plan = await publishPlan(run);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject([{ action: 'unchanged' }]);
    wp.aioseo.set(40, { ...wp.aioseo.get(40), title: 'Edited' });
    const drift = await publishPlan(run);
    expect(drift.code, drift.stderr).toBe(8);
    expect(JSON.parse(drift.stdout)).toMatchObject([{ action: 'unchanged', edited: ['seo_title'] }]);
  });

  it('says why no file has seo: where Rank Math keeps its fields unregistered for REST', async () => {
    const { wp, dir, run } = await site({ namespaces: ['wp/v2', 'rankmath/v1'], seoRoutes: 'rankmath' });
    seed(wp, 50, { categories: [1], meta: [] });
    const res = await run(['wp', 'pull', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      'the site runs Rank Math, whose fields are not registered for the REST API, so they cannot be read',
    );
    expect(readFileSync(join(dir, 'item-50.md'), 'utf8')).not.toContain('seo:');
  });
});
