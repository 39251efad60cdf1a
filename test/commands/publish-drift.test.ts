// A sync people can trust, in-process against the sandbox (or a service that ignores Idempotency-Key)
// relaying to a fake WordPress: an editor's change reported and never overwritten without --force; the
// marker checked as stored; meta WordPress dropped warned and not taken as sent; a replayed answer naming a
// deleted post published anew; an Author account refused before anything is sent; two overlapping runs
// ending with one post per source.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import {
  startFakeWordPress,
  type FakePost,
  type FakeWordPress,
  type FakeWordPressOptions,
} from '../helpers/fake-wordpress.js';
import { relayTo } from '../helpers/fault-matrix.js';
import { startFaultServer } from '../helpers/fault-server.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { syncWorld, type Run } from '../helpers/sync-project.js';

guardStrayOutput();

// Each test publishes to a fake WordPress of its own (fakeSite), not the world's.
const world = syncWorld('drift', { fakeWordPress: false });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function fakeSite(options: FakeWordPressOptions = {}): Promise<FakeWordPress> {
  const wp = await startFakeWordPress(options);
  closers.push(() => wp.close());
  return wp;
}

interface Setup {
  dir: string;
  wp: FakeWordPress;
  run: Run;
  /** `wp publish --site blog <dir> --json` and more. */
  publish: (...extra: string[]) => Promise<CliResult>;
}

/** A fresh config dir (a new CI runner) with the site profile "blog" on `wp`; a new folder of sources. */
async function setup(wp: FakeWordPress, service = world.sandbox.url): Promise<Setup> {
  const run = await world.runner({ wp, service });
  const dir = mkdtempSync(join(world.home, 'posts-'));
  const publish = (...extra: string[]): Promise<CliResult> =>
    run(['wp', 'publish', '--site', 'blog', dir, '--json', ...extra]);
  return { dir, wp, run, publish };
}

interface Row {
  source: string;
  action: string;
  id: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
const writes = (wp: FakeWordPress): number => wp.requests.filter((r) => r.method !== 'GET').length;
/** A source with a key of its own: its identity never depends on where it lies. */
const post = (key: string, title: string, body: string, front = ''): string =>
  `---\nkey: ${key}\n${front}---\n# ${title}\n\n${body}\n`;

describe('an edit made on the site (drift)', () => {
  it('is reported and kept; the same field changed in the source is a conflict (exit 6) unless --force', async () => {
    const { dir, wp, publish } = await setup(await fakeSite());
    const file = join(dir, 'a.md');
    writeFileSync(file, post('drift-a', 'Hello', 'The body.'));
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const site = wp.posts.find((p) => p.id === Number(rows(first)[0]!.id)) as FakePost;

    // An editor fixes the title in WordPress.
    site.title = 'Hello (typo fixed)';
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code).toBe(8);
    expect(rows(plan)[0]).toMatchObject({ action: 'unchanged', edited: ['title'] });
    const before = writes(wp);
    const kept = await publish();
    expect(kept.code, kept.stderr).toBe(0);
    expect(rows(kept)[0]).toMatchObject({ action: 'unchanged', edited: ['title'] });
    expect(kept.stderr).toMatch(/was edited on the site \(title\): kept as the editor left it/);
    // A run keeps the edit and says so; its --exit-code is 0 (only the plan counts an edit: docs/publishing.md).
    const run = await publish('--exit-code');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/was edited on the site \(title\): kept as the editor left it/);
    expect(writes(wp)).toBe(before);

    // The source's body changes: the body is sent, the editor's title stays.
    writeFileSync(file, post('drift-a', 'Hello', 'The body, longer.'));
    const body = await publish();
    expect(body.code, body.stderr).toBe(0);
    expect(rows(body)[0]).toMatchObject({ action: 'updated', fields: ['content'], edited: ['title'] });
    expect(site.title).toBe('Hello (typo fixed)');
    expect(wp.updates.at(-1)!.fields).toEqual(['content']);

    // The source's title changes too: a conflict, nothing sent, in the plan and in the run.
    writeFileSync(file, post('drift-a', 'Hello again', 'The body, longer.'));
    const sent = writes(wp);
    const conflictPlan = await publish('--dry-run');
    expect(conflictPlan.code).toBe(6);
    expect(rows(conflictPlan)[0]).toMatchObject({ action: 'conflict', edited: ['title'] });
    const conflict = await publish();
    expect(conflict.code).toBe(6);
    expect(conflict.stderr).toContain(
      `post ${site.id} was edited on the site (title) and the source changed that field too: conflict, nothing sent`,
    );
    expect(writes(wp)).toBe(sent);
    expect(site.title).toBe('Hello (typo fixed)');

    // --force: the source wins; then all is in step.
    const forced = await publish('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(rows(forced)[0]).toMatchObject({ action: 'updated', fields: ['title'] });
    expect(site.title).toBe('Hello again');
    const after = await publish('--exit-code');
    expect(after.code, after.stderr).toBe(0);
    expect(rows(after)[0]!.edited).toBeUndefined();
  });

  it("a source that takes over the editor's change is in step again, no conflict", async () => {
    const { dir, wp, publish } = await setup(await fakeSite());
    const file = join(dir, 'b.md');
    writeFileSync(file, post('drift-b', 'Title', 'Body.'));
    const first = await publish();
    const site = wp.posts.find((p) => p.id === Number(rows(first)[0]!.id)) as FakePost;
    site.title = 'Title, edited';
    writeFileSync(file, post('drift-b', 'Title, edited', 'Body.'));
    const caught = await publish();
    expect(caught.code, caught.stderr).toBe(0);
    expect(rows(caught)[0]).toMatchObject({ action: 'updated', fields: ['title'] });
    expect(rows(caught)[0]!.edited).toBeUndefined();
    expect((await publish('--exit-code')).code).toBe(0);
  });
});

