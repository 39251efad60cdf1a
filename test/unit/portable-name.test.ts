// File names made from a site's data are portable and stable: no device name Windows keeps (any case, any
// extension), no control or line-separator character, no two names in a folder that differ only in case, and
// an unrelated file already there (`<slug>-<id>.md`) is never picked, so --force cannot replace it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePath, safeName } from '../../src/publishing/pull/files.js';
import { caseKey, isDeviceName, portableStem } from '../../src/lib/portable-name.js';
import { fileNameFor } from '../../src/publishing/pull/pull-post.js';

describe('portable names', () => {
  it('never a device name, in any case, with any extension', () => {
    for (const slug of ['con', 'CON', 'nul', 'Aux', 'prn', 'com1', 'COM9', 'lpt3', 'com¹', 'conin$'])
      expect(isDeviceName(fileNameFor({ id: 7, slug }))).toBe(false);
    expect(fileNameFor({ id: 7, slug: 'nul' })).toBe('nul-file.md');
    expect(isDeviceName('CON.md')).toBe(true);
    expect(isDeviceName('nul.tar.gz')).toBe(true);
    for (const url of [
      'https://s.test/wp-content/CON.png',
      'https://s.test/nul.jpg',
      'https://s.test/Com1.tar.gz',
    ])
      expect(isDeviceName(safeName(url)), safeName(url)).toBe(false);
  });

  it('no control, line-separator or reserved character, and the same name every time', () => {
    const hostile = 'a\u2028b\u2029c\u0007d\u0085e\u009bf<g>h:i"j\\k|l?m*n. ';
    const name = fileNameFor({ id: 3, slug: hostile });
    expect(name).toBe('a-b-c-d-e-f-g-h-i-j-k-l-m-n.md');
    expect(fileNameFor({ id: 3, slug: hostile })).toBe(name);
    // Composed and decomposed spellings of one slug make one name.
    expect(fileNameFor({ id: 3, slug: 'cafe\u0301' })).toBe(fileNameFor({ id: 3, slug: 'caf\u00e9' }));
    expect(fileNameFor({ id: 9, slug: '\u2028' })).toBe('post-9.md');
    expect(portableStem('x'.repeat(300), 'f')).toHaveLength(100);
    expect(safeName('https://s.test/a%E2%80%A8b%0A.png')).toBe('a-b.png');
  });

  it('an image URL with a malformed % escape still gets a name', () => {
    expect(safeName('https://s.test/100%25-%zz.png')).toBe('100-25--zz.png');
  });
});

describe('freePath', () => {
  it('skips names taken in any case, in the run and in the folder, and never picks an existing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'free-path-'));
    writeFileSync(join(dir, 'Hello.md'), 'a person wrote this');
    writeFileSync(join(dir, 'hello-5.md'), 'an unrelated file named like a post');
    const taken = new Set<string>();
    const first = freePath(dir, 'hello.md', 5, taken);
    expect(basename(first)).toBe('hello-5-2.md');
    const second = freePath(dir, 'HELLO.md', 6, taken);
    expect(basename(second)).toBe('HELLO-6.md');
    const third = freePath(dir, 'World.md', 7, taken);
    expect(basename(third)).toBe('World.md');
    expect(basename(freePath(dir, 'world.md', 8, taken))).toBe('world-8.md');
    const keys = [first, second, third].map((p) => caseKey(basename(p)));
    expect(new Set(keys).size).toBe(3);
  });
});
