// A sync people can trust, against real WordPress (pretty and plain permalinks), every run from a new, empty
// config dir: an editor's fix in WordPress reported and never overwritten without --force; an Author account
// refused before anything is sent; the marker invisible on the public page, and a site stripping it refused;
// meta WordPress dropped warned; a post deleted for good published anew though the service replays its
// answer; two overlapping runs against a service ignoring Idempotency-Key ending with one post per source.
import { mkdir, mkdtemp, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/wordpress/client.js';
import { getPost, searchPosts, type WpPostDetail } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { startFaultServer } from '../helpers/fault-server.js';
import { adminLogin, freshRun, siteClient, syncWorld } from '../helpers/sync-project.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';
import { createAuthor } from './users.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-drift', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  link: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe.each(instances)('a sync people can trust ($permalinks permalinks)', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-drift-${wp.permalinks}`;
  let dir: string;
  const reader = siteClient(adminLogin(wp));

  /** A run from a new, empty config dir with the site profile "site" (`username`/`password`: the admin). */
  const fresh = (
    args: string[],
    { service = world.sandbox.url, username = wp.username, password = wp.appPassword, cwd = dir } = {},
  ): Promise<CliResult> =>
    freshRun(args, {
      service: { url: service, apiKey: world.sandbox.apiKey },
      site: { url: wp.baseUrl, username, password },
      profile: 'site',
      spawn: true,
      cwd,
    });
  /** `wp publish --site site <folder>/ --json` and more. */
  const publish = (folder: string, extra: string[] = [], options = {}): Promise<CliResult> =>
    fresh(['wp', 'publish', '--site', 'site', `${folder}/`, '--json', ...extra], options);
  /** A source with a key of its own (its identity never depends on where it lies). */
  async function source(folder: string, name: string, key: string, text: string): Promise<string> {
    await mkdir(join(dir, folder), { recursive: true });
    const file = join(dir, folder, name);
    await writeFile(file, `---\nkey: ${key}-${tag}\nstatus: publish\n${text}`);
    return file;
  }
  /** Every post carrying blogctl's marker and this test's text. */
  const carrying = async (text: string): Promise<WpPostDetail[]> =>
    (await searchPosts(reader, 'blogctl:v1', 'e2e look-up')).filter((p) => p.content?.raw?.includes(text));

  beforeAll(async () => {
    dir = await mkdtemp(join(world.home, `${wp.permalinks}-`));
  });

  it("an editor's fix is reported and kept; the same field edited in the source is a conflict until --force", async () => {
    const file = await source('drift', 'fix.md', 'fix', `---\n# Typo ${tag}\n\nThe body. ${tag}\n`);
    const made = await publish('drift');
    expect(made.code, made.stderr).toBe(0);
    const id = Number(rows(made)[0]!.id);
    // An editor fixes the title in WordPress.
    await reader.route(`wp/v2/posts/${id}`, { method: 'POST', json: { title: `Typo fixed ${tag}` } });

    const plan = await publish('drift', ['--dry-run', '--exit-code']);
    expect(plan.code, plan.stderr).toBe(8);
    expect(rows(plan)[0]).toMatchObject({ action: 'unchanged', edited: ['title'] });

    // The body changes in the source: sent; the editor's title stays.
    await writeFile(
      file,
      `---\nkey: fix-${tag}\nstatus: publish\n---\n# Typo ${tag}\n\nThe body, more. ${tag}\n`,
    );
    const body = await publish('drift');
    expect(body.code, body.stderr).toBe(0);
    expect(rows(body)[0]).toMatchObject({
      action: 'updated',
      id: String(id),
      fields: ['content'],
      edited: ['title'],
    });
    expect((await getPost(reader, id)).title!.raw).toBe(`Typo fixed ${tag}`);

    // The title changes in the source too: a conflict, nothing overwritten, in the plan and the run.
    await writeFile(
      file,
      `---\nkey: fix-${tag}\nstatus: publish\n---\n# Typo, mine ${tag}\n\nThe body, more. ${tag}\n`,
    );
    expect((await publish('drift', ['--dry-run'])).code).toBe(6);
    const modified = (await getPost(reader, id)).modified_gmt;
    const conflict = await publish('drift');
    expect(conflict.code).toBe(6);
    expect(conflict.stderr).toContain(
      `post ${id} was edited on the site (title) and the source changed that field too`,
    );
    expect((await getPost(reader, id)).modified_gmt).toBe(modified);

    const forced = await publish('drift', ['--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(rows(forced)[0]).toMatchObject({ action: 'updated', id: String(id), fields: ['title'] });
    expect((await getPost(reader, id)).title!.raw).toBe(`Typo, mine ${tag}`);
    expect((await publish('drift', ['--exit-code'])).code).toBe(0);
  });

  it('an Author account is refused before anything is sent, naming the role needed', async () => {
    const author = await createAuthor(wp, `drift${RUN_ID}${wp.permalinks}`);
    await source('author', 'a.md', 'author', `---\n# By a bot ${tag}\n\nBot text. ${tag}\n`);
    for (const extra of [['--dry-run'], []]) {
      const res = await publish('author', extra, { username: author.username, password: author.appPassword });
      expect(res.code).toBe(4);
      expect(res.stderr).toContain(
        `the account "${author.username}" (role: author) cannot see other users' posts`,
      );
      expect(res.stderr).toContain('(the Editor or Administrator role); nothing was sent');
    }
    expect(await carrying(`Bot text. ${tag}`)).toEqual([]);
    const verify = await fresh(['wp', 'sites', 'verify', 'site', '--json', 'can'], {
      username: author.username,
      password: author.appPassword,
    });
    expect(JSON.parse(verify.stdout)).toMatchObject({ can: { sync: false } });
  });

  it('the marker adds nothing to the public page; a site that strips it is refused (exit 6)', async () => {
    await source('visible', 'v.md', 'visible', `---\n# Visible ${tag}\n\nFirst.\n\n- one\n- two ${tag}\n`);
    const made = await publish('visible');
    expect(made.code, made.stderr).toBe(0);
    const page = await fetch(rows(made)[0]!.link).then((r) => r.text());
    expect(page).toContain(`two ${tag}`);
    expect(page).toMatch(/<!-- blogctl:v1 [^>]*-->/);
    // No paragraph made for the marker alone, and nothing else after the list.
    expect(page).not.toMatch(/<p>\s*<!-- blogctl:v1 [^>]*-->\s*<\/p>/);
    expect(page).toMatch(new RegExp(`two ${tag}<!-- blogctl:v1 [^>]*--></li>\\s*</ul>`));

    // A plugin stripping HTML comments on save, for this test's posts only.
    const plugin = join(wp.stateDir, 'wp-content', 'mu-plugins', `strip-${tag}.php`);
    await writeFile(
      plugin,
      `<?php\nadd_filter('wp_insert_post_data', function ($data) {\n  if (strpos($data['post_title'], 'Stripped ${tag}') !== false)\n    $data['post_content'] = preg_replace('/<!--.*?-->/s', '', $data['post_content']);\n  return $data;\n});\n`,
    );
    try {
      await source('stripped', 's.md', 'stripped', `---\n# Stripped ${tag}\n\nGone. ${tag}\n`);
      const res = await publish('stripped');
      expect(res.code).toBe(6);
      expect(res.stderr).toMatch(/without blogctl's marker .*a plugin that filters post content on save/);
    } finally {
      await unlink(plugin);
    }
  });

  it('meta WordPress dropped is warned once, then unchanged; a registered key is kept', async () => {
    await source(
      'meta',
      'm.md',
      'meta',
      `meta:\n  blogctl_source: kept ${tag}\n  unregistered_${RUN_ID}: 7\n---\n# Meta ${tag}\n\nMeta. ${tag}\n`,
    );
    const made = await publish('meta');
    expect(made.code, made.stderr).toBe(0);
    expect(rows(made)[0]!.action).toBe('created');
    expect(made.stderr).toContain(`WordPress dropped the meta key unregistered_${RUN_ID}:`);
    const post = await getPost(reader, Number(rows(made)[0]!.id));
    expect(post.meta).toMatchObject({ blogctl_source: `kept ${tag}` });
    // Said once: the next run is unchanged (no exit 8 for ever), until the source's meta changes.
    const again = await publish('meta');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged' });
    expect(again.stderr).not.toContain('WordPress dropped');
  });

  it('a post deleted for good is published anew, though the service replays its first answer', async () => {
    await source('replay', 'r.md', 'replay', `---\n# Replayed ${tag}\n\nAgain. ${tag}\n`);
    const made = await publish('replay');
    const gone = Number(rows(made)[0]!.id);
    await reader.route(`wp/v2/posts/${gone}`, { method: 'DELETE', params: { force: 'true' } });
    const again = await publish('replay');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `the service answered with post ${gone}, which no longer exists on the site`,
    );
    expect(rows(again)[0]!.action).toBe('created');
    const posts = await carrying(`Again. ${tag}`);
    expect(posts.map((p) => String(p.id))).toEqual([rows(again)[0]!.id]);
    expect(rows(await publish('replay'))[0]!.action).toBe('unchanged');
  });

  it('a project: a moved file and a changed key keep their post; a deleted one is orphaned, pruned to the trash only within the namespace', async () => {
    const root = join(dir, 'project');
    await mkdir(join(root, 'posts', 'sub'), { recursive: true });
    await writeFile(
      join(root, 'blogctl.yml'),
      `site: site\nnamespace: e2e-${tag}\ndefaults:\n  status: publish\n`,
    );
    const other = join(dir, 'other');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'blogctl.yml'), `site: site\nnamespace: e2e-other-${tag}\n`);
    await writeFile(join(other, 'theirs.md'), `# Theirs ${tag}\n\nAnother project. ${tag}\n`);
    const inProject = (at: string, extra: string[] = []): Promise<CliResult> =>
      fresh(['wp', 'publish', '--json', ...extra], { cwd: at });
    expect((await inProject(other)).code).toBe(0);

    const body = (n: string): string => `# ${n} ${tag}\n\nThe ${n} body. ${tag}\n`;
    await writeFile(join(root, 'posts', 'move.md'), body('Move'));
    await writeFile(join(root, 'posts', 'key.md'), `---\nkey: first\n---\n${body('Key')}`);
    await writeFile(join(root, 'posts', 'gone.md'), body('Gone'));
    const first = await inProject(root);
    expect(first.code, first.stderr).toBe(0);
    const byName = (res: CliResult, name: string): Row => rows(res).find((r) => r.source.endsWith(name))!;
    const [moving, keyed, gone] = ['move.md', 'key.md', 'gone.md'].map((n) => byName(first, n));

    await rename(join(root, 'posts', 'move.md'), join(root, 'posts', 'sub', 'moved.md'));
    await writeFile(join(root, 'posts', 'key.md'), `---\nkey: second\n---\n${body('Key')}`);
    await unlink(join(root, 'posts', 'gone.md'));
    const plan = await inProject(root, ['--dry-run', '--exit-code']);
    expect(plan.code, plan.stderr).toBe(8);
    expect(rows(plan).map((r) => [r.action, r.id])).toEqual([
      ['move', keyed!.id],
      ['move', moving!.id],
      ['orphaned', gone!.id],
    ]);
    const pruned = await inProject(root, ['--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(rows(pruned).map((r) => [r.action, r.id, r.link])).toEqual([
      ['moved', keyed!.id, keyed!.link],
      ['moved', moving!.id, moving!.link],
      ['pruned', gone!.id, gone!.link],
    ]);
    expect((await getPost(reader, Number(gone!.id))).status).toBe('trash');
    expect((await carrying(`Another project. ${tag}`)).map((p) => p.status)).toEqual(['draft']);
    const after = await inProject(root, ['--exit-code']);
    expect(after.code, after.stderr).toBe(0);
    expect(rows(after).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
  });

  it('two overlapping runs against a service ignoring Idempotency-Key end with one post per source', async () => {
    // Each run sends its first create alone (its look-up is checked before more are made): the gate opens
    // once both runs' first creates have arrived, so both have planned every post before any exists.
    const runs = 2;
    let arrived = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const admin = new WordPressClient({
      websiteUrl: wp.baseUrl,
      username: wp.username,
      password: wp.appPassword,
    });
    // The service relays to the site only once both runs have asked for all their posts: both planned first.
    const service = await startFaultServer({
      relay: async (body) => {
        if (++arrived === runs) open();
        await gate;
        const post = await admin.createPost((JSON.parse(body) as { content: never }).content);
        return { id: post.id, link: post.link ?? '', status: post.status ?? 'publish' };
      },
    });
    try {
      for (const n of [1, 2, 3])
        await source('race', `${n}.md`, `race-${n}`, `---\n# Race ${n} ${tag}\n\nRace. ${tag}\n`);
      const [a, b] = await Promise.all([
        publish('race', [], { service: service.url }),
        publish('race', [], { service: service.url }),
      ]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      // At least one create per source and at most one per source and run.
      expect(service.count('publish')).toBeGreaterThanOrEqual(3);
      expect(service.count('publish')).toBeLessThanOrEqual(6);
      const posts = await carrying(`Race. ${tag}`);
      expect(
        posts.filter((p) => p.status !== 'trash'),
        a.stderr + b.stderr,
      ).toHaveLength(3);
      for (let n = 0; n < 3; n++) {
        const pair = [rows(a)[n]!, rows(b)[n]!];
        expect(pair[0]!.id).toBe(pair[1]!.id);
        expect(pair.map((r) => r.action).sort()).toEqual(['created', 'unchanged']);
      }
    } finally {
      await Promise.all([service.close(), admin.close()]);
    }
  });
});
