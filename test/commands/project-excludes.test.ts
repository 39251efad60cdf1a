// A project's folders hold more than posts: the repository's README, changelog and licence, installed
// packages, a plan a CI job writes into the checkout. Those are left out of its sources (by default, and by
// `exclude:` globs in blogctl.yml), and a plan names what it left out: on stderr, and as rows of their own in
// the JSON and Markdown plans. `wp publish` with no paths outside a project says so, and where one is.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('excludes');

/** A repository-like project with `sources: .` (wp init's default): posts, and what is no post. */
function repository(config: string): string {
  const root = newProject(world.home, config, ['posts', 'node_modules/pkg', 'docs']);
  writeFileSync(join(root, 'README.md'), '# The repository\n\nHow to build it.\n');
  writeFileSync(join(root, 'CHANGELOG.md'), '# Changes\n');
  writeFileSync(join(root, 'license.md'), 'MIT\n');
  writeFileSync(join(root, 'plan.md'), '### blogctl plan\n');
  writeFileSync(join(root, 'node_modules/pkg/readme.md'), '# A package\n');
  writeFileSync(join(root, 'docs/Readme.markdown'), '# Docs\n');
  writeFileSync(join(root, 'docs/guide.md'), '# Guide\n\nText.\n');
  writeFileSync(join(root, 'posts/a.md'), '# A\n\nText.\n');
  return root;
}

describe('blogctl.yml exclude', () => {
  it('README*, CHANGELOG*, LICENSE* and node_modules are left out by default; exclude: adds globs', async () => {
    const run = await world.runner();
    process.chdir(repository('site: blog\nnamespace: excl-default\nsources: [.]\nexclude: [plan.md]\n'));
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    const sources = res.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    expect(sources.sort()).toEqual(['docs/guide.md', 'posts/a.md']);
    for (const [path, pattern] of [
      ['CHANGELOG.md', 'CHANGELOG*'],
      ['README.md', 'README*'],
      ['docs/Readme.markdown', 'README*'],
      ['license.md', 'LICENSE*'],
      ['node_modules', 'node_modules'],
      ['plan.md', 'plan.md'],
    ])
      expect(res.stderr).toContain(`skipped ${path}: excluded by ${pattern} `);
    // A folder left out is one line: nothing below it is read.
    expect(res.stderr).not.toContain('node_modules/pkg');
    expect(res.stderr).toContain('(2 create, 6 excluded)');

    const json = await run(['wp', 'publish', '--dry-run', '--json', 'source,action']);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as { source: string; action: string }[];
    expect(rows.filter((r) => r.action === 'excluded').map((r) => r.source)).toEqual([
      'CHANGELOG.md',
      'README.md',
      'docs/Readme.markdown',
      'license.md',
      'node_modules',
      'plan.md',
    ]);
    expect(rows.filter((r) => r.action === 'create')).toHaveLength(2);

    const markdown = await run(['wp', 'publish', '--dry-run', '--markdown']);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain('<summary>excluded (6)</summary>');
    expect(markdown.stdout).toContain('| README.md |');
    // --exit-code counts only what would change on the site.
    const exit = await run(['wp', 'publish', '--dry-run', '--exit-code']);
    expect(exit.stderr).toContain('2 of 2 posts would change');
  });

  it('a file named in sources is read even when a pattern matches it; a folder pattern with a slash', async () => {
    const run = await world.runner();
    const root = repository(
      'site: blog\nnamespace: excl-named\nsources: [README.md, posts, docs]\nexclude: [docs/guide.md]\n',
    );
    writeFileSync(join(root, 'docs/guide.md.bak.md'), '# Kept\n\nText.\n');
    process.chdir(root);
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    const sources = res.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    expect(sources.sort()).toEqual(['README.md', 'docs/guide.md.bak.md', 'posts/a.md']);
    expect(res.stderr).toContain('skipped docs/guide.md: excluded by docs/guide.md ');
  });

  it('a folder whose every file is left out says so', async () => {
    const run = await world.runner();
    const root = newProject(world.home, 'site: blog\nnamespace: excl-all\nexclude: ["*.md"]\n', []);
    writeFileSync(join(root, 'README.md'), '# Readme\n');
    writeFileSync(join(root, 'a.md'), '# A\n');
    process.chdir(root);
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      "no post files in this folder (.md, .markdown, .html, .htm); 2 left out by the project's exclusion (README.md by README*, …)",
    );
  });

  it('an exclude that is not a list of globs is exit 2 naming its line', async () => {
    const run = await world.runner();
    process.chdir(repository('site: blog\nnamespace: excl-bad\n\nexclude: plan.md\n'));
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: blogctl\.yml:4: exclude: /m);
  });
});

describe('wp publish with no paths outside a project', () => {
  it('says there is no blogctl.yml here or above, and names the nearest project below', async () => {
    const run = await world.runner();
    const repo = join(world.home, 'repo-with-posts');
    mkdirSync(join(repo, 'posts'), { recursive: true });
    mkdirSync(join(repo, '.hidden'), { recursive: true });
    writeFileSync(join(repo, '.hidden/blogctl.yml'), 'namespace: hidden\n');
    writeFileSync(join(repo, 'posts/blogctl.yml'), 'site: blog\nnamespace: below\n');
    writeFileSync(join(repo, 'posts/a.md'), '# A\n');
    process.chdir(repo);
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'error: no blogctl.yml here or above; the nearest is posts/blogctl.yml: run blogctl from its folder, or give its folder (blogctl wp publish posts)',
    );
    expect(res.stderr).not.toContain('--title');

    const empty = join(world.home, 'no-project-at-all');
    mkdirSync(empty);
    process.chdir(empty);
    const none = await run(['wp', 'publish']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^error: no blogctl\.yml here or above: give the files or folders to publish/m,
    );
  });
});
