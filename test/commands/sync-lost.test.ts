// Without the companion plugin nothing is duplicated (issue 30 item 3): a file whose post lost its marker is
// never published as a second post. In-process against the sandbox relaying to a fake WordPress.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { siteFolders, syncWorld, writesTo } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('lost', { fakeWordPress: false });
const { fakeSite, folder } = siteFolders(world);

interface Row {
  source: string;
  action: string;
  id?: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe('a post that lost its marker', () => {
  it('is never published again as a second post: a conflict (exit 6) naming it and how to re-link', async () => {
    const wp = await fakeSite();
    const { dir, publish } = await folder(wp);
    writeFileSync(
      join(dir, 'a.md'),
      '---\nkey: lost\nstatus: publish\n---\n# Lost Marker\n\nThe last paragraph.\n',
    );
    writeFileSync(join(dir, 'b.md'), '---\nkey: kept\nstatus: publish\n---\n# Kept Marker\n\nBody.\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const post = wp.posts.find((p) => p.title === 'Lost Marker')!;
    // An editor rewrites the last paragraph, the marker with it.
    post['content'] = '<p>The last paragraph, rewritten by an editor.</p>';
    const before = writesTo(wp);
    const plan = await publish('--dry-run');
    expect(plan.code, plan.stderr).toBe(6);
    expect(rows(plan).map((r) => r.action)).toEqual(['conflict', 'unchanged']);
    {
      const res = await publish();
      expect(res.code, res.stderr).toBe(6);
      expect(res.stderr).toContain(
        `post ${post.id} (publish, ${wp.url}/lost-marker/) holds the slug "lost-marker" this source would get, and carries no blogctl marker`,
      );
      expect(res.stderr).toMatch(
        /to re-link this source to post \d+, restore in WordPress its latest revision that ends with blogctl.s marker comment/,
      );
      expect(rows(res).map((r) => r.action)).toEqual(['failed', 'unchanged']);
    }
    expect(writesTo(wp)).toBe(before);
    expect(wp.posts).toHaveLength(2);
  });

  it("a post carrying blogctl's marker (another source's, another project's) holding the slug is no conflict", async () => {
    const wp = await fakeSite();
    const one = await folder(wp);
    const two = await folder(wp);
    writeFileSync(join(one.dir, 'a.md'), '---\nkey: one\nstatus: publish\n---\n# Same Title\n\nOne.\n');
    writeFileSync(join(two.dir, 'a.md'), '---\nstatus: publish\nkey: other\n---\n# Same Title\n\nTwo.\n');
    expect((await one.publish()).code).toBe(0);
    const res = await two.publish();
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]!.action).toBe('created');
  });
});

describe('a look-up that cannot find what the run creates (a search plugin)', () => {
  it('stops after the first create (exit 6), naming the likely cause and the fix; nothing else is created', async () => {
    const wp = await fakeSite({ searchTitlesOnly: true });
    const { dir, publish } = await folder(wp);
    for (const n of [1, 2, 3])
      writeFileSync(
        join(dir, `${n}.md`),
        `---\nkey: search-${n}\nstatus: publish\n---\n# Search ${n}\n\nBody.\n`,
      );
    const res = await publish();
    expect(res.code, res.stderr).toBe(6);
    expect(wp.posts).toHaveLength(1);
    expect(res.stderr).toContain(
      `post ${wp.posts[0]!.id}, just created, is not found by blogctl's look-up (WordPress's search for its marker does not return it): a search plugin`,
    );
    expect(res.stderr).toMatch(/not created: post \d+, just created, is not found/);
    expect(rows(res).map((r) => r.action)).toEqual(['created', 'failed', 'failed']);
    expect(JSON.parse(res.stdout)[0].error).toMatch(/companion|search plugin/);
  });

  it('a site whose search works: one more look-up after the first create, all created', async () => {
    const wp = await fakeSite();
    const { dir, publish } = await folder(wp);
    for (const n of [1, 2, 3])
      writeFileSync(
        join(dir, `${n}.md`),
        `---\nkey: works-${n}\nstatus: publish\n---\n# Works ${n}\n\nBody.\n`,
      );
    const res = await publish();
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res).map((r) => r.action)).toEqual(['created', 'created', 'created']);
    expect(wp.posts).toHaveLength(3);
  });
});

describe('the next run on a site whose search misses the markers', () => {
  it('finds its posts by their slugs and refuses to publish them again (exit 6): no duplicate', async () => {
    const wp = await fakeSite({ searchTitlesOnly: true });
    const { dir, publish } = await folder(wp);
    writeFileSync(join(dir, '1.md'), '---\nkey: again-1\nstatus: publish\n---\n# Again\n\nBody.\n');
    expect((await publish()).code).toBe(6);
    const next = await publish();
    expect(next.code, next.stderr).toBe(6);
    expect(next.stderr).toContain(
      `post ${wp.posts[0]!.id} carries this source's marker, but blogctl's look-up`,
    );
    expect(wp.posts).toHaveLength(1);
  });
});

describe('a post in a status a plugin registers', () => {
  it('is found by the look-up (statuses read from the site): no duplicate', async () => {
    const wp = await fakeSite({ customStatuses: ['in-progress'] });
    const { dir, publish } = await folder(wp);
    writeFileSync(join(dir, 'c.md'), '---\nkey: custom\n---\n# Custom Status\n\nBody.\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    // An editor moves it to PublishPress's "in progress".
    wp.posts[0]!.status = 'in-progress';
    const again = await publish();
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({
      action: 'unchanged',
      id: String(wp.posts[0]!.id),
      edited: ['status'],
    });
    expect(wp.posts).toHaveLength(1);
    const lookUp = wp.requests.filter((r) => r.url.includes('search=')).at(-1)!;
    expect(new URL(lookUp.url, wp.url).searchParams.get('status')!.split(',')).toContain('in-progress');
  });
});
