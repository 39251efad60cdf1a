// The companion WordPress plugin (wordpress-plugin/blogctl-sync) against real WordPress, pretty and plain
// permalinks, installed as an mu-plugin by up.sh: its route lists exactly a namespace's posts in every status
// (a custom one and the trash too) whatever WordPress search does; the state is read and written only by
// accounts with edit_others_posts (proved with the real Author and Editor Application Passwords); saves
// after blogctl's write are counted; and blogctl, finding the plugin, keeps its state there: a plugin that
// replaces WordPress search makes no duplicates, one that strips HTML comments loses nothing, and
// `wp sites verify` says `sync state: plugin` (`marker` on a site without it). The zip `npm run plugin:zip`
// makes installs as a normal plugin.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readMarker } from '../../src/publishing/identity.js';
import { parseState } from '../../src/publishing/sync-state-plugin.js';
import {
  listNamespacePosts,
  savedSinceWrite,
  STATE_META,
  syncStateSupport,
} from '../../src/wordpress/blogctl-plugin.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { getPost, searchPosts, type WpPostDetail } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, siteClient, syncWorld, type SiteLogin } from '../helpers/sync-project.js';
import { pluginInstances, RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = pluginInstances();
const world = syncWorld('e2e-plugin', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  fields?: string[];
  edited?: string[];
}

/** A state as blogctl writes it, for namespace `ns` and a key of its own. */
const state = (ns: string, key = randomBytes(12).toString('hex')): string =>
  JSON.stringify({ v: 1, ns, key, sums: { title: '00000000' }, at: new Date().toISOString() });
const newNs = (): string => randomBytes(8).toString('hex');

describe.skipIf(!instances.length).each(instances)(
  'the blogctl-sync plugin ($permalinks permalinks)',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-plugin-${wp.permalinks}`;
    const login = (username: string, password: string): SiteLogin => ({
      url: wp.baseUrl,
      username,
      password,
    });
    const admin = siteClient(adminLogin(wp));
    const editor = siteClient(login(wp.editorUsername, wp.editorAppPassword));
    const author = siteClient(login(wp.authorUsername, wp.authorAppPassword));
    const anonymous = siteClient(login('nobody', 'aaaa bbbb cccc dddd eeee ffff'));

    /** The test mu-plugins' switches (test/e2e/wordpress/mu-plugins/e2e-switches.php). */
    const switches = (on: Record<string, boolean>) =>
      admin.route('blogctl-e2e/v1/switches', { method: 'POST', json: on, label: 'e2e switches' });
    afterEach(async () => {
      await switches({ 'strip-comments': false, 'search-replaced': false, 'rewrite-on-save': false });
    });

    const create = async (
      client: WordPressClient,
      fields: Record<string, unknown>,
      passStatuses: number[] = [],
    ) =>
      client.route('wp/v2/posts', {
        method: 'POST',
        json: { title: `${tag} post`, content: `<p>${tag}</p>`, status: 'publish', ...fields },
        passStatuses,
        label: 'create a post',
      });
    const update = (
      client: WordPressClient,
      id: number,
      fields: Record<string, unknown>,
      pass: number[] = [],
    ) =>
      client.route(`wp/v2/posts/${id}`, {
        method: 'POST',
        json: fields,
        passStatuses: pass,
        label: 'update a post',
      });
    const idOf = (res: { body: unknown }): number => (res.body as { id: number }).id;
    const metaOf = (body: unknown): Record<string, unknown> => {
      const meta = (body as WpPostDetail).meta;
      return meta && !Array.isArray(meta) ? meta : {};
    };

    it('announces itself: blogctl/v1 in the REST index and a version', async () => {
      const support = await syncStateSupport(admin);
      expect(support).toMatchObject({
        kind: 'plugin',
        info: { plugin: 'blogctl-sync', state_version: 1, can_sync: true },
      });
      expect(support.info?.statuses).toContain('in-progress');
    });

    it("lists exactly a namespace's posts, in every status (custom and trash too), search replaced or not", async () => {
      const ns = newNs();
      const other = newNs();
      const ids: Record<string, number> = {};
      const future = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 19);
      for (const [name, fields] of [
        ['publish', {}],
        ['draft', { status: 'draft' }],
        ['pending', { status: 'pending' }],
        ['private', { status: 'private' }],
        ['future', { status: 'future', date_gmt: future }],
        ['in-progress', { status: 'in-progress' }],
        ['trash', {}],
      ] as const) {
        ids[name] = idOf(await create(editor, { ...fields, meta: { [STATE_META]: state(ns) } }));
      }
      await admin.route(`wp/v2/posts/${ids['trash']!}`, { method: 'DELETE', label: 'trash' });
      // A marker in the content from before the plugin (the look-up's fallback), another namespace's post,
      // and a post that only mentions the namespace in its title: only the first belongs.
      ids['marker'] = idOf(
        await create(admin, {
          content: `<p>${tag}<!-- blogctl:v1 ns=${ns} key=${'a'.repeat(24)} sums=title.00000000 --></p>`,
        }),
      );
      const elsewhere = idOf(await create(editor, { meta: { [STATE_META]: state(other) } }));
      await create(admin, { title: `${tag} about ${ns}` });

      await switches({ 'search-replaced': true });
      // WordPress search now finds nothing, the plugin's listing everything.
      expect(await searchPosts(admin, `ns=${ns}`, 'search')).toEqual([]);
      const listed = await listNamespacePosts(admin, ns, 'list');
      expect(listed.map((p) => p.id)).toEqual(Object.values(ids).sort((a, b) => a - b));
      expect(Object.fromEntries(listed.map((p) => [p.id, p.status]))).toEqual({
        [ids['publish']!]: 'publish',
        [ids['draft']!]: 'draft',
        [ids['pending']!]: 'pending',
        [ids['private']!]: 'private',
        [ids['future']!]: 'future',
        [ids['in-progress']!]: 'in-progress',
        [ids['trash']!]: 'trash',
        [ids['marker']!]: 'publish',
      });
      const publish = listed.find((p) => p.id === ids['publish'])!;
      expect(parseState(metaOf(publish)[STATE_META])).toMatchObject({ ns });
      expect(publish.content?.raw).toBe(`<p>${tag}</p>`);
      expect(readMarker(listed.find((p) => p.id === ids['marker'])!.content!.raw!)?.ns).toBe(ns);
      expect((await listNamespacePosts(admin, other, 'list')).map((p) => p.id)).toEqual([elsewhere]);
      // Pages as WordPress's own lists count them, and a bound on their size.
      const page3 = await admin.route('blogctl/v1/posts', {
        method: 'GET',
        params: { ns, per_page: 3, page: 3, fields: 'ids' },
        label: 'list',
      });
      expect([page3.headers['x-wp-total'], page3.headers['x-wp-totalpages']]).toEqual(['8', '3']);
      expect((page3.body as { id: number }[]).map((p) => p.id)).toEqual(listed.slice(6).map((p) => p.id));
      const tooMany = await admin.route('blogctl/v1/posts', {
        method: 'GET',
        params: { ns, per_page: 101 },
        passStatuses: [400],
        label: 'list',
      });
      expect(tooMany.status).toBe(400);
      // The cheap listing leaves the content out.
      const ids_ = await listNamespacePosts(admin, ns, 'list', 'ids');
      expect(ids_.map((p) => p.id)).toEqual(listed.map((p) => p.id));
      expect(ids_[0]!.content).toBeUndefined();
    });

    it('only accounts with edit_others_posts read or write the state (real Author and Editor passwords)', async () => {
      const ns = newNs();
      const mine = idOf(await create(editor, { meta: { [STATE_META]: state(ns) } }));
      const written = await getPost(editor, mine);
      expect(parseState(metaOf(written)[STATE_META])).toMatchObject({ ns });

      // Reading: the key is gone from every answer to the Author and to anonymous callers.
      const asAuthor = await author.route(`wp/v2/posts/${mine}`, { method: 'GET', label: 'read' });
      expect(metaOf(asAuthor.body)).not.toHaveProperty(STATE_META);
      const asAnyone = await anonymous.route(`wp/v2/posts/${mine}`, { method: 'GET', label: 'read' });
      expect(metaOf(asAnyone.body)).not.toHaveProperty(STATE_META);
      const list = await author.route('blogctl/v1/posts', {
        method: 'GET',
        params: { ns },
        passStatuses: [403],
        label: 'list',
      });
      expect(list.status).toBe(403);

      // Writing: refused before the post is made or changed.
      const forged = await create(author, { meta: { [STATE_META]: state(ns) } }, [403]);
      expect(forged.status).toBe(403);
      expect((forged.body as { code: string }).code).toBe('rest_cannot_update');
      expect((await listNamespacePosts(admin, ns, 'list')).map((p) => p.id)).toEqual([mine]);
      const own = idOf(await create(author, { title: `${tag} by the Author` }));
      const stamped = await update(
        author,
        own,
        { title: 'changed', meta: { [STATE_META]: state(ns) } },
        [403],
      );
      expect(stamped.status).toBe(403);
      const ownRead = await getPost(author, own);
      expect(ownRead.title?.raw).toBe(`${tag} by the Author`);
      expect(metaOf(ownRead)).not.toHaveProperty(STATE_META);
      // The Author's post copies a project post's marker: the listing shows it with no state of its own.
      await update(author, own, {
        content: `<p>copied<!-- blogctl:v1 ns=${ns} key=${'b'.repeat(24)} sums=title.00000000 --></p>`,
      });
      const both = await listNamespacePosts(admin, ns, 'list');
      expect(
        both.map((p) => [p.id, p.author, p.meta && !Array.isArray(p.meta) && p.meta[STATE_META]]),
      ).toEqual([
        [mine, expect.any(Number), expect.stringContaining(ns)],
        [own, expect.any(Number), ''],
      ]);
      expect(both[1]!.blogctl?.written).toBeNull();
      expect(both.map((p) => p.blogctl?.author_can_sync)).toEqual([true, false]);

      // The Editor reads and writes it on anyone's post.
      const editorsRead = await getPost(editor, own);
      expect(metaOf(editorsRead)[STATE_META]).toBe('');
      const adopted = await update(editor, own, { meta: { [STATE_META]: state(ns) } });
      expect(adopted.status).toBe(200);
      expect(parseState(metaOf(adopted.body)[STATE_META])).toMatchObject({ ns });
    });

    it("counts saves after blogctl's write: an editor's save shows, blogctl's own write does not", async () => {
      const ns = newNs();
      const id = idOf(await create(editor, { meta: { [STATE_META]: state(ns) } }));
      const listed = async () => (await listNamespacePosts(admin, ns, 'list', 'ids'))[0]!;
      expect(savedSinceWrite(await listed())).toBe(false);
      expect((await listed()).blogctl?.written?.post).toBe(id);
      await update(editor, id, { title: `${tag} edited by a person` });
      const edited = await listed();
      expect(savedSinceWrite(edited)).toBe(true);
      await update(admin, id, { title: `${tag} by blogctl`, meta: { [STATE_META]: state(ns) } });
      const rewritten = await listed();
      expect(savedSinceWrite(rewritten)).toBe(false);
      expect(rewritten.blogctl?.written?.modified_gmt).toBe(rewritten.modified_gmt);
      await admin.route(`wp/v2/posts/${id}`, { method: 'DELETE', label: 'trash' });
      expect(savedSinceWrite(await listed())).toBe(true);
    });

    it("registers the SEO plugins' fields for REST, behind the same edit_others_posts check", async () => {
      const seo = {
        _yoast_wpseo_title: `${tag} SEO title`,
        _yoast_wpseo_metadesc: 'A description.',
        _yoast_wpseo_focuskw: 'espresso',
        _yoast_wpseo_canonical: 'https://blog.example.com/espresso/',
        '_yoast_wpseo_meta-robots-noindex': '1',
        rank_math_title: `${tag} Rank Math title`,
        rank_math_description: 'Another description.',
        rank_math_focus_keyword: 'espresso',
        rank_math_canonical_url: 'https://blog.example.com/espresso/',
        rank_math_robots: ['noindex', 'nofollow'],
      };
      const id = idOf(await create(editor, { meta: seo }));
      expect(metaOf(await getPost(admin, id))).toMatchObject(seo);
      const asAnyone = await anonymous.route(`wp/v2/posts/${id}`, { method: 'GET', label: 'read' });
      for (const key of Object.keys(seo)) expect(metaOf(asAnyone.body)).not.toHaveProperty(key);
      const own = idOf(await create(author, { title: `${tag} the Author's` }));
      const refused = await update(author, own, { meta: { rank_math_title: 'mine' } }, [403]);
      expect(refused.status).toBe(403);
    });

    describe('blogctl with the plugin', () => {
      let dir: string;
      const R = `run-${tag}`;
      beforeAll(async () => {
        dir = await mkdtemp(join(world.home, `${wp.permalinks}-`));
        await mkdir(join(dir, '.git'));
      });
      const fresh = (args: string[]): Promise<CliResult> =>
        freshRun(args, {
          service: world.sandbox,
          site: adminLogin(wp),
          profile: 'site',
          spawn: true,
          cwd: dir,
        });
      const publish = (folder: string): Promise<CliResult> =>
        fresh(['wp', 'publish', '--site', 'site', `${R}/${folder}/`, '--status', 'publish', '--json']);
      const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
      const stateOf = async (id: string) => parseState(metaOf(await getPost(admin, Number(id)))[STATE_META]);

      it('keeps its state in the meta: a plugin replacing WordPress search makes no duplicates (--dry-run agrees)', async () => {
        await switches({ 'search-replaced': true });
        await mkdir(join(dir, R, 'search'), { recursive: true });
        await writeFile(join(dir, R, 'search', 'one.md'), `# One ${tag}\n\nFirst. ${tag}\n`);
        await writeFile(join(dir, R, 'search', 'two.md'), `# Two ${tag}\n\nSecond. ${tag}\n`);
        const first = await publish('search');
        expect(first.code, first.stderr).toBe(0);
        const created = rows(first);
        expect(created.map((r) => r.action)).toEqual(['created', 'created']);
        const states = await Promise.all(created.map((r) => stateOf(r.id)));
        expect(states[0]).toBeDefined();
        expect(states[0]!.ns).toBe(states[1]!.ns);

        const second = await publish('search');
        expect(second.code, second.stderr).toBe(0);
        expect(rows(second).map((r) => [r.action, r.id])).toEqual(created.map((r) => ['unchanged', r.id]));
        const plan = await fresh([
          'wp',
          'publish',
          '--site',
          'site',
          `${R}/search/`,
          '--status',
          'publish',
          '--dry-run',
          '--json',
        ]);
        expect(plan.code, plan.stderr).toBe(0);
        expect(rows(plan).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
        const listed = await listNamespacePosts(admin, states[0]!.ns, 'list', 'ids');
        // Created a few at a time: the ids need not follow the files' order.
        expect(listed.map((p) => String(p.id)).sort()).toEqual(created.map((r) => r.id).sort());
      });

      it('loses nothing to a plugin that strips HTML comments on save', async () => {
        await switches({ 'strip-comments': true });
        await mkdir(join(dir, R, 'strip'), { recursive: true });
        await writeFile(join(dir, R, 'strip', 'three.md'), `# Three ${tag}\n\nThird. ${tag}\n`);
        const first = await publish('strip');
        expect(first.code, first.stderr).toBe(0);
        const [created] = rows(first);
        expect(created).toMatchObject({ action: 'created' });
        const stored = await getPost(admin, Number(created!.id));
        expect(readMarker(stored.content!.raw!)).toBeUndefined();
        expect(parseState(metaOf(stored)[STATE_META])).toBeDefined();

        const again = await publish('strip');
        expect(again.code, again.stderr).toBe(0);
        expect(rows(again)).toMatchObject([{ action: 'unchanged', id: created!.id }]);
        await writeFile(join(dir, R, 'strip', 'three.md'), `# Three ${tag}\n\nThird, edited. ${tag}\n`);
        const edited = await publish('strip');
        expect(edited.code, edited.stderr).toBe(0);
        expect(rows(edited)).toMatchObject([{ action: 'updated', id: created!.id, fields: ['content'] }]);
      });

      it("sees an editor's edit as drift, and a plugin's rewrite on save as no edit", async () => {
        await switches({ 'rewrite-on-save': true });
        await mkdir(join(dir, R, 'drift'), { recursive: true });
        await writeFile(join(dir, R, 'drift', 'five.md'), `# Five ${tag}\n\nThe colour of coffee. ${tag}\n`);
        const first = await publish('drift');
        expect(first.code, first.stderr).toBe(0);
        const [created] = rows(first);
        expect(created).toMatchObject({ action: 'created' });
        expect(first.stderr).toMatch(/WordPress changed the content of post \d+ on save/);
        expect((await getPost(admin, Number(created!.id))).content?.raw).toContain('The color of coffee.');
        const again = await publish('drift');
        expect(again.code, again.stderr).toBe(0);
        expect(rows(again)).toEqual([expect.objectContaining({ action: 'unchanged', id: created!.id })]);
        expect(rows(again)[0]!.edited).toBeUndefined();

        await update(editor, Number(created!.id), { title: `${tag} retitled by an editor` });
        const edited = await publish('drift');
        expect(edited.code, edited.stderr).toBe(0);
        expect(rows(edited)[0]).toMatchObject({ action: 'unchanged', id: created!.id, edited: ['title'] });
        expect((await getPost(admin, Number(created!.id))).title?.raw).toBe(`${tag} retitled by an editor`);
      });

      it('sees an earlier revision restored, marker and all, as an edit, and keeps it', async () => {
        await mkdir(join(dir, R, 'revision'), { recursive: true });
        const file = join(dir, R, 'revision', 'six.md');
        await writeFile(file, `# Six ${tag}\n\nFirst words. ${tag}\n`);
        const first = await publish('revision');
        expect(first.code, first.stderr).toBe(0);
        const id = Number(rows(first)[0]!.id);
        const before = (await getPost(admin, id)).content!.raw!;
        await writeFile(file, `# Six ${tag}\n\nSecond words. ${tag}\n`);
        expect(rows(await publish('revision'))[0]).toMatchObject({ action: 'updated', fields: ['content'] });
        // What restoring the first revision stores: its content, the marker of that time inside it.
        await update(editor, id, { content: before });
        const after = await publish('revision');
        expect(after.code, after.stderr).toBe(0);
        expect(rows(after)[0]).toMatchObject({ action: 'unchanged', edited: ['content'] });
        expect((await getPost(admin, id)).content?.raw).toBe(before);
      });

      it("takes no Author's post for the project's, even one older than it carrying a copy of its marker", async () => {
        const older = idOf(await create(author, { title: `${tag} the Author's older post` }));
        await mkdir(join(dir, R, 'forged'), { recursive: true });
        const file = join(dir, R, 'forged', 'seven.md');
        await writeFile(file, `# Seven ${tag}\n\nSeventh. ${tag}\n`);
        const first = await publish('forged');
        expect(first.code, first.stderr).toBe(0);
        const real = rows(first)[0]!.id;
        const copied = (await getPost(admin, Number(real))).content!.raw!;
        expect(readMarker(copied)).toBeDefined();
        await update(author, older, { content: copied });

        await writeFile(file, `# Seven ${tag}\n\nSeventh, edited. ${tag}\n`);
        const edited = await publish('forged');
        expect(edited.code, edited.stderr).toBe(0);
        expect(rows(edited)).toMatchObject([{ action: 'updated', id: real }]);
        const untouched = await getPost(admin, older);
        expect(untouched.content?.raw).toBe(copied);
        expect(untouched.status).toBe('publish');
      });

      it("--prune trashes the project's orphan, never an Author's post carrying a copy of its marker", async () => {
        const root = join(dir, 'project');
        await mkdir(join(root, 'posts'), { recursive: true });
        await writeFile(
          join(root, 'blogctl.yml'),
          `site: site\nnamespace: e2e-plugin-${tag}\ndefaults:\n  status: publish\n`,
        );
        const inProject = (extra: string[] = []): Promise<CliResult> =>
          freshRun(['wp', 'publish', '--json', ...extra], {
            service: world.sandbox,
            site: adminLogin(wp),
            profile: 'site',
            spawn: true,
            cwd: root,
          });
        await writeFile(join(root, 'posts', 'stay.md'), `# Stay ${tag}\n\nStays. ${tag}\n`);
        await writeFile(join(root, 'posts', 'gone.md'), `# Gone ${tag}\n\nGoes. ${tag}\n`);
        const first = await inProject();
        expect(first.code, first.stderr).toBe(0);
        const byName = (res: CliResult, name: string): Row => rows(res).find((r) => r.source.endsWith(name))!;
        const [stay, gone] = ['stay.md', 'gone.md'].map((n) => byName(first, n));
        const copied = (await getPost(admin, Number(gone!.id))).content!.raw!;
        const copy = idOf(await create(author, { title: `${tag} the Author's copy`, content: copied }));

        await rm(join(root, 'posts', 'gone.md'));
        const pruned = await inProject(['--prune']);
        expect(pruned.code, pruned.stderr).toBe(0);
        expect(rows(pruned).map((r) => [r.action, r.id])).toEqual([
          ['unchanged', stay!.id],
          ['pruned', gone!.id],
        ]);
        expect((await getPost(admin, Number(gone!.id))).status).toBe('trash');
        expect((await getPost(admin, copy)).status).toBe('publish');
      });

      it('finds a post an editor moved to a custom status: no second copy', async () => {
        await mkdir(join(dir, R, 'status'), { recursive: true });
        await writeFile(join(dir, R, 'status', 'four.md'), `# Four ${tag}\n\nFourth. ${tag}\n`);
        const first = await publish('status');
        expect(first.code, first.stderr).toBe(0);
        const [created] = rows(first);
        await update(admin, Number(created!.id), { status: 'in-progress' });
        const again = await publish('status');
        expect(again.code, again.stderr).toBe(0);
        expect(rows(again)).toMatchObject([{ id: created!.id }]);
        expect(rows(again)[0]!.action).not.toBe('created');
        const ns = (await stateOf(created!.id))!.ns;
        const listed = await listNamespacePosts(admin, ns, 'list', 'ids');
        expect(listed.filter((p) => p.slug?.startsWith('four')).map((p) => [p.id, p.status])).toEqual([
          [Number(created!.id), expect.any(String)],
        ]);
      });

      it('wp sites verify says "sync state: plugin"', async () => {
        const res = await fresh(['wp', 'sites', 'verify', 'site']);
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).toMatch(/^sync state:\s+plugin \(blogctl-sync 1\.0\.0\)$/m);
        const json = await fresh(['wp', 'sites', 'verify', 'site', '--json', 'syncState']);
        expect(JSON.parse(json.stdout)).toEqual({ syncState: { kind: 'plugin', pluginVersion: '1.0.0' } });
      });
    });
  },
);

