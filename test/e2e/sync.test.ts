// Publishing as a sync, against real WordPress (pretty and plain permalinks), every run from a NEW, EMPTY
// config dir — as a fresh CI runner has: the site alone knows what was published. A folder published twice
// makes no new post; an edit updates exactly that post in place (same id and link); a new title keeps the
// post; three same-title files in a batch killed mid-way become three posts, each with its own body; an
// editor's post with a clashing slug is never overwritten; a date without an offset is the site's local
// time; --dry-run shows the plan and writes nothing; the marker survives an edit made the way WordPress's
// block editor saves (the whole content PUT back, by an Author without unfiltered_html too), drafts,
// scheduled and trashed posts; an update of the title keeps the body an editor wrote; a scheduled post
// whose date has passed is left alone.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMarker, stripMarker } from '../../src/publishing/identity.js';
import { relaysInFlight } from '../../src/sandbox/relay.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { getPost, searchPosts, type WpPostDetail } from '../../src/wordpress/posts.js';
import { BIN, cliEnv, runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, siteClient, syncWorld } from '../helpers/sync-project.js';
import { waitFor } from '../helpers/wait.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';
import { createAuthor } from './users.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-sync', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  link: string;
  status: string;
  fields?: string[];
  edited?: string[];
}

describe.each(instances)(
  'wp publish in step with WordPress ($permalinks permalinks)',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-sync-${wp.permalinks}`;
    /**
     * Every file lives under a folder of this run's own, in a git work tree: a source is its path relative to
     * the work tree's root, and a WordPress kept from an earlier run (BLOGCTL_E2E_KEEP=1) still holds that
     * run's posts.
     */
    const R = `run-${tag}`;
    let dir: string;
    const reader = siteClient(adminLogin(wp));

    /** A run from a new, empty config dir (a fresh CI runner): the site profile is added, then `args` run. */
    const fresh = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
      freshRun(args, {
        service: world.sandbox,
        site: adminLogin(wp),
        profile: 'site',
        spawn: true,
        env,
        cwd: dir,
      });
    const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
    /** `wp publish --site site <this run's folder>/` with more arguments, from a new config dir. */
    const publishFolder = (
      folder: string,
      args: string[],
      env: Record<string, string> = {},
    ): Promise<CliResult> => fresh(['wp', 'publish', '--site', 'site', `${R}/${folder}/`, ...args], env);
    /** Every post carrying blogctl's marker whose title has this run's tag. */
    const ours = async (): Promise<WpPostDetail[]> =>
      (await searchPosts(reader, 'blogctl:v1', 'e2e look-up')).filter((p) => p.content?.raw?.includes(tag));

    beforeAll(async () => {
      dir = await mkdtemp(join(world.home, `${wp.permalinks}-`));
      await mkdir(join(dir, '.git'));
    });

    it('a folder published twice makes no new post; an edit updates exactly that post in place; a new title keeps it', async () => {
      await mkdir(join(dir, R, 'posts'), { recursive: true });
      await writeFile(
        join(dir, R, 'posts', 'espresso.md'),
        `# Espresso basics ${tag}\n\nPull a shot. ${tag}\n`,
      );
      await writeFile(join(dir, R, 'posts', 'grinders.md'), `# Grinders ${tag}\n\nBurr or blade. ${tag}\n`);
      await writeFile(join(dir, R, 'posts', 'notes.txt'), 'not a post');
      const first = await publishFolder('posts', ['--status', 'publish', '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain(`skipped ${R}/posts/notes.txt`);
      const created = rows(first);
      expect(created.map((r) => [r.source, r.action])).toEqual([
        [`${R}/posts/espresso.md`, 'created'],
        [`${R}/posts/grinders.md`, 'created'],
      ]);

      const second = await publishFolder('posts', ['--status', 'publish', '--json']);
      expect(second.code, second.stderr).toBe(0);
      expect(rows(second).map((r) => [r.action, r.id])).toEqual(created.map((r) => ['unchanged', r.id]));
      expect(await ours()).toHaveLength(2);

      // A typo fixed: that post, same id and link; the other one untouched.
      const grinders = await getPost(reader, Number(created[1]!.id));
      await writeFile(
        join(dir, R, 'posts', 'espresso.md'),
        `# Espresso basics ${tag}\n\nPull a good shot. ${tag}\n`,
      );
      const plan = await publishFolder('posts', ['--status', 'publish', '--dry-run', '--json']);
      expect(plan.code, plan.stderr).toBe(0);
      expect(rows(plan).map((r) => [r.action, r.fields])).toEqual([
        ['update', ['content']],
        ['unchanged', undefined],
      ]);
      const edited = await publishFolder('posts', ['--status', 'publish', '--json']);
      expect(edited.code, edited.stderr).toBe(0);
      expect(rows(edited)[0]).toMatchObject({
        action: 'updated',
        id: created[0]!.id,
        link: created[0]!.link,
        fields: ['content'],
      });
      expect(rows(edited)[1]).toMatchObject({ action: 'unchanged', id: created[1]!.id });
      const espresso = await getPost(reader, Number(created[0]!.id));
      expect(stripMarker(espresso.content!.raw!)).toBe(`<p>Pull a good shot. ${tag}</p>`);
      expect((await getPost(reader, Number(created[1]!.id))).modified_gmt).toBe(grinders.modified_gmt);

      // A new title: the same post.
      await writeFile(
        join(dir, R, 'posts', 'espresso.md'),
        `# Espresso, the basics ${tag}\n\nPull a good shot. ${tag}\n`,
      );
      const renamed = await publishFolder('posts', ['--status', 'publish', '--json']);
      expect(rows(renamed)[0]).toMatchObject({ action: 'updated', id: created[0]!.id, fields: ['title'] });
      expect((await getPost(reader, Number(created[0]!.id))).title?.raw).toBe(`Espresso, the basics ${tag}`);
      expect(await ours()).toHaveLength(2);
    });

    it('three same-title files, the batch killed mid-way and run again: three posts, each with its own body', async () => {
      await mkdir(join(dir, R, 'digest'), { recursive: true });
      for (const day of ['monday', 'tuesday', 'wednesday'])
        await writeFile(
          join(dir, R, 'digest', `${day}.md`),
          `# Weekly digest ${tag}\n\nThe ${day} edition. ${tag}\n`,
        );
      const countDigest = async (): Promise<WpPostDetail[]> =>
        (await ours()).filter((p) => p.content?.raw?.includes('edition.'));
      // The first run, killed (SIGKILL: no clean-up at all) once the first post is on the site.
      const env = cliEnv({ BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_API_KEY: world.sandbox.apiKey });
      const add = await runCli(
        ['wp', 'sites', 'add', 'site', '--url', wp.baseUrl, '--username', wp.username, '--password-stdin'],
        { env, input: `${wp.appPassword}\n` },
      );
      expect(add.code, add.stderr).toBe(0);
      const child = spawn(
        process.execPath,
        [
          BIN,
          '--base-url',
          world.sandbox.url,
          'wp',
          'publish',
          '--site',
          'site',
          `${R}/digest/`,
          '--concurrency',
          '1',
        ],
        { env, cwd: dir, stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await waitFor(async () => (await countDigest()).length >= 1, 'the first digest post on the site', {
        timeoutMs: 60_000,
        everyMs: 50,
      });
      child.kill('SIGKILL');
      await exited;
      // A post the sandbox was relaying when the CLI died still lands: once the dead CLI's connections are
      // closed no request can arrive, and once no relay is under way nothing more can land.
      await waitFor(
        () => world.sandbox.connections() === 0 && relaysInFlight() === 0,
        "the sandbox's relays of the killed run to end",
        { timeoutMs: 60_000 },
      );
      const afterKill = (await countDigest()).length;
      expect(afterKill).toBeGreaterThanOrEqual(1);

      const again = await publishFolder('digest', ['--json']);
      expect(again.code, again.stderr).toBe(0);
      const result = rows(again);
      expect(result.filter((r) => r.action === 'unchanged').length).toBe(afterKill);
      expect(result.filter((r) => r.action === 'created').length).toBe(3 - afterKill);
      const posts = await countDigest();
      expect(posts).toHaveLength(3);
      const bodies = posts.map((p) => /The (\w+) edition/.exec(p.content!.raw!)![1]).sort();
      expect(bodies).toEqual(['monday', 'tuesday', 'wednesday']);
      for (const r of result) {
        const post = posts.find((p) => String(p.id) === r.id)!;
        expect(post.content!.raw).toContain(`The ${r.source.replace(/^.*\/|\.md$/g, '')} edition`);
      }
    });

    it("an editor's post with the slug a file asks for is never overwritten nor reported as the file's", async () => {
      const slug = `editors-pick-${tag}`.toLowerCase();
      const editor = await reader.route('wp/v2/posts', {
        method: 'POST',
        json: {
          title: `An editor's post ${tag}`,
          content: '<p>Written in WordPress.</p>',
          status: 'publish',
          slug,
        },
      });
      const editorId = (editor.body as { id: number }).id;
      await mkdir(join(dir, R, 'clash'), { recursive: true });
      await writeFile(
        join(dir, R, 'clash', 'pick.md'),
        `---\nslug: ${slug}\n---\n# Pick ${tag}\n\nFrom a file. ${tag}\n`,
      );
      const res = await publishFolder('clash', ['--json']);
      expect(res.code).toBe(6);
      expect(rows(res)[0]).toMatchObject({ action: 'failed' });
      expect(res.stderr).toContain(`belongs to post ${editorId}`);
      const after = await getPost(reader, editorId);
      expect(after.content?.raw).toBe('<p>Written in WordPress.</p>');
      expect(after.title?.raw).toBe(`An editor's post ${tag}`);
      const plan = await publishFolder('clash', ['--dry-run', '--json']);
      expect(plan.code).toBe(6);
      expect(rows(plan)[0]).toMatchObject({ action: 'conflict', id: String(editorId) });
    });

    it("a date without an offset is the site's local time: 09:00 in Berlin with this machine on UTC", async () => {
      const settings = async (timezone: string): Promise<void> => {
        await reader.route('wp/v2/settings', { method: 'POST', json: { timezone } });
      };
      await settings('Europe/Berlin');
      try {
        await mkdir(join(dir, R, 'dated'), { recursive: true });
        await writeFile(
          join(dir, R, 'dated', 'berlin.md'),
          `---\nstatus: future\ndate: 2027-01-15T09:00:00\n---\n# Berlin ${tag}\n\nAt nine. ${tag}\n`,
        );
        const res = await publishFolder('dated', ['--json'], { TZ: 'UTC' });
        expect(res.code, res.stderr).toBe(0);
        const post = await getPost(reader, Number(rows(res)[0]!.id));
        expect(post).toMatchObject({
          status: 'future',
          date: '2027-01-15T09:00:00',
          date_gmt: '2027-01-15T08:00:00',
        });
        // An offset is an instant, whatever the site's zone.
        await writeFile(
          join(dir, R, 'dated', 'berlin.md'),
          `---\nstatus: future\ndate: 2027-01-15T09:00:00Z\n---\n# Berlin ${tag}\n\nAt nine. ${tag}\n`,
        );
        const utc = await publishFolder('dated', ['--json'], { TZ: 'UTC' });
        expect(rows(utc)[0]).toMatchObject({
          action: 'updated',
          id: rows(res)[0]!.id,
          fields: ['date', 'date_gmt'],
        });
        expect(await getPost(reader, Number(rows(res)[0]!.id))).toMatchObject({
          date: '2027-01-15T10:00:00',
          date_gmt: '2027-01-15T09:00:00',
        });
        // Both dates at once: WordPress takes `date` and ignores `date_gmt` (here 3 h apart from it), so
        // blogctl refuses the pair rather than have one dropped silently.
        const both = await reader.route('wp/v2/posts', {
          method: 'POST',
          json: {
            title: `Both dates ${tag}`,
            status: 'draft',
            date: '2027-01-15T09:00:00',
            date_gmt: '2027-01-15T05:00:00',
          },
        });
        expect(both.body).toMatchObject({ date: '2027-01-15T09:00:00', date_gmt: '2027-01-15T08:00:00' });
        await reader.route(`wp/v2/posts/${(both.body as { id: number }).id}`, {
          method: 'DELETE',
          query: { force: true },
        });
        await writeFile(
          join(dir, R, 'dated', 'berlin.md'),
          `---\nstatus: future\ndate: 2027-01-15T09:00:00\ndate_gmt: 2027-01-15T05:00:00\n---\n# Berlin ${tag}\n\nAt nine. ${tag}\n`,
        );
        const refused = await publishFolder('dated', ['--dry-run']);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toMatch(/give \S*berlin\.md:3: date or \S*berlin\.md:4: date_gmt, not both/);
      } finally {
        await settings('UTC');
      }
    });

    it('--dry-run reads the site and writes nothing; the marker survives an editor saving the whole content', async () => {
      await mkdir(join(dir, R, 'dry'), { recursive: true });
      await writeFile(
        join(dir, R, 'dry', 'draft.md'),
        `---\nstatus: draft\n---\n# Draft ${tag}\n\nA draft. ${tag}\n`,
      );
      const plan = await publishFolder('dry', ['--dry-run', '--json']);
      expect(plan.code, plan.stderr).toBe(0);
      expect(rows(plan)).toEqual([
        expect.objectContaining({ source: `${R}/dry/draft.md`, action: 'create', id: null }),
      ]);
      expect((await ours()).filter((p) => p.content?.raw?.includes('A draft.'))).toEqual([]);

      const made = await publishFolder('dry', ['--json']);
      const id = Number(rows(made)[0]!.id);
      // WordPress's block editor saves the whole content: the marker kept inside an HTML block, text edited.
      const raw = (await getPost(reader, id)).content!.raw!;
      const marker = /<!-- blogctl:v1 [^>]*-->/.exec(raw)![0];
      await reader.route(`wp/v2/posts/${id}`, {
        method: 'POST',
        json: {
          content: `<!-- wp:paragraph -->\n<p>Edited in WordPress. ${tag}</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:html -->\n${marker}\n<!-- /wp:html -->`,
        },
      });
      expect(readMarker((await getPost(reader, id)).content!.raw!)).toEqual(readMarker(raw));
      // The file did not change: the editor's edit stands.
      const same = await publishFolder('dry', ['--json']);
      expect(rows(same)[0]).toMatchObject({ action: 'unchanged', id: String(id) });
      // The post in the trash: left there, never made again.
      await reader.route(`wp/v2/posts/${id}`, { method: 'DELETE' });
      const trashed = await publishFolder('dry', ['--json', '--exit-code']);
      expect(trashed.code).toBe(8);
      expect(rows(trashed)[0]).toMatchObject({ action: 'trashed', id: String(id) });
      expect(
        (await ours()).filter(
          (p) => p.content?.raw?.includes('A draft.') || p.content?.raw?.includes('Edited in'),
        ),
      ).toHaveLength(1);
    });

    it("an Author's edit in the block editor's shape keeps the marker; a title change keeps that body; a past-due scheduled post stays unchanged", async () => {
      // An Author has no unfiltered_html: kses filters what it saves, and the block editor saves through REST.
      const author = await createAuthor(wp, `sync${RUN_ID}${wp.permalinks}`);
      const editor = new WordPressClient({
        websiteUrl: wp.baseUrl,
        username: author.username,
        password: author.appPassword,
      });
      try {
        const me = (await editor.route('wp/v2/users/me', { method: 'GET' })).body as { id: number };
        await mkdir(join(dir, R, 'edit'), { recursive: true });
        const kept = join(dir, R, 'edit', 'kept.md');
        await writeFile(
          kept,
          `---\nauthor: ${me.id}\nstatus: publish\n---\n# Kept ${tag}\n\nThe source body. ${tag}\n`,
        );
        // Published while its date was ahead: --allow-immediate stands in for the clock having moved on.
        await writeFile(
          join(dir, R, 'edit', 'due.md'),
          `---\nstatus: future\ndate: 2020-01-01T10:00:00Z\n---\n# Due ${tag}\n\nScheduled once. ${tag}\n`,
        );
        const made = await publishFolder('edit', ['--allow-immediate', '--json']);
        expect(made.code, made.stderr).toBe(0);
        expect(rows(made).map((r) => r.action)).toEqual(['created', 'created']);
        const id = Number(rows(made)[1]!.id);

        // The Author rewrites the body as the block editor saves it: blocks, the marker in an HTML block.
        const raw = (await getPost(reader, id)).content!.raw!;
        const marker = /<!-- blogctl:v1 [^>]*-->/.exec(raw)![0];
        const edited = `<!-- wp:paragraph -->\n<p>Edited by the Author. ${tag}</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:html -->\n${marker}\n<!-- /wp:html -->`;
        await editor.route(`wp/v2/posts/${id}`, { method: 'POST', json: { content: edited } });
        expect((await getPost(reader, id)).content!.raw).toBe(edited);

        const same = await publishFolder('edit', ['--json']);
        expect(same.code, same.stderr).toBe(0);
        expect(rows(same).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);

        await writeFile(
          kept,
          `---\nauthor: ${me.id}\nstatus: publish\n---\n# Kept, renamed ${tag}\n\nThe source body. ${tag}\n`,
        );
        const retitled = await publishFolder('edit', ['--json']);
        expect(retitled.code, retitled.stderr).toBe(0);
        expect(rows(retitled)[1]).toMatchObject({ action: 'updated', id: String(id), fields: ['title'] });
        const after = (await getPost(reader, id)).content!.raw!;
        expect(after).toContain(`<p>Edited by the Author. ${tag}</p>`);
        expect(after).not.toContain('The source body');
        expect(after).toMatch(/<!-- wp:html -->\n<!-- blogctl:v1 [^>]*-->\n<!-- \/wp:html -->$/);
        expect(readMarker(after)!.sums['title']).not.toBe(readMarker(raw)!.sums['title']);
        // The Author's body is an edit on the site: reported (and counted), never overwritten.
        const again = await publishFolder('edit', ['--dry-run', '--exit-code', '--json']);
        expect(again.code, again.stderr).toBe(8);
        expect(rows(again).map((r) => [r.action, r.edited])).toEqual([
          ['unchanged', undefined],
          ['unchanged', ['content']],
        ]);
      } finally {
        await editor.close();
      }
    });
  },
);
