// Every input error of a folder names the file and the line of the front matter field it is about
// (`posts/a.md:3: status: …`, the opening `---` being line 1), in the dry run as in the real run, all of a
// folder's errors together: bad values and types, dates, several bad fields in one file, JSON front matter,
// two sources that are one post or ask for one slug, and terms the site does not have.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('lines');

/** A project folder on a fresh config dir with the site profile "blog"; runs start in its root. */
async function project(namespace: string): Promise<{ run: (args: string[]) => Promise<CliResult> }> {
  const run = await world.runner();
  process.chdir(newProject(world.home, `site: blog\nnamespace: ${namespace}\n`, ['posts']));
  return { run: (args) => run(args) };
}

const errorLines = (res: CliResult): string[] =>
  res.stderr
    .trimEnd()
    .split('\n')
    .filter((l) => l.startsWith('error: '));

describe('front matter field errors name the file and line', () => {
  it('every bad field of a folder, each as file:line, together, in the dry run and the real run', async () => {
    const { run } = await project('lines-fields');
    writeFileSync('posts/ok.md', '# Fine\n\nBody.\n');
    writeFileSync('posts/a.md', '---\ntitle: A\nstatus: live\n---\nBody.\n');
    // Two bad fields in one file: both reported.
    writeFileSync(
      'posts/b.md',
      '---\n# a comment\ntitle: B\n\nsticky: "yes"\ncategories:\n  - News\nauthor: someone\n---\nBody.\n',
    );
    writeFileSync('posts/c.md', '---\ntitle: C\nslug: ok\ndate: "next tuesday"\n---\nBody.\n');
    writeFileSync('posts/d.md', '---\ntitle: D\n"comment_status": maybe\n---\nBody.\n');
    // JSON front matter: the line of the key in the JSON block.
    writeFileSync('posts/e.md', '---json\n{\n  "title": "E",\n  "format": "poem"\n}\n---\nBody.\n');
    const before = world.wp.requests.length;
    for (const extra of [['--dry-run'], []]) {
      const res = await run(['wp', 'publish', ...extra]);
      expect(res.code, res.stderr).toBe(2);
      const lines = errorLines(res);
      expect(lines.at(-1)).toBe('error: 6 errors in 5 sources (each named above); nothing was published');
      expect(lines.slice(0, -1).sort()).toEqual([
        expect.stringMatching(/^error: posts\/a\.md:3: status: must be one of .*\(got "live"\)$/),
        expect.stringMatching(/^error: posts\/b\.md:5: sticky: expected true or false, got "yes"$/),
        expect.stringMatching(/^error: posts\/b\.md:8: author: expected a user id/),
        expect.stringMatching(/^error: posts\/c\.md:4: date: /),
        expect.stringMatching(/^error: posts\/d\.md:3: comment_status: must be one of open, closed/),
        expect.stringMatching(/^error: posts\/e\.md:4: format: must be one of /),
      ]);
    }
    expect(world.wp.requests.length).toBe(before);
  });

  it('one file: its fields as file:line in the one error line', async () => {
    const { run } = await project('lines-one');
    writeFileSync('posts/one.md', '---\ntitle: One\nslug: "Not a slug!"\nstatus: nope\n---\nBody.\n');
    const res = await run(['wp', 'publish', 'posts/one.md', '--dry-run']);
    expect(res.code).toBe(2);
    expect(errorLines(res)).toEqual([
      expect.stringMatching(/^error: posts\/one\.md:4: status: must be one of .*\(got "nope"\)$/),
    ]);
    writeFileSync('posts/one.md', '---\ntitle: "  "\n---\nBody.\n');
    const empty = await run(['wp', 'publish', 'posts/one.md', '--dry-run']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^error: posts\/one\.md:2: title: the title is empty$/m);
  });

  it('front matter not used is a warning at its line', async () => {
    const { run } = await project('lines-unused');
    writeFileSync('posts/j.md', '---\ntitle: J\nlayout: post\ndraft: false\n---\nBody.\n');
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('posts/j.md:3: front matter not used: layout, draft (line 4)');
  });

  it('keys named like an object property (__proto__, constructor) are warned at their lines too', async () => {
    const { run } = await project('lines-proto');
    writeFileSync('posts/p.md', '---\ntitle: P\n__proto__: x\nconstructor: y\ntoString: z\n---\nBody.\n');
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('[object Object]');
    expect(res.stderr).not.toContain('native code');
    expect(res.stderr).toContain(
      'posts/p.md:3: front matter not used: __proto__, constructor (line 4), toString (line 5)',
    );
  });

  it('two sources that are one post, or ask for one slug, named at their lines with the other errors', async () => {
    const { run } = await project('lines-same');
    writeFileSync('posts/k1.md', '---\ntitle: K1\nkey: same\n---\nBody.\n');
    writeFileSync('posts/k2.md', '---\n\nkey: same\ntitle: K2\n---\nBody.\n');
    writeFileSync('posts/s1.md', '---\ntitle: S1\nkey: s1\nslug: taken\n---\nBody.\n');
    writeFileSync('posts/s2.md', '---\nkey: s2\nslug: taken\ntitle: S2\n---\nBody.\n');
    writeFileSync('posts/x.md', '---\ntitle: X\nstatus: gone\n---\nBody.\n');
    for (const extra of [['--dry-run'], []]) {
      const res = await run(['wp', 'publish', ...extra]);
      expect(res.code, res.stderr).toBe(2);
      const lines = errorLines(res);
      expect(lines).toContain(
        'error: posts/k1.md:3 and posts/k2.md:3 are the same post (key "same"): give each its own front matter "key" or "slug"',
      );
      expect(lines).toContain(
        'error: posts/s1.md:4 and posts/s2.md:3 ask for the same slug "taken": give each its own front matter "key" or "slug"',
      );
      expect(lines).toContainEqual(expect.stringMatching(/^error: posts\/x\.md:3: status: /));
      expect(lines.at(-1)).toBe('error: 3 sources have errors (each named above); nothing was published');
    }
  });

  it('a term the site does not have is named at the line of its field', async () => {
    const { run } = await project('lines-terms');
    writeFileSync('posts/t1.md', '---\ntitle: T1\n\ntags: [no-such-tag-xyz]\n---\nBody.\n');
    const one = await run(['wp', 'publish', 'posts/t1.md', '--dry-run']);
    expect(one.code, one.stderr).toBe(2);
    expect(one.stderr).toMatch(/^error: posts\/t1\.md:4: unknown tag: no-such-tag-xyz /m);
    writeFileSync(
      'posts/t2.md',
      '---\ntags: no-such-tag-xyz\ncategories: [No Such Category Xyz]\n---\n# T2\n\nBody.\n',
    );
    for (const extra of [['--dry-run'], []]) {
      const res = await run(['wp', 'publish', ...extra]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain('(2 posts: posts/t1.md:4, posts/t2.md:2)');
      expect(res.stderr).toContain('posts/t2.md:3: unknown category: No Such Category Xyz');
    }
  });

  it("a project default's bad value is named at its line in blogctl.yml", async () => {
    const { run } = await project('lines-defaults');
    writeFileSync(
      'blogctl.yml',
      'site: blog\nnamespace: lines-defaults\ndefaults:\n  status: publish\n  tags: [no-such-default-tag]\n',
    );
    writeFileSync('posts/d1.md', '# D1\n\nBody.\n');
    writeFileSync('posts/d2.md', '# D2\n\nBody.\n');
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/^error: blogctl\.yml:5: unknown tag: no-such-default-tag /m);
  });
});
