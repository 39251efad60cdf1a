// Identity of files outside a project, against real WordPress (pretty and plain permalinks), each run from a
// new, empty config dir: a Markdown file outside any project and git work tree gets a front matter key on
// its first publish and is `unchanged` on the next (README's "First publish"); a file published from a git
// repository's root and a project in its posts/ folder never share a namespace, so the project's --prune
// leaves the root file's post alone.
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toNamespace } from '../../src/project/project-file.js';
import { getPost } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, siteClient, syncWorld } from '../helpers/sync-project.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-loose', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe.each(instances)('files outside a project ($permalinks permalinks)', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-loose-${wp.permalinks}`;
  const reader = siteClient(adminLogin(wp));
  const fresh = (args: string[], cwd: string): Promise<CliResult> =>
    freshRun(args, { service: world.sandbox, site: adminLogin(wp), profile: 'site', spawn: true, cwd });

  it('a plain folder: the first publish writes the key (CRLF kept), the second is unchanged', async () => {
    const dir = await mkdtemp(join(world.home, `${wp.permalinks}-plain-`));
    const text = `---\r\ntitle: Hello ${tag}\r\n---\r\nMy **first** post.\r\n`;
    await writeFile(join(dir, 'hello.md'), text);
    const first = await fresh(['wp', 'publish', '--site', 'site', 'hello.md', '--json'], dir);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first)[0]).toMatchObject({ action: 'created' });
    const after = await readFile(join(dir, 'hello.md'), 'utf8');
    expect(after).toMatch(/^---\r\nkey: [a-z2-9]{12}\r\ntitle: /);
    expect(after.replace(/key: [a-z2-9]{12}\r\n/, '')).toBe(text);
    const again = await fresh(['wp', 'publish', '--site', 'site', 'hello.md', '--json'], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: rows(first)[0]!.id });
  });

  it("a repository's root file and its posts/ project: the project's --prune leaves the root file's post", async () => {
    const repo = await mkdtemp(join(world.home, `${wp.permalinks}-repo-`));
    const name = `e2e/${tag}`;
    await mkdir(join(repo, '.git'));
    await writeFile(
      join(repo, '.git', 'config'),
      `[remote "origin"]\n\turl = git@example.test:${name}.git\n`,
    );
    await mkdir(join(repo, 'posts'));
    // The namespace `wp init` derives: the repository's name.
    await writeFile(join(repo, 'posts', 'blogctl.yml'), `site: site\nnamespace: ${toNamespace(name)}\n`);
    await writeFile(join(repo, 'posts', 'a.md'), `# Project A ${tag}\n\nA.\n`);
    await writeFile(join(repo, 'hello.md'), `# Root hello ${tag}\n\nFrom the root.\n`);

    const root = await fresh(['wp', 'publish', '--site', 'site', 'hello.md', '--json'], repo);
    expect(root.code, root.stderr).toBe(0);
    const rootId = rows(root)[0]!.id;
    const project = await fresh(['wp', 'publish', '--prune', '--json'], join(repo, 'posts'));
    expect(project.code, project.stderr).toBe(0);
    expect(rows(project).map((r) => r.action)).toEqual(['created']);
    expect((await getPost(reader, Number(rootId))).status).toBe('draft');
    const again = await fresh(['wp', 'publish', '--site', 'site', 'hello.md', '--json'], repo);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: rootId });
  });
});
