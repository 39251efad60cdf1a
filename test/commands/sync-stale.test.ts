// Stale runs change nothing (issue 30 item 5): each write records the git commit of the sources; a run of an
// older commit (a CI job re-run) sends nothing and trashes nothing, exit 6 naming both commits, unless
// --force; where history cannot tell (a shallow clone), commit dates decide. Real git repositories in a temp
// folder; in-process against the sandbox relaying to a fake WordPress.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { git } from '../helpers/git.js';
import { syncWorld, type Run } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('stale');

interface Row {
  source: string;
  action: string;
  id: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

/**
 * A repository with two commits: `older` (a.md "One") and `newer` (a.md "Two", b.md new), a branch `old` at
 * the older one. Returns its root and both commits.
 */
function twoCommits(ns: string): { root: string; older: string; newer: string } {
  const root = mkdtempSync(join(world.home, 'repo-'));
  git(root, ['init', '-q', '-b', 'main']);
  writeFileSync(join(root, 'blogctl.yml'), `site: blog\nnamespace: ${ns}\n`);
  git(root, ['config', 'core.hooksPath', '/dev/null']);
  mkdirSync(join(root, 'posts'));
  writeFileSync(join(root, 'posts', 'a.md'), '---\nkey: a\nstatus: publish\n---\n# A\n\nOne.\n');
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'older'], 1_700_000_000);
  const older = git(root, ['rev-parse', 'HEAD']);
  writeFileSync(join(root, 'posts', 'a.md'), '---\nkey: a\nstatus: publish\n---\n# A\n\nTwo.\n');
  writeFileSync(join(root, 'posts', 'b.md'), '---\nkey: b\nstatus: publish\n---\n# B\n\nNew.\n');
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'newer'], 1_700_000_100);
  const newer = git(root, ['rev-parse', 'HEAD']);
  git(root, ['branch', 'old', older]);
  return { root, older, newer };
}

const publishIn =
  (run: Run, cwd: string) =>
  (...extra: string[]): Promise<CliResult> =>
    run(['wp', 'publish', '--json', ...extra], { cwd });

/** The fake site's posts as they stand, to prove a run changed nothing. */
const snapshot = (): string => JSON.stringify(world.wp.posts);

describe('a run of an older commit', () => {
  it('changes nothing and exits 6 naming both commits; --dry-run says the same; --force publishes', async () => {
    const { root, older, newer } = twoCommits('stale-one');
    const run = await world.runner();
    const publish = publishIn(run, root);
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const [a, b] = rows(first);
    const postA = world.wp.posts.find((p) => String(p.id) === a!.id)!;
    expect(String(postA['content'])).toContain(`commit.${newer}`);

    git(root, ['checkout', '-q', older]);
    const before = snapshot();
    const updates = world.wp.updates.length;
    for (const extra of [[], ['--dry-run'], ['--prune']]) {
      const stale = await publish(...extra);
      expect(stale.code, `${extra.join(' ')}: ${stale.stderr}`).toBe(6);
      expect(stale.stderr).toContain(
        `this run is at commit ${older.slice(0, 7)}, older than commit ${newer.slice(0, 7)}`,
      );
      expect(stale.stderr).toContain('--force');
      expect(snapshot()).toBe(before);
      expect(world.wp.updates.length).toBe(updates);
    }
    // --prune of the older commit did not trash the post the newer one created.
    expect(world.wp.posts.find((p) => String(p.id) === b!.id)!.status).toBe('publish');

    const forced = await publish('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(rows(forced)[0]).toMatchObject({ action: 'updated', id: a!.id });
    expect(String(postA['content'])).toContain('One.');
    expect(String(postA['content'])).toContain(`commit.${older}`);

    // Back at the newest commit: a newer run goes on as ever.
    git(root, ['checkout', '-q', 'main']);
    const again = await publish('--prune');
    expect(again.code, again.stderr).toBe(0);
    expect(String(postA['content'])).toContain('Two.');
  });

  it('an older run with nothing to change is not refused; a file outside git records no commit', async () => {
    const { root, older, newer } = twoCommits('stale-same');
    const run = await world.runner();
    const publish = publishIn(run, root);
    // A third commit that changes no source: published there, then the commit before it runs again.
    writeFileSync(join(root, 'README.md'), 'Not a source.\n');
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'readme'], 1_700_000_200);
    const third = git(root, ['rev-parse', 'HEAD']);
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(String(world.wp.posts.find((p) => String(p.id) === rows(first)[0]!.id)!['content'])).toContain(
      `commit.${third}`,
    );
    git(root, ['checkout', '-q', newer]);
    const same = await publish('--exit-code');
    expect(same.code, same.stderr).toBe(0);
    expect(rows(same).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    // The older commit would change a.md: refused.
    git(root, ['checkout', '-q', older]);
    expect((await publish()).code).toBe(6);

    const plain = mkdtempSync(join(world.home, 'plain-'));
    writeFileSync(join(plain, 'c.md'), '---\nkey: stale-plain-c\n---\n# C\n\nPlain.\n');
    const outside = await publishIn(run, plain)('c.md', '--site', 'blog');
    expect(outside.code, outside.stderr).toBe(0);
    const post = world.wp.posts.find((p) => String(p.id) === rows(outside)[0]!.id)!;
    expect(String(post['content'])).not.toContain('commit.');
  });
});

describe('a shallow clone', () => {
  it('says history cannot tell and orders the commits by date: an older one is refused, a newer one goes on', async () => {
    const { root, older, newer } = twoCommits('stale-shallow');
    const run = await world.runner();
    // Published at the older commit first (the full repository), then from a shallow clone of the newer.
    git(root, ['checkout', '-q', older]);
    expect((await publishIn(run, root)()).code).toBe(0);
    git(root, ['checkout', '-q', 'main']);
    const ahead = join(mkdtempSync(join(world.home, 'clone-')), 'repo');
    git(world.home, ['clone', '-q', '--depth', '1', '--branch', 'main', `file://${root}`, ahead]);
    const fromNewer = await publishIn(run, ahead)();
    expect(fromNewer.code, fromNewer.stderr).toBe(0);
    expect(fromNewer.stderr).toContain(`commit ${older.slice(0, 7)}`);
    expect(fromNewer.stderr).toContain('is not in this shallow clone');
    expect(fromNewer.stderr).toContain('fetch-depth: 0');

    // A shallow clone of the older commit: the newer one is unknown to it, and newer by date.
    const behind = join(mkdtempSync(join(world.home, 'clone-')), 'repo');
    git(world.home, ['clone', '-q', '--depth', '1', '--branch', 'old', `file://${root}`, behind]);
    const before = snapshot();
    const stale = await publishIn(run, behind)();
    expect(stale.code, stale.stderr).toBe(6);
    expect(stale.stderr).toContain(
      `this run is at commit ${older.slice(0, 7)}, older than commit ${newer.slice(0, 7)} (by commit date: history cannot tell)`,
    );
    expect(stale.stderr).toContain('is not in this shallow clone');
    expect(snapshot()).toBe(before);
    rmSync(behind, { recursive: true, force: true });
  });
});
