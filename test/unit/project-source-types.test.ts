// blogctl.yml `sources:` items that give their folder's post type (`{path: pages, type: page}`).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { loadProject } from '../../src/project/project-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'blogctl-source-types-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sources with a post type', () => {
  it('reads plain and typed sources, each typed one with its line', async () => {
    const file = join(dir, 'a', 'blogctl.yml');
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'a')));
    await writeFile(file, 'namespace: site\nsources:\n  - posts\n  - path: pages\n    type: page\n');
    const project = loadProject(file);
    expect(project.sources).toEqual([join(dir, 'a', 'posts'), join(dir, 'a', 'pages')]);
    expect(project.sourceTypes).toEqual([
      {
        path: join(dir, 'a', 'pages'),
        type: 'page',
        at: expect.stringMatching(/blogctl\.yml:5: sources\[1\]\.type$/),
      },
    ]);
  });
  it('refuses a type that is no post type name at its line', async () => {
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'b')));
    const file = join(dir, 'b', 'blogctl.yml');
    await writeFile(file, 'namespace: site\nsources:\n  - path: pages\n    type: Page!\n');
    expect(() => loadProject(file)).toThrow(UsageError);
    expect(() => loadProject(file)).toThrow(
      /blogctl\.yml:4: sources\[0\]\.type: a post type: lower-case letters, digits, _ and -$/,
    );
  });
});