describe('what WordPress stored is checked', () => {
  it('a site that strips HTML comments on save: exit 6 naming the likely cause', async () => {
    const { dir, publish } = await setup(await fakeSite({ stripComments: true }));
    writeFileSync(join(dir, 'c.md'), post('strip-c', 'Stripped', 'Body.'));
    const res = await publish();
    expect(res.code).toBe(6);
    expect(res.stderr).toMatch(
      /without blogctl's marker .*a plugin that filters post content on save, stripping HTML comments, is the likely cause/,
    );
  });

  it('meta keys WordPress dropped: a warning naming them, once (not a change on every later run)', async () => {
    const { dir, wp, publish } = await setup(await fakeSite({ registeredMeta: [] }));
    writeFileSync(join(dir, 'm.md'), post('meta-m', 'Meta', 'Body.', 'meta:\n  views: 5\n  rank: 2\n'));
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first)[0]!.action).toBe('created');
    expect(first.stderr).toContain('WordPress dropped the meta keys rank, views');
    expect(String(wp.posts[0]!['content'])).toMatch(/<!-- blogctl:v1 /);
    // Said once: the next runs are unchanged (no exit 8 for ever), until the source's meta changes.
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged' });
    expect(again.stderr).not.toContain('WordPress dropped');
    // The source's meta changes: sent (and warned about) once more, then unchanged again.
    writeFileSync(join(dir, 'm.md'), post('meta-m', 'Meta', 'Body.', 'meta:\n  views: 6\n  rank: 2\n'));
    const changed = await publish();
    expect(changed.code, changed.stderr).toBe(0);
    expect(rows(changed)[0]).toMatchObject({ action: 'updated', fields: ['meta'] });
    expect(changed.stderr).toContain('WordPress dropped the meta keys rank, views');
    const settled = await publish('--exit-code');
    expect(settled.code, settled.stderr).toBe(0);
    expect(rows(settled)[0]).toMatchObject({ action: 'unchanged' });
    expect(settled.stderr).not.toContain('WordPress dropped');
  });

  it('an answer replayed for a post since deleted for good: detected, published anew', async () => {
    const { dir, wp, publish } = await setup(await fakeSite());
    writeFileSync(join(dir, 'r.md'), post('replay-r', 'Replayed', 'Body.'));
    const first = await publish();
    const gone = Number(rows(first)[0]!.id);
    // Deleted for good in WordPress; the service still holds its answer for the same Idempotency-Key.
    wp.posts.splice(
      wp.posts.findIndex((p) => p.id === gone),
      1,
    );
    const again = await publish();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `the service answered with post ${gone}, which no longer exists on the site (deleted for good): published anew`,
    );
    const row = rows(again)[0]!;
    expect(row.action).toBe('created');
    expect(Number(row.id)).not.toBe(gone);
    expect(wp.posts.map((p) => p.id)).toEqual([Number(row.id)]);
    expect(rows(await publish())[0]!.action).toBe('unchanged');
  });
});

