// Pages' hierarchy from folders and `parent:`, and the order parents are sent in (publishing/post-kinds.ts).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { folderParent, linkParents, parentRef, parentsFirst } from '../../src/publishing/post-kinds.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'blogctl-kinds-'));
  for (const file of [
    'pages/about.md',
    'pages/about/team.md',
    'pages/about/team/ann.md',
    'pages/docs/index.md',
    'pages/docs/intro.md',
    'pages/docs/api/index.md',
    'pages/index.md',
    'pages/lone/x.md',
  ])
    await mkdir(join(dir, file, '..'), { recursive: true }).then(() => writeFile(join(dir, file), '# x\n'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('folderParent', () => {
  const at = (p: string) => join(dir, p);
  it('takes the folder’s page beside it, else its index page, never above the folder given', () => {
    expect(folderParent(at('pages/about/team.md'), at('pages'))).toBe(at('pages/about.md'));
    expect(folderParent(at('pages/about/team/ann.md'), at('pages'))).toBe(at('pages/about/team.md'));
    expect(folderParent(at('pages/docs/intro.md'), at('pages'))).toBe(at('pages/docs/index.md'));
    // An index page is its folder's page: its parent is the folder above's.
    expect(folderParent(at('pages/docs/api/index.md'), at('pages'))).toBe(at('pages/docs/index.md'));
    // Top level: no parent (the root's index page is a page like the others).
    expect(folderParent(at('pages/about.md'), at('pages'))).toBeUndefined();
    expect(folderParent(at('pages/docs/index.md'), at('pages'))).toBeUndefined();
    // A folder without a page of its own gives none.
    expect(folderParent(at('pages/lone/x.md'), at('pages'))).toBeUndefined();
    // Nothing above the folder the run was given.
    expect(folderParent(at('pages/about/team.md'), at('pages/about'))).toBeUndefined();
  });
});

describe('parentRef', () => {
  it('reads an id, a key or a file relative to the source', () => {
    expect(parentRef(12, join(dir, 'pages/a.md'), 'pages/a.md:3: parent')).toEqual({
      at: 'pages/a.md:3: parent',
      id: 12,
    });
    expect(parentRef('about-us', join(dir, 'pages/a.md'), 'x')).toEqual({ at: 'x', key: 'about-us' });
    expect(parentRef('about.md', join(dir, 'pages/a/b.md'), 'x')).toEqual({
      at: 'x',
      path: join(dir, 'pages/a/about.md'),
    });
    expect(parentRef('../about', join(dir, 'pages/a/b.md'), 'x')).toEqual({
      at: 'x',
      path: join(dir, 'pages/about'),
    });
    expect(() => parentRef(['a'], 'a.md', 'pages/a.md:3: parent')).toThrow(UsageError);
    expect(() => parentRef(['a'], 'a.md', 'pages/a.md:3: parent')).toThrow(
      /^pages\/a\.md:3: parent: expected a post id/,
    );
  });
});

describe('linkParents and parentsFirst', () => {
  const source = (name: string, parent?: Parameters<typeof linkParents>[0][number]['parent']) => ({
    name,
    file: join(dir, name),
    sourceKey: `path:${name}` as const,
    fields: {},
    ...(parent && { parent }),
  });
  it('links parents by file, key or id, and sends parents before children', () => {
    const sources = [
      source('pages/about/team/ann.md', { at: 'a', path: join(dir, 'pages/about/team.md') }),
      source('pages/about/team.md', { at: 'b', path: join(dir, 'pages/about.md') }),
      source('pages/about.md'),
      source('pages/x.md', { at: 'c', key: 'home' }),
      source('pages/y.md', { at: 'd', id: 7 }),
      source('pages/z.md', { at: 'e', path: join(dir, 'pages/index.md') }),
    ];
    const { links, problems } = linkParents(sources, (p) =>
      p.endsWith('index.md') ? 'key:home' : undefined,
    );
    expect(problems).toEqual([]);
    expect(links).toEqual([
      { source: 'path:pages/about/team.md' },
      { source: 'path:pages/about.md' },
      undefined,
      { source: 'key:home' },
      { id: 7 },
      { source: 'key:home' },
    ]);
    expect(
      parentsFirst(
        links,
        sources.map((s) => s.sourceKey),
      ),
    ).toEqual([2, 3, 4, 5, 1, 0]);
  });
  it('refuses a parent that is no source and a circle', () => {
    const sources = [
      source('a.md', { at: 'a.md:2: parent', path: join(dir, 'b.md') }),
      source('b.md', { at: 'b.md:2: parent', path: join(dir, 'a.md') }),
      source('c.md', { at: 'c.md:2: parent', path: join(dir, 'gone.md') }),
    ];
    const { problems } = linkParents(sources, () => undefined);
    expect(problems).toEqual([
      expect.stringMatching(/^c\.md:2: parent: .*gone\.md: no such source$/),
      'a.md:2: parent: the parents of a.md go round in a circle',
      'b.md:2: parent: the parents of b.md go round in a circle',
    ]);
  });
});
