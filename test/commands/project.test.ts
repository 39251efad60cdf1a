// The project file: `wp init` writes it (site, namespace shown, sources), loading checks every key (an unknown
// one names the key and its line), it is found by walking up like git's `.git`, and `--write-keys` adds a
// `key:` line keeping every other byte of each source.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { findProject, loadProject } from '../../src/project/project-file.js';
import { addKey } from '../../src/project/write-keys.js';
import { displayPath } from '../../src/project/display-path.js';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

guardStrayOutput();

const newDir = (name = 'blog'): string => {
  const dir = join(realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-project-'))), name);
  mkdirSync(dir);
  return dir;
};

describe('wp init', () => {
  it('writes blogctl.yml with a URL site and a namespace derived from the git remote, and shows it', async () => {
    const dir = newDir('checkout-folder');
    mkdirSync(join(dir, '.git'));
    writeFileSync(
      join(dir, '.git', 'config'),
      '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@example.test:Team/Blog.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    );
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const res = await runInProcess(
      ['wp', 'init', '--site', 'https://blog.example.test/', '--username', 'editor', dir],
      { env },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(join(dir, 'blogctl.yml'));
    expect(res.stderr).toContain('namespace "team/blog" (from the git repository "Team/Blog")');
    const project = loadProject(join(dir, 'blogctl.yml'));
    expect(project).toMatchObject({
      root: dir,
      namespace: 'team/blog',
      site: { url: 'https://blog.example.test', username: 'editor' },
      sources: [dir],
    });
    // Never rewritten: a second init is refused, naming the namespace it keeps.
    const again = await runInProcess(['wp', 'init', '--site', 'x', '--namespace', 'other', dir], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/blogctl\.yml exists already \(namespace "team\/blog"\)/);
    expect(loadProject(join(dir, 'blogctl.yml')).namespace).toBe('team/blog');
  });

  it('takes a site profile and --namespace; refuses an unknown profile (exit 5) and a bad namespace (exit 2)', async () => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const add = await runInProcess(
      [
        'wp',
        'sites',
        'add',
        'myblog',
        '--url',
        'https://b.example.test',
        '--username',
        'u',
        '--password-stdin',
        '--no-verify',
      ],
      { env, input: 'pw-0123456789\n' },
    );
    expect(add.code, add.stderr).toBe(0);
    const unknown = await runInProcess(['wp', 'init', '--site', 'nosuch', newDir()], { env });
    expect(unknown.code).toBe(5);
    const bad = await runInProcess(['wp', 'init', '--site', 'myblog', '--namespace', 'Bad Name', newDir()], {
      env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --namespace: "Bad Name" is not a namespace/m);
    const dir = newDir('site-folder');
    const ok = await runInProcess(['wp', 'init', '--site', 'myblog', '--namespace', 'team-x', dir], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(loadProject(join(dir, 'blogctl.yml'))).toMatchObject({ site: 'myblog', namespace: 'team-x' });
    const missing = await runInProcess(['wp', 'init', newDir()], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing --site/);
  });

  it('makes a missing folder once the rest is checked; a failing init makes none', async () => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const parent = newDir();
    const posts = join(parent, 'posts');
    const refused = await runInProcess(['wp', 'init', '--site', 'https://blog.example.test', posts], { env });
    expect(refused.code).toBe(2);
    expect(existsSync(posts)).toBe(false);
    const res = await runInProcess(
      ['wp', 'init', '--site', 'https://blog.example.test', '--username', 'editor', posts],
      { env },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^Created the folder .*posts$/m);
    expect(loadProject(join(posts, 'blogctl.yml'))).toMatchObject({ root: posts, sources: [posts] });
    writeFileSync(join(parent, 'file'), '');
    const notFolder = await runInProcess(
      ['wp', 'init', '--site', 'https://b.example.test', '--username', 'e', join(parent, 'file')],
      { env },
    );
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toMatch(/file: not a folder/);
  });

  it('--write-keys adds a key line to each Markdown source without one, every other byte kept', async () => {
    const dir = newDir();
    writeFileSync(join(dir, 'blogctl.yml'), 'site: myblog\nnamespace: keys\n');
    mkdirSync(join(dir, 'sub'));
    const crlf = '---\r\ntitle: "Windows"\r\ntags: [a, b]\r\n---\r\n\r\nBody\r\n';
    writeFileSync(join(dir, 'crlf.md'), crlf);
    writeFileSync(join(dir, 'sub', 'plain.md'), '# Plain\n\nNo front matter.\n');
    writeFileSync(join(dir, 'keyed.md'), '---\nkey: mine\n---\nKept.\n');
    writeFileSync(join(dir, 'page.html'), '<h1>HTML</h1>');
    const res = await runInProcess(['wp', 'init', '--write-keys', dir], {
      env: { BLOGCTL_CONFIG_DIR: tempConfigDir() },
    });
    expect(res.code, res.stderr).toBe(0);
    const written = readFileSync(join(dir, 'crlf.md'), 'utf8');
    const key = /^---\r\nkey: ([a-z0-9]{12})\r\n/.exec(written)?.[1];
    expect(key).toBeDefined();
    expect(written.replace(`key: ${key!}\r\n`, '')).toBe(crlf);
    expect(readFileSync(join(dir, 'sub', 'plain.md'), 'utf8')).toMatch(
      /^---\nkey: [a-z0-9]{12}\n---\n# Plain\n\nNo front matter\.\n$/,
    );
    expect(readFileSync(join(dir, 'keyed.md'), 'utf8')).toBe('---\nkey: mine\n---\nKept.\n');
    expect(readFileSync(join(dir, 'page.html'), 'utf8')).toBe('<h1>HTML</h1>');
    expect(res.stderr).toMatch(/Gave 2 sources a key/);
  });
});

describe('wp init writes only inside the project, through no link', () => {
  it('a dangling link named blogctl.yml: refused, nothing written where it points', async () => {
    const dir = newDir();
    const aim = join(dir, '..', 'elsewhere.yml');
    symlinkSync(aim, join(dir, 'blogctl.yml'));
    const res = await runInProcess(
      ['wp', 'init', '--site', 'https://b.example.test', '--username', 'u', dir],
      {
        env: { BLOGCTL_CONFIG_DIR: tempConfigDir() },
      },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('blogctl.yml is a symbolic link');
    expect(existsSync(aim)).toBe(false);
  });

  it('--write-keys: a source reached through a link, or outside the project, fails the run before any file is written', async () => {
    const outside = newDir('outside');
    writeFileSync(join(outside, 'profile.md'), '# Mine\n');
    for (const [layout, named] of [
      [
        (dir: string) => symlinkSync(join(outside, 'profile.md'), join(dir, 'posts', 'welcome.md')),
        'welcome.md is a symbolic link',
      ],
      [(dir: string) => symlinkSync(outside, join(dir, 'posts', 'linked')), 'linked is a symbolic link'],
      [
        (dir: string) =>
          writeFileSync(
            join(dir, 'blogctl.yml'),
            `site: s\nnamespace: keys\nsources: [posts, ${relative(dir, outside)}]\n`,
          ),
        'outside',
      ],
    ] as const) {
      const dir = newDir();
      writeFileSync(join(dir, 'blogctl.yml'), 'site: s\nnamespace: keys\nsources: [posts]\n');
      mkdirSync(join(dir, 'posts'));
      writeFileSync(join(dir, 'posts', 'a.md'), '# A\n');
      layout(dir);
      const res = await runInProcess(['wp', 'init', '--write-keys', dir], {
        env: { BLOGCTL_CONFIG_DIR: tempConfigDir() },
      });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(named);
      expect(readFileSync(join(dir, 'posts', 'a.md'), 'utf8')).toBe('# A\n');
      expect(readFileSync(join(outside, 'profile.md'), 'utf8')).toBe('# Mine\n');
    }
  });
});

describe('the project file', () => {
  it('is found by walking up from a source, as git finds .git', () => {
    const dir = newDir();
    writeFileSync(join(dir, 'blogctl.yml'), 'namespace: walk\nsources: [posts]\n');
    mkdirSync(join(dir, 'posts', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'posts', 'deep', 'a.md'), '# A\n');
    expect(findProject(join(dir, 'posts', 'deep', 'a.md'))).toMatchObject({
      root: dir,
      namespace: 'walk',
      sources: [join(dir, 'posts')],
    });
    expect(findProject(join(dir, '..'))).toBeUndefined();
  });

  it('names an unknown key and its line, and a wrong value by its path', () => {
    const dir = newDir();
    writeFileSync(
      join(dir, 'blogctl.yml'),
      'site: myblog\nnamespace: ok\ndefaults:\n  status: publish\n  colour: blue\n',
    );
    // Named as the CLI names every file it found itself: from the folder it runs in (here, the repository's),
    // so a clone anywhere (under $TMPDIR too, where that path is a short `../..`) sees the same line.
    expect(() => loadProject(join(dir, 'blogctl.yml'))).toThrow(
      new RegExp(
        `^${escapeRegExp(displayPath(join(dir, 'blogctl.yml')))}:5: unknown key "defaults\\.colour"$`,
      ),
    );
    writeFileSync(join(dir, 'other.yml'), 'namespace: ok\nsorces: [.]\n');
    const other = newDir();
    writeFileSync(join(other, 'blogctl.yml'), 'namespace: ok\nsorces: [.]\n');
    expect(() => loadProject(join(other, 'blogctl.yml'))).toThrow(/blogctl\.yml:2: unknown key "sorces"$/);
    const status = newDir();
    writeFileSync(join(status, 'blogctl.yml'), 'namespace: ok\ndefaults:\n  status: live\n');
    expect(() => loadProject(join(status, 'blogctl.yml'))).toThrow(
      /blogctl\.yml:3: defaults\.status: must be one of publish, draft, pending, private, future$/,
    );
    const yaml = newDir();
    writeFileSync(join(yaml, 'blogctl.yml'), 'namespace: [unclosed\n');
    expect(() => loadProject(join(yaml, 'blogctl.yml'))).toThrow(/blogctl\.yml:\d+: /);
    const none = newDir();
    writeFileSync(join(none, 'blogctl.yml'), 'site: x\n');
    expect(() => loadProject(join(none, 'blogctl.yml'))).toThrow(/namespace: is required/);
  });
});

describe('addKey', () => {
  it('keeps a byte-order mark and refuses JSON front matter', () => {
    expect(addKey('a.md', '\uFEFF---\ntitle: x\n---\nB\n', 'k1')).toEqual({
      kind: 'added',
      key: 'k1',
      text: '\uFEFF---\nkey: k1\ntitle: x\n---\nB\n',
    });
    expect(addKey('a.md', '---json\n{"title":"x"}\n---\nB\n').kind).toBe('json-front-matter');
    expect(addKey('a.html', '<p>x</p>').kind).toBe('not-markdown');
  });
});
