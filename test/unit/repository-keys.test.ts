// Which post files of a git work tree are outside every project and which a project of the shared namespace
// names (sources/repository-keys.ts): keys as publish-sources.ts makes them, hidden folders and node_modules
// left out, a project of another namespace neither.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyHash } from '../../src/publishing/identity.js';
import { sharedNamespaceOptions } from '../../src/publishing/sources/repository-keys.js';
import type { SourceKey } from '../../src/publishing/source-key.js';
import { scopeOf } from '../../src/project/scope.js';

const repo = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-repository-keys-')));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const put = (path: string, text: string): void => {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
};
mkdirSync(join(repo, '.git'));
writeFileSync(
  join(repo, '.git', 'config'),
  '[remote "origin"]\n\turl = https://example.test/team/blog.git\n',
);
put('hello.md', '# Hello\n');
put('keyed.md', '\uFEFF---\r\nkey: abc\r\n---\r\nBody\r\n');
put('sluggy.md', '---\nslug: my-slug\n---\nBody\n');
put('page.html', '<h1>Page</h1>');
put('notes.txt', 'not a post');
put('.hidden/x.md', '# Hidden\n');
put('node_modules/pkg/y.md', '# Dependency\n');
put('posts/blogctl.yml', 'namespace: team/blog\n');
put('posts/a.md', '# A\n');
put('posts/sub/k.md', '---\nkey: project-key\n---\n');
put('other/blogctl.yml', 'namespace: someone-else\n');
put('other/b.md', '# B\n');

const has = (check: (key: string) => boolean, key: SourceKey): boolean => check(keyHash(key));

describe('repository keys', () => {
  it('a root file is in git:<repository>, sharing the old name with the project of that namespace', () => {
    const root = scopeOf([join(repo, 'hello.md')]);
    expect(root).toMatchObject({ kind: 'git', namespace: 'git:team/blog', sharedNamespace: 'team/blog' });
    expect(scopeOf([join(repo, 'posts', 'a.md')])).toMatchObject({
      kind: 'project',
      sharedNamespace: 'team/blog',
    });
    expect(scopeOf([join(repo, 'other', 'b.md')]).sharedNamespace).toBeUndefined();
  });

  it("a project's run: the files outside every project, each by the key it publishes under", async () => {
    const outside = await sharedNamespaceOptions(scopeOf([join(repo, 'posts', 'a.md')])).outsideProject!();
    expect(has(outside, 'path:hello.md')).toBe(true);
    expect(has(outside, 'key:abc')).toBe(true);
    expect(has(outside, 'slug:my-slug')).toBe(true);
    expect(has(outside, 'path:page.html')).toBe(true);
    for (const key of [
      'path:keyed.md',
      'path:notes.txt',
      'path:.hidden/x.md',
      'path:node_modules/pkg/y.md',
      'path:a.md',
      'path:posts/a.md',
      'path:b.md',
      'path:other/b.md',
    ] as const)
      expect(has(outside, key), key).toBe(false);
  });

  it("a root file's run: the keys the projects of the shared namespace name, never another namespace's", async () => {
    const { sharedNamespace } = sharedNamespaceOptions(scopeOf([join(repo, 'hello.md')]));
    expect(sharedNamespace?.namespace).toBe('team/blog');
    const claimed = await sharedNamespace!.claimed();
    expect(has(claimed, 'path:a.md')).toBe(true);
    expect(has(claimed, 'key:project-key')).toBe(true);
    expect(has(claimed, 'path:b.md')).toBe(false);
    expect(has(claimed, 'path:hello.md')).toBe(false);
  });
});