describe.each(wordpressInstances())('a site without the plugin ($permalinks permalinks)', (wp) => {
  const admin = siteClient(adminLogin(wp));
  const verify = () =>
    freshRun(['wp', 'sites', 'verify', 'site'], {
      service: world.sandbox,
      site: adminLogin(wp),
      profile: 'site',
      spawn: true,
    });

  it('takes the zip of npm run plugin:zip as a normal plugin: active, blogctl uses it; inactive, the marker', async () => {
    // Unpacked by PHP's own zip reader (PharData), into the site's plugins folder, as "Upload Plugin" does.
    const zip = join(world.home, `blogctl-sync-${wp.port}.zip`);
    const plugins = join(wp.stateDir, 'wp-content', 'plugins');
    execFileSync(process.execPath, [
      fileURLToPath(new URL('../../scripts/plugin-zip.mjs', import.meta.url)),
      zip,
    ]);
    execFileSync('php', ['-r', '(new PharData($argv[1]))->extractTo($argv[2], null, true);', zip, plugins]);
    const toggle = (status: 'active' | 'inactive') =>
      admin.route('wp/v2/plugins/blogctl-sync/blogctl-sync', {
        method: 'POST',
        json: { status },
        label: `make the plugin ${status}`,
      });
    try {
      expect((await toggle('active')).status).toBe(200);
      const on = await verify();
      expect(on.code, on.stderr).toBe(0);
      expect(on.stdout).toMatch(/^sync state:\s+plugin \(blogctl-sync 1\.0\.0\)$/m);
    } finally {
      await toggle('inactive');
      await rm(join(plugins, 'blogctl-sync'), { recursive: true, force: true });
    }
  });

  it('wp sites verify says "sync state: marker"', async () => {
    const res = await verify();
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^sync state:\s+marker\b/m);
  });
});
