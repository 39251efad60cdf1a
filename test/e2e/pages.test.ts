// Pages and custom post types against real WordPress 6.1 (Debian's package), with pretty and plain
// permalinks: the site's types and taxonomies by their REST base (post-types.ts), posts of each type created,
// read, updated and trashed at their own route, and the look-ups covering the types a run names. The custom
// types come from test/e2e/wordpress/mu-plugins/blogctl-e2e-recipe.php (`recipe` → `recipes` with the
// taxonomy `cuisine` → `cuisines`; the hierarchical `guide` → `guides`), copied into each instance here.
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { coverTypes, postTypeOf, siteTypes } from '../../src/wordpress/post-types.js';
import {
  createPostAt,
  findPostsBySlugs,
  getPost,
  removePost,
  searchPosts,
  updatePost,
} from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, siteClient, syncWorld } from '../helpers/sync-project.js';
import { waitFor } from '../helpers/wait.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const MU_PLUGIN = fileURLToPath(new URL('./wordpress/mu-plugins/blogctl-e2e-recipe.php', import.meta.url));

/**
 * Installs the custom types' mu-plugin in an instance and waits until the REST API lists them (PHP's OPcache
 * may serve the old file list for up to 2 s).
 */
export async function installRecipeTypes(wp: WordPressInstance): Promise<void> {
  await copyFile(MU_PLUGIN, join(wp.stateDir, 'wp-content', 'mu-plugins', 'blogctl-e2e-recipe.php'));
  const client = new WordPressClient({
    websiteUrl: wp.baseUrl,
    username: wp.username,
    password: wp.appPassword,
  });
  try {
    await waitFor(async () => {
      const res = await client.route('wp/v2/types', { method: 'GET', label: 'e2e types' });
      return Object.keys(res.body as object).includes('recipe');
    }, 'the recipe post type to be registered');
  } finally {
    await client.close();
  }
}

const instances = wordpressInstances();