describe('what the account can see', () => {
  it('an Author is refused before anything is sent (exit 4, naming the role); verify says "can sync"', async () => {
    const author = await setup(await fakeSite({ role: 'author' }));
    writeFileSync(join(author.dir, 'x.md'), post('author-x', 'By an author', 'Body.'));
    for (const extra of [['--dry-run'], []]) {
      const res = await author.publish(...extra);
      expect(res.code).toBe(4);
      expect(res.stderr).toMatch(
        /^error: the account "admin" \(role: author\) cannot see other users' posts .*edit_others_posts capability \(the Editor or Administrator role\); nothing was sent/m,
      );
    }
    expect(author.wp.requests.filter((r) => decodeURIComponent(r.url).includes('wp/v2/posts'))).toEqual([]);
    expect(author.wp.posts).toEqual([]);
    const verify = await author.run(['wp', 'sites', 'verify', 'blog']);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/^can sync: +no$/m);
    expect(verify.stderr).toContain("this user cannot see other users' posts");

    const editor = await setup(await fakeSite({ role: 'editor' }));
    const ok = await editor.run(['wp', 'sites', 'verify', 'blog', '--json']);
    expect(JSON.parse(ok.stdout)).toMatchObject({ can: { sync: true } });
  });
});

describe('two runs at the same moment, against a service that ignores Idempotency-Key', () => {
  it('end with one post per source: the later post deleted by the run that made it, the survivor reported', async () => {
    // Both runs look the site up before either has created anything.
    const wp = await fakeSite({ searchBarrier: 2 });
    const service = await startFaultServer({ relay: (body) => relayTo(wp, body) });
    closers.push(() => service.close());
    const [a, b] = await Promise.all([setup(wp, service.url), setup(wp, service.url)]);
    for (const { dir } of [a, b])
      for (const n of [1, 2, 3]) writeFileSync(join(dir, `${n}.md`), post(`race-${n}`, `Race ${n}`, 'Body.'));
    const [ra, rb] = await Promise.all([a.publish(), b.publish()]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(service.count('publish'), 'both runs created every post').toBe(6);
    expect(wp.posts).toHaveLength(3);
    const kept = wp.posts.map((p) => String(p.id)).sort();
    for (let n = 0; n < 3; n++) {
      const pair = [rows(ra)[n]!, rows(rb)[n]!];
      // Both runs report the one post that stays; exactly one of them made it.
      expect(pair[0]!.id).toBe(pair[1]!.id);
      expect(kept).toContain(pair[0]!.id);
      expect(pair.map((r) => r.action).sort()).toEqual(['created', 'unchanged']);
    }
    expect(ra.stderr + rb.stderr).toMatch(
      /another run published this source at the same moment as post \d+: kept/,
    );
    expect(wp.requests.filter((r) => r.method === 'DELETE' && r.url.includes('force=true'))).toHaveLength(3);
  });
});
