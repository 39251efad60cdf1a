// The plan is the run (issue 30 item 8): `--dry-run` says every warning and error the run would (the
// conflicts of the slug checks with their messages, the duplicate post), and a folder's input errors come in
// one report. In-process against the sandbox relaying to a fake WordPress.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { siteFolders, syncWorld, writesTo } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('plan-run', { fakeWordPress: false });
const { fakeSite, folder } = siteFolders(world);

interface Row {
  source: string;
  action: string;
  id?: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

/** stderr's lines that are warnings or errors, without the run's own summary lines. */
const said = (res: CliResult): string[] =>
  res.stderr.split('\n').filter((l) => /^(warning|error|note)/.test(l.trim()));

describe('--dry-run', () => {
  it("says the slug check's conflict and the duplicate post as the run does", async () => {
    const wp = await fakeSite();
    const { dir, publish } = await folder(wp);
    writeFileSync(join(dir, 'a.md'), '---\nkey: lost\nstatus: publish\n---\n# Lost One\n\nLast.\n');
    writeFileSync(join(dir, 'b.md'), '---\nkey: twin\nstatus: publish\n---\n# Twin\n\nBody.\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const lost = wp.posts.find((p) => p.title === 'Lost One')!;
    const twin = wp.posts.find((p) => p.title === 'Twin')!;
    // An editor rewrites the last paragraph (the marker with it); a copy of the twin is made by hand.
    lost['content'] = '<p>Rewritten by an editor.</p>';
    wp.posts.push({ ...twin, id: 9001, slug: 'twin-2' });
    const before = writesTo(wp);

    const plan = await publish('--dry-run');
    const run = await publish();
    expect(writesTo(wp)).toBe(before);
    for (const res of [plan, run]) {
      expect(res.code, res.stderr).toBe(6);
      expect(res.stderr).toContain(
        `post ${lost.id} (publish, ${wp.url}/lost-one/) holds the slug "lost-one" this source would get, and carries no blogctl marker`,
      );
      expect(res.stderr).toContain(
        `post 9001 (publish) carries the same source; only post ${twin.id} is kept in step: delete the other in WordPress`,
      );
    }
    expect(rows(plan).map((r) => r.action)).toEqual(['conflict', 'unchanged']);
    // The plan's warnings are the run's.
    const warnings = (res: CliResult): string[] => said(res).filter((l) => l.includes('carries the same'));
    expect(warnings(plan)).toEqual(warnings(run));
  });
});

describe("a folder's input errors", () => {
  it('come in one report, each with its file and line: fields, a bad status, a duplicate, an unknown tag', async () => {
    const wp = await fakeSite();
    const { dir, publish } = await folder(wp);
    writeFileSync(join(dir, 'a.md'), '---\nkey: a\nstatus: sideways\n---\n# A\n\nBody.\n');
    writeFileSync(join(dir, 'b.md'), '---\nkey: b\ntags:\n  - no-such-tag\n---\n# B\n\nBody.\n');
    writeFileSync(join(dir, 'c.md'), '---\nkey: same\n---\n# C\n\nBody.\n');
    writeFileSync(join(dir, 'd.md'), '---\nkey: same\n---\n# D\n\nBody.\n');
    writeFileSync(join(dir, 'e.md'), '---\nkey: e\nsticky: maybe\n---\n# E\n\nBody.\n');
    for (const extra of [['--dry-run'], []]) {
      const before = writesTo(wp);
      const res = await publish(...extra);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(/a\.md:3: status: /);
      expect(res.stderr).toMatch(/e\.md:3: sticky: /);
      expect(res.stderr).toMatch(/c\.md.*d\.md|d\.md.*c\.md/);
      expect(res.stderr).toMatch(/b\.md:3: unknown tag: no-such-tag/);
      expect(res.stderr).toContain('nothing was published');
      expect(writesTo(wp)).toBe(before);
      expect(wp.posts).toHaveLength(0);
    }
  });
});