describe.each(instances)('pages and custom post types with $permalinks permalinks', (wp) => {
  const tag = `${RUN_ID}-types-${wp.permalinks}`;
  let client: WordPressClient;
  beforeAll(async () => {
    await installRecipeTypes(wp);
    client = new WordPressClient({ websiteUrl: wp.baseUrl, username: wp.username, password: wp.appPassword });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('reads each type with its route, hierarchy and taxonomies by REST base', async () => {
    const types = await siteTypes(client);
    expect(types.get('post')).toMatchObject({
      route: 'wp/v2/posts',
      hierarchical: false,
      taxonomies: [
        { slug: 'category', restBase: 'categories' },
        { slug: 'post_tag', restBase: 'tags' },
      ],
    });
    expect(types.get('page')).toMatchObject({ route: 'wp/v2/pages', hierarchical: true, taxonomies: [] });
    expect(types.get('recipe')).toMatchObject({
      route: 'wp/v2/recipes',
      hierarchical: false,
      taxonomies: [{ slug: 'cuisine', restBase: 'cuisines', route: 'wp/v2/cuisines' }],
    });
    expect(types.get('guide')).toMatchObject({ route: 'wp/v2/guides', hierarchical: true });
    // WordPress's own machinery is no type to publish to.
    expect(types.has('attachment')).toBe(false);
    expect(types.has('wp_block')).toBe(false);
    const unknown = await postTypeOf(client, 'nope', 'pages/a.md:2: type').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UsageError);
    expect((unknown as Error).message).toMatch(
      /^pages\/a\.md:2: type: the site has no post type "nope" \(its types: post, page, .*recipe/,
    );
  });

  it('creates, reads, updates and trashes a page and a recipe at their own routes, found by the look-ups', async () => {
    const marker = `blogctl-e2e-types-${tag}`;
    const parent = await createPostAt(client, 'page', {
      title: `About ${tag}`,
      content: `<p>About</p><!-- ${marker} -->`,
      status: 'publish',
      slug: `about-${tag}`,
    });
    expect(parent).toMatchObject({ type: 'page', parent: 0 });
    const child = await createPostAt(client, 'page', {
      title: `Team ${tag}`,
      content: `<p>Team</p><!-- ${marker} -->`,
      status: 'publish',
      slug: `team-${tag}`,
      parent: parent.id,
      menu_order: 3,
    });
    expect(child).toMatchObject({ type: 'page', parent: parent.id, menu_order: 3 });
    if (wp.permalinks === 'pretty') expect(child.link).toContain(`/about-${tag}/team-${tag}/`);
    const recipe = await createPostAt(client, 'recipe', {
      title: `Soup ${tag}`,
      content: `<p>Soup</p><!-- ${marker} -->`,
      status: 'publish',
      slug: `about-${tag}`,
    });
    // Slugs are unique within a type: the recipe keeps the page's slug.
    expect(recipe).toMatchObject({ type: 'recipe', slug: `about-${tag}` });

    expect((await getPost(client, child.id, { type: 'page' })).title?.raw).toBe(`Team ${tag}`);
    const moved = await updatePost(client, child.id, { parent: 0, menu_order: 1 }, 'page');
    expect(moved).toMatchObject({ parent: 0, menu_order: 1 });
    expect((await updatePost(client, recipe.id, { title: `Stew ${tag}` }, 'recipe')).title?.raw).toBe(
      `Stew ${tag}`,
    );

    // Posts only, until the run covers the types its sources name.
    expect(await searchPosts(client, marker, 'e2e')).toEqual([]);
    coverTypes(client, ['wp/v2/pages', 'wp/v2/recipes']);
    const found = await searchPosts(client, marker, 'e2e');
    expect(found.map((p) => [p.type, p.id]).sort()).toEqual(
      [
        ['page', parent.id],
        ['page', child.id],
        ['recipe', recipe.id],
      ].sort(),
    );
    const bySlug = await findPostsBySlugs(client, [`about-${tag}`], 'e2e');
    expect(bySlug.map((p) => p.type).sort()).toEqual(['page', 'recipe']);

    for (const [id, type] of [
      [child.id, 'page'],
      [parent.id, 'page'],
      [recipe.id, 'recipe'],
    ] as const)
      await removePost(client, id, { type });
    expect((await getPost(client, recipe.id, { type: 'recipe' })).status).toBe('trash');
  });
});

const world = syncWorld('e2e-pages', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  link: string;
  status: string;
  fields?: string[];
  edited?: string[];
}

describe.each(instances)('wp publish of pages and custom post types ($permalinks permalinks)', (wp) => {
  const tag = `${RUN_ID}-cli-${wp.permalinks}`;
  const R = `run-${tag}`;
  let dir: string;
  const reader = siteClient(adminLogin(wp));
  const publish = (folder: string, args: string[] = []): Promise<CliResult> =>
    freshRun(['wp', 'publish', '--site', 'site', `${R}/${folder}/`, '--json', ...args], {
      service: world.sandbox,
      site: adminLogin(wp),
      profile: 'site',
      spawn: true,
      cwd: dir,
    });
  const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
  const page = (title: string, fields = '', body = title) =>
    `---\ntitle: ${title} ${tag}\ntype: page\nstatus: publish\n${fields}---\n\n${body} page.\n`;

  beforeAll(async () => {
    await installRecipeTypes(wp);
    dir = await mkdtemp(join(world.home, `${wp.permalinks}-`));
    await mkdir(join(dir, '.git'));
  });

  it('publishes a page tree from folders, parents first, then re-parents a moved page in place', async () => {
    await mkdir(join(dir, R, 'site', 'about'), { recursive: true });
    // The child sorts before its parent: the run still sends the parent first.
    await writeFile(join(dir, R, 'site', 'about', 'team.md'), page('Team', 'menu_order: 2\n'));
    await writeFile(join(dir, R, 'site', 'about.md'), page('About', 'template: blank\n'));
    await writeFile(join(dir, R, 'site', 'contact.md'), page('Contact'));
    const first = await publish('site');
    expect(first.code, first.stderr).toBe(0);
    const byName = (res: CliResult, end: string): Row => rows(res).find((r) => r.source.endsWith(end))!;
    const about = byName(first, '/about.md');
    const team = byName(first, '/team.md');
    const contact = byName(first, '/contact.md');
    expect([about.action, team.action, contact.action]).toEqual(['created', 'created', 'created']);
    const storedTeam = await getPost(reader, Number(team.id), { type: 'page' });
    expect(storedTeam).toMatchObject({ type: 'page', parent: Number(about.id), menu_order: 2 });
    expect((await getPost(reader, Number(about.id), { type: 'page' })).template).toBe('blank');

    // Again from a fresh runner: every page found again (the look-up covers pages), nothing sent.
    const again = await publish('site');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);

    // A move under another page re-parents the same page (same id).
    await writeFile(
      join(dir, R, 'site', 'about', 'team.md'),
      page('Team', `menu_order: 2\nparent: ../contact.md\n`),
    );
    const moved = await publish('site');
    expect(moved.code, moved.stderr).toBe(0);
    expect(byName(moved, '/team.md')).toMatchObject({ action: 'updated', id: team.id, fields: ['parent'] });
    expect((await getPost(reader, Number(team.id), { type: 'page' })).parent).toBe(Number(contact.id));
  });

  it("an editor's change of a page's parent or menu_order is drift: reported, kept", async () => {
    await mkdir(join(dir, R, 'drift'), { recursive: true });
    await writeFile(join(dir, R, 'drift', 'home.md'), page('Home'));
    await writeFile(join(dir, R, 'drift', 'faq.md'), page('FAQ', `menu_order: 2\nparent: home.md\n`));
    const first = await publish('drift');
    expect(first.code, first.stderr).toBe(0);
    const faq = rows(first).find((r) => r.source.endsWith('/faq.md'))!;
    // An editor moves the page to the top level and changes its order in WordPress.
    await updatePost(reader, Number(faq.id), { parent: 0, menu_order: 7 }, 'page');
    const plan = await publish('drift', ['--dry-run', '--exit-code']);
    expect(plan.code, plan.stderr).toBe(8);
    expect(rows(plan).find((r) => r.source.endsWith('/faq.md'))).toMatchObject({
      action: 'unchanged',
      edited: ['parent', 'menu_order'],
    });
    const kept = await publish('drift');
    expect(kept.code, kept.stderr).toBe(0);
    expect(await getPost(reader, Number(faq.id), { type: 'page' })).toMatchObject({
      parent: 0,
      menu_order: 7,
    });
  });

  it('takes the type of a project folder (sources: [{path, type}]) and its page tree from the folders', async () => {
    const proj = join(dir, R, 'proj');
    await mkdir(join(proj, 'pages', 'guide'), { recursive: true });
    await writeFile(
      join(proj, 'blogctl.yml'),
      `namespace: e2e-pages-${tag}\nsources:\n  - posts\n  - path: pages\n    type: page\n`,
    );
    await writeFile(
      join(proj, 'pages', 'guide.md'),
      `---\ntitle: Guide ${tag}\nstatus: publish\n---\n\nGuide.\n`,
    );
    await writeFile(
      join(proj, 'pages', 'guide', 'setup.md'),
      `---\ntitle: Setup ${tag}\nstatus: publish\n---\n\nSetup.\n`,
    );
    const res = await publish('proj/pages');
    expect(res.code, res.stderr).toBe(0);
    const made = rows(res);
    const guide = made.find((r) => r.source.endsWith('/guide.md'))!;
    const setup = made.find((r) => r.source.endsWith('/setup.md'))!;
    expect(await getPost(reader, Number(guide.id), { type: 'page' })).toMatchObject({
      type: 'page',
      parent: 0,
    });
    expect(await getPost(reader, Number(setup.id), { type: 'page' })).toMatchObject({
      type: 'page',
      parent: Number(guide.id),
    });

    // wp pull --type page writes a page made in WordPress back with its type, parent and order (blogctl's
    // own pages are left out: they are the project's files already).
    await createPostAt(reader, 'page', {
      title: `By hand ${tag}`,
      content: '<p>Made in WordPress.</p>',
      status: 'publish',
      parent: Number(guide.id),
      menu_order: 4,
    });
    const pulled = await freshRun(['wp', 'pull', 'pulled', '--type', 'page', '--site', 'site', '--json'], {
      service: world.sandbox,
      site: adminLogin(wp),
      profile: 'site',
      spawn: true,
      cwd: proj,
    });
    expect(pulled.code, pulled.stderr).toBe(0);
    const files = await readdir(join(proj, 'pulled'));
    const texts = await Promise.all(files.map((f) => readFile(join(proj, 'pulled', f), 'utf8')));
    const byHand = texts.find((t) => t.includes(`By hand ${tag}`));
    expect(byHand).toMatch(/\ntype: "?page"?\n/);
    expect(byHand).toContain(`\nparent: ${guide.id}\n`);
    expect(byHand).toContain('\nmenu_order: 4\n');
    // Without --type every type the site offers: a recipe made by hand comes too; adopted, the pulled files
    // publish unchanged. (--since keeps the other tests' posts out.)
    const soup = await createPostAt(reader, 'recipe', {
      title: `Soup by hand ${tag}`,
      content: '<p>Made in WordPress.</p>',
      status: 'publish',
    });
    const since = String((soup as { modified?: unknown }).modified ?? soup.date).slice(0, 19);
    const pulledAll = await freshRun(
      ['wp', 'pull', 'every', '--since', shiftSeconds(since, -1), '--adopt', '--site', 'site', '--json'],
      { service: world.sandbox, site: adminLogin(wp), profile: 'site', spawn: true, cwd: proj },
    );
    expect(pulledAll.code, pulledAll.stderr).toBe(0);
    const everyText = await Promise.all(
      (await readdir(join(proj, 'every'))).map((f) => readFile(join(proj, 'every', f), 'utf8')),
    );
    expect(everyText.find((t) => t.includes(`Soup by hand ${tag}`))).toMatch(/\ntype: "recipe"\n/);
    const roundTrip = await freshRun(
      ['wp', 'publish', 'every', '--site', 'site', '--dry-run', '--exit-code', '--json'],
      { service: world.sandbox, site: adminLogin(wp), profile: 'site', spawn: true, cwd: proj },
    );
    expect(roundTrip.code, roundTrip.stdout).toBe(0);
    expect(rows(roundTrip).every((r) => r.action === 'unchanged')).toBe(true);
    const bad = await freshRun(['wp', 'pull', 'pulled', '--type', 'nope', '--site', 'site'], {
      service: world.sandbox,
      site: adminLogin(wp),
      profile: 'site',
      spawn: true,
      cwd: proj,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--type: the site has no post type "nope"');
  });

  it('publishes a custom post type at its REST base; an unknown type and terms its type lacks are input errors at their lines', async () => {
    await mkdir(join(dir, R, 'recipes'), { recursive: true });
    await writeFile(
      join(dir, R, 'recipes', 'soup.md'),
      `---\ntitle: Soup ${tag}\ntype: recipe\nstatus: publish\n---\n\nHot soup.\n`,
    );
    await writeFile(
      join(dir, R, 'recipes', 'stew.md'),
      `---\ntitle: Stew ${tag}\ntype: recipe\nstatus: publish\nterms:\n  cuisines: [Irish ${tag}]\n---\n\nStew.\n`,
    );
    const noTerm = await publish('recipes');
    expect(noTerm.code).toBe(2);
    expect(noTerm.stderr).toContain(`unknown cuisines term: Irish ${tag}`);
    // A custom taxonomy's terms are resolved as its post is sent: the other recipe went out.
    expect(rows(noTerm).find((r) => r.source.endsWith('/soup.md'))).toMatchObject({ action: 'created' });
    const made = await publish('recipes', ['--create-terms']);
    expect(made.code, made.stderr).toBe(0);
    const soup = rows(made).find((r) => r.source.endsWith('/soup.md'));
    const stew = rows(made).find((r) => r.source.endsWith('/stew.md'))!;
    expect(soup).toMatchObject({ action: 'unchanged' });
    expect(stew).toMatchObject({ action: 'created' });
    const stewPost = await getPost(reader, Number(stew.id), { type: 'recipe' });
    const cuisines = (
      await reader.route('wp/v2/cuisines', { method: 'GET', params: { search: tag }, label: 'e2e' })
    ).body as { id: number; name: string }[];
    expect((stewPost as Record<string, unknown>)['cuisines']).toEqual([
      cuisines.find((c) => c.name === `Irish ${tag}`)!.id,
    ]);
    expect(await getPost(reader, Number(soup!.id), { type: 'recipe' })).toMatchObject({ type: 'recipe' });
    const again = await publish('recipes');
    expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);

    await mkdir(join(dir, R, 'bad'), { recursive: true });
    await writeFile(join(dir, R, 'bad', 'a.md'), `---\ntitle: A\ntype: nope\n---\n\nA.\n`);
    await writeFile(join(dir, R, 'bad', 'b.md'), `---\ntitle: B\ntype: page\ntags: [x]\n---\n\nB.\n`);
    await writeFile(
      join(dir, R, 'bad', 'c.md'),
      `---\ntitle: C\ntype: recipe\nterms:\n  courses: [x]\n---\n\nC.\n`,
    );
    const bad = await publish('bad');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${R}/bad/a.md:3: type: the site has no post type "nope"`);
    expect(bad.stderr).toContain(`${R}/bad/b.md:4: tags: the post type "page" has no tags`);
    expect(bad.stderr).toContain(
      `${R}/bad/c.md:4: terms: the post type "recipe" has no taxonomy "courses" (its taxonomies: cuisines)`,
    );
  });
});

/** A site-local date (`2026-01-02T03:04:05`) moved by `seconds`, in the same form. */
function shiftSeconds(local: string, seconds: number): string {
  return new Date(Date.parse(`${local}Z`) + seconds * 1000).toISOString().slice(0, 19);
}
