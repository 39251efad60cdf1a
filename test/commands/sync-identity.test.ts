// A post's identity is its namespace and key, in-process against the sandbox relaying to a fake WordPress:
// the same posts from any folder inside a project, two projects on one site never touching each other's
// posts, the look-up asking for one namespace's posts and their stored fields only, a status nobody stated
// never demoting a post, project defaults, input errors of a folder reported together, date-only dates.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';
import { nsHash } from '../../src/publishing/identity.js';

guardStrayOutput();

const world = syncWorld('identity');

interface Row {
  source: string;
  action: string;
  id: string;
  status?: string;
  fields?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

/** A fresh config dir (a new CI runner) with the site profile "blog", and a project folder using it. */
async function project(
  namespace: string,
  extra = '',
): Promise<{ root: string; run: (args: string[]) => Promise<CliResult> }> {
  const run = await world.runner();
  const root = newProject(world.home, `site: blog\nnamespace: ${namespace}\n${extra}`);
  return { root, run };
}

describe('identity = namespace + key, never the working directory', () => {
  it('the same posts whether run from the root, from posts/ with ".", or with no paths from deep inside', async () => {
    const { root, run } = await project('cwd-test');
    writeFileSync(join(root, 'posts', 'a.md'), '# A\n\nBody A.\n');
    writeFileSync(join(root, 'posts', 'sub', 'b.md'), '# B\n\nBody B.\n');
    process.chdir(root);
    const first = await run(['wp', 'publish', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first).map((r) => r.action)).toEqual(['created', 'created']);
    const ids = rows(first).map((r) => r.id);

    process.chdir(join(root, 'posts'));
    const dot = await run(['wp', 'publish', '.', '--json']);
    expect(dot.code, dot.stderr).toBe(0);
    expect(rows(dot).map((r) => [r.action, r.id])).toEqual([
      ['unchanged', ids[0]],
      ['unchanged', ids[1]],
    ]);
    process.chdir(join(root, 'posts', 'sub'));
    const none = await run(['wp', 'publish', '--json']);
    expect(rows(none).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    const file = await run(['wp', 'publish', 'b.md', '--json']);
    expect(rows(file)).toEqual([expect.objectContaining({ action: 'unchanged', id: ids[1] })]);
  });

  it("two projects publishing posts/welcome.md to one site: each its own post, never the other's", async () => {
    const x = await project('team-x');
    const y = await project('team-y');
    writeFileSync(
      join(x.root, 'posts', 'welcome.md'),
      '---\nstatus: publish\n---\n# Welcome from X\n\nX body.\n',
    );
    writeFileSync(join(y.root, 'posts', 'welcome.md'), '# Welcome from Y\n\nY body.\n');
    const fromX = await x.run(['wp', 'publish', join(x.root, 'posts'), '--json']);
    expect(fromX.code, fromX.stderr).toBe(0);
    const xId = Number(rows(fromX)[0]!.id);
    const updates = world.wp.updates.length;
    const fromY = await y.run(['wp', 'publish', join(y.root, 'posts'), '--json']);
    expect(fromY.code, fromY.stderr).toBe(0);
    expect(rows(fromY)[0]).toMatchObject({ action: 'created' });
    expect(Number(rows(fromY)[0]!.id)).not.toBe(xId);
    // X's post untouched: no update was sent, its title and body are X's.
    expect(world.wp.updates.length).toBe(updates);
    const xPost = world.wp.posts.find((p) => p.id === xId)!;
    expect(xPost.title).toBe('Welcome from X');
    expect(String(xPost['content'])).toContain('X body.');
    // Y editing its file updates only Y's post.
    writeFileSync(join(y.root, 'posts', 'welcome.md'), '# Welcome from Y, edited\n\nY body.\n');
    const edited = await y.run(['wp', 'publish', join(y.root, 'posts'), '--json']);
    expect(rows(edited)[0]).toMatchObject({ action: 'updated', id: rows(fromY)[0]!.id });
    expect(xPost.title).toBe('Welcome from X');
    expect(xPost.slug).toBe('welcome-from-x');
    const again = await x.run(['wp', 'publish', join(x.root, 'posts'), '--json']);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: String(xId) });
    // A slug Y asks for that X's post holds: a conflict, never overwritten.
    writeFileSync(
      join(y.root, 'posts', 'claim.md'),
      `---\nslug: ${xPost.slug}\n---\n# Claim\n\nY wants X's slug.\n`,
    );
    const claim = await y.run(['wp', 'publish', join(y.root, 'posts', 'claim.md'), '--json']);
    expect(claim.code).toBe(6);
    expect(claim.stderr).toContain('blogctl published for another project (another namespace)');
    expect(xPost.title).toBe('Welcome from X');
  });

  it('the look-up asks only for the namespace, and only stored fields (nothing rendered)', async () => {
    const { root, run } = await project('lookup-test');
    writeFileSync(join(root, 'posts', 'one.md'), '# One\n\nBody.\n');
    const before = world.wp.requests.length;
    const res = await run(['wp', 'publish', join(root, 'posts'), '--dry-run', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const lookups = world.wp.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.url.includes('posts?'))
      .map((r) => new URL(r.url, world.wp.url).searchParams);
    // One search for the namespace; one look-up of the slug the new source would get (a post holding it
    // without a marker is likely its own post, marker lost).
    expect(lookups.map((q) => q.get('search') ?? `slug=${q.get('slug')}`)).toEqual([
      `ns=${nsHash('lookup-test')}`,
      'slug=one',
    ]);
    for (const lookup of lookups) {
      const fields = lookup.get('_fields')!.split(',');
      expect(fields).toContain('content.raw');
      expect(fields.filter((f) => f === 'content' || f === 'title' || f.endsWith('.rendered'))).toEqual([]);
    }
  });

  it('outside any project and git work tree a Markdown file gets a key (sync-loose.test.ts); a -f payload cannot be tracked, and blogctl says so', async () => {
    const { run } = await project('unused');
    const loose = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-loose-')));
    writeFileSync(join(loose, 'loose.md'), '# Loose\n\nNo project.\n');
    const res = await run(['wp', 'publish', '--site', 'blog', join(loose, 'loose.md'), '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    const real = await run(['wp', 'publish', '--site', 'blog', join(loose, 'loose.md')]);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).toContain('front matter "key" written into the file');
    // A -f payload has no front matter: the advice is --key.
    writeFileSync(
      join(loose, 'payload.json'),
      JSON.stringify({ title: 'Loose payload', content: '<p>x</p>' }),
    );
    const payload = await run(['wp', 'publish', '--site', 'blog', '-f', join(loose, 'payload.json')]);
    expect(payload.code, payload.stderr).toBe(0);
    expect(payload.stderr).toMatch(
      /payload\.json is in no project and no git work tree: .*give it a --key\)/,
    );
    expect(payload.stderr).not.toContain('front matter');
  });
});

describe('orphans are known only for a whole project, and only within its namespace', () => {
  it('a deleted file is orphaned when the project is published whole; a run of one file says nothing of it', async () => {
    const { root, run } = await project('orphan-test');
    const other = await project('orphan-other');
    writeFileSync(join(root, 'posts', 'keep.md'), '# Keep\n\nBody.\n');
    writeFileSync(join(root, 'posts', 'gone.md'), '# Gone\n\nBody.\n');
    writeFileSync(join(root, 'posts', 'sub', 'third.md'), '# Third\n\nBody.\n');
    writeFileSync(join(other.root, 'posts', 'theirs.md'), '# Theirs\n\nBody.\n');
    process.chdir(root);
    expect((await run(['wp', 'publish', '--json'])).code).toBe(0);
    process.chdir(other.root);
    expect((await run(['wp', 'publish', '--json'])).code).toBe(0);
    rmSync(join(root, 'posts', 'gone.md'));
    process.chdir(root);
    const whole = await run(['wp', 'publish', '--dry-run', '--exit-code', '--json']);
    expect(whole.code, whole.stderr).toBe(8);
    expect(
      rows(whole)
        .map((r) => r.action)
        .sort(),
    ).toEqual(['orphaned', 'unchanged', 'unchanged']);
    // The paths naming the whole project are the whole project too.
    const named = await run(['wp', 'publish', join(root, 'posts'), '--dry-run', '--json']);
    expect(
      rows(named)
        .map((r) => r.action)
        .sort(),
    ).toEqual(['orphaned', 'unchanged', 'unchanged']);
    const one = await run([
      'wp',
      'publish',
      join(root, 'posts', 'keep.md'),
      '--dry-run',
      '--exit-code',
      '--json',
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(rows(one).map((r) => r.action)).toEqual(['unchanged']);
  });
});

describe('status', () => {
  it('a source that states no status creates a draft and never changes an existing post’s status', async () => {
    const { root, run } = await project('status-test');
    const file = join(root, 'posts', 'live.md');
    writeFileSync(file, '---\nstatus: publish\n---\n# Live\n\nBody.\n');
    const first = await run(['wp', 'publish', file, '--json']);
    expect(rows(first)[0]).toMatchObject({ action: 'created', status: 'publish' });
    const id = Number(rows(first)[0]!.id);
    // Saved without its status (as `blog show --markdown` writes it), then its title edited.
    writeFileSync(file, '# Live, retitled\n\nBody.\n');
    const plan = await run(['wp', 'publish', file, '--dry-run', '--json']);
    expect(rows(plan)[0]).toMatchObject({ action: 'update', fields: ['title'] });
    const res = await run(['wp', 'publish', file, '--json', '--exit-code']);
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'updated', fields: ['title'], status: 'publish' });
    expect(world.wp.updates.at(-1)!.fields).not.toContain('status');
    expect(world.wp.posts.find((p) => p.id === id)!.status).toBe('publish');
    const same = await run(['wp', 'publish', file, '--json']);
    expect(rows(same)[0]).toMatchObject({ action: 'unchanged' });
    // A new source without a status is a draft; a stated one is compared and sent.
    writeFileSync(join(root, 'posts', 'new.md'), '# New\n\nBody.\n');
    const created = await run(['wp', 'publish', join(root, 'posts', 'new.md'), '--json']);
    expect(rows(created)[0]).toMatchObject({ action: 'created', status: 'draft' });
    const stated = await run(['wp', 'publish', file, '--status', 'private', '--json']);
    expect(rows(stated)[0]).toMatchObject({ action: 'updated', fields: ['status'], status: 'private' });
  });

  it('the project gives the site and post defaults; front matter wins over them', async () => {
    const { root, run } = await project(
      'defaults-test',
      'defaults:\n  status: publish\n  comment_status: closed\n',
    );
    writeFileSync(join(root, 'posts', 'a.md'), '# Defaulted\n\nBody.\n');
    writeFileSync(join(root, 'posts', 'b.md'), '---\nstatus: draft\n---\n# Own status\n\nBody.\n');
    process.chdir(root);
    const res = await run(['wp', 'publish', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res).map((r) => [r.action, r.status])).toEqual([
      ['created', 'publish'],
      ['created', 'draft'],
    ]);
    expect(world.wp.posts.find((p) => p.id === Number(rows(res)[0]!.id))!['comment_status']).toBe('closed');
  });
});

describe('the plan is the run minus the writes', () => {
  it('reports every input error of a folder together, each naming its file (and line); nothing is sent', async () => {
    const { root, run } = await project('errors-test');
    writeFileSync(join(root, 'posts', 'ok.md'), '# Fine\n\nBody.\n');
    writeFileSync(join(root, 'posts', 'bad-date.md'), '---\ndate: "next tuesday"\n---\n# Bad date\n\nB.\n');
    writeFileSync(join(root, 'posts', 'bad-status.md'), '---\nstatus: live\n---\n# Bad status\n\nB.\n');
    writeFileSync(
      join(root, 'posts', 'sub', 'bad-yaml.md'),
      '---\ntitle: [unclosed\n---\n# Bad YAML\n\nB.\n',
    );
    const before = world.wp.requests.length;
    for (const extra of [['--dry-run'], []]) {
      const res = await run(['wp', 'publish', join(root, 'posts'), ...extra]);
      expect(res.code).toBe(2);
      // One line per source (a CI log keeps each), then the line the exit code goes with.
      const lines = res.stderr.trimEnd().split('\n');
      expect(lines.at(-1)).toBe('error: 3 sources have errors (each named above); nothing was published');
      expect(lines).toContainEqual(expect.stringMatching(/^error: \S*bad-date\.md:2: date: /));
      expect(lines).toContainEqual(expect.stringMatching(/^error: \S*bad-status\.md:2: status: /));
      expect(lines).toContainEqual(
        expect.stringMatching(/^error: \S*bad-yaml\.md: front matter could not be read: .* at line \d+/),
      );
    }
    expect(world.wp.requests.length).toBe(before);
  });

  it('a tag the site does not have fails the plan as it fails the run (exit 2), nothing sent', async () => {
    const { root, run } = await project('terms-test');
    writeFileSync(
      join(root, 'posts', 'tagged.md'),
      '---\ntags: [no-such-tag-anywhere]\n---\n# Tagged\n\nB.\n',
    );
    const before = world.wp.requests.filter((r) => r.method !== 'GET').length;
    for (const extra of [['--dry-run'], []]) {
      const res = await run(['wp', 'publish', join(root, 'posts'), ...extra]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(/no-such-tag-anywhere/);
    }
    expect(world.wp.requests.filter((r) => r.method !== 'GET').length).toBe(before);
    // With --create-terms the run would make it: the plan says create.
    const plan = await run(['wp', 'publish', join(root, 'posts'), '--create-terms', '--dry-run', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(rows(plan)[0]).toMatchObject({ action: 'create' });
  });

  it('a date without a time is that day at 00:00 in the site’s time zone', async () => {
    const { root, run } = await project('date-test');
    writeFileSync(
      join(root, 'posts', 'dated.md'),
      '---\nstatus: future\ndate: 2030-12-24\n---\n# Christmas Eve\n\nBody.\n',
    );
    const res = await run(['wp', 'publish', join(root, 'posts'), '--json']);
    expect(res.code, res.stderr).toBe(0);
    const post = world.wp.posts.find((p) => p.id === Number(rows(res)[0]!.id))!;
    expect(post['date']).toBe('2030-12-24T00:00:00');
    expect(rows(res)[0]).toMatchObject({ action: 'created', status: 'future' });
  });
});
