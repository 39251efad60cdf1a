// Files written from a site's or a provider's data stay inside the folder being written: a symbolic link at
// the file or in any folder on the way is refused by name and nothing is written, through real links in a
// temporary folder.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { fillUp, tmpfsMounts } from '../helpers/tmpfs.js';
import { appendNoFollow, checkInside, writeInside } from '../../src/lib/write-inside.js';

function layout(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'write-inside-'));
  const root = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside };
}

async function refusal(run: () => Promise<unknown> | unknown): Promise<UsageError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('not refused');
}

describe('writeInside', () => {
  it('writes a file, making the folders on the way, and replaces it whole', async () => {
    const { root } = layout();
    await writeInside(root, join(root, 'posts/2026/a.md'), 'one');
    expect(readFileSync(join(root, 'posts/2026/a.md'), 'utf8')).toBe('one');
    chmodSync(join(root, 'posts/2026/a.md'), 0o640);
    await writeInside(root, join(root, 'posts/2026/a.md'), Buffer.from('two'));
    expect(readFileSync(join(root, 'posts/2026/a.md'), 'utf8')).toBe('two');
    expect(statSync(join(root, 'posts/2026/a.md')).mode & 0o777).toBe(0o640);
    // No temporary file is left beside it.
    expect(readdirSync(join(root, 'posts/2026'))).toEqual(['a.md']);
  });

  it('refuses a dangling link at the file, naming it, and writes nothing where it points', async () => {
    const { root, outside } = layout();
    mkdirSync(join(root, 'posts'));
    const aim = join(outside, '.bash_profile');
    symlinkSync(aim, join(root, 'posts/welcome.md'));
    const error = await refusal(() => writeInside(root, join(root, 'posts/welcome.md'), 'pulled'));
    expect(error.message).toContain('welcome.md is a symbolic link');
    expect(error.exitCode).toBe(2);
    expect(existsSync(aim)).toBe(false);
    expect(readlinkSync(join(root, 'posts/welcome.md'))).toBe(aim);
  });

  it('refuses a link to a file that exists, which keeps its content', async () => {
    const { root, outside } = layout();
    writeFileSync(join(outside, 'profile'), 'mine');
    symlinkSync(join(outside, 'profile'), join(root, 'a.md'));
    await refusal(() => writeInside(root, join(root, 'a.md'), 'pulled'));
    expect(readFileSync(join(outside, 'profile'), 'utf8')).toBe('mine');
  });

  it('refuses a linked folder on the way (a symlinked media/), even a relative link', async () => {
    const { root, outside } = layout();
    symlinkSync(outside, join(root, 'media'));
    mkdirSync(join(root, 'posts'));
    symlinkSync('../../outside', join(root, 'posts/linked'));
    const first = await refusal(() => writeInside(root, join(root, 'media/1-a.png'), Buffer.from([1])));
    expect(first.message).toContain('media is a symbolic link');
    const second = await refusal(() => writeInside(root, join(root, 'posts/linked/deep/a.md'), 'x'));
    expect(second.message).toContain(join('posts', 'linked'));
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses a path outside the folder, however it is spelled', async () => {
    const { root, outside } = layout();
    for (const path of [join(root, '../outside/a.md'), join(outside, 'a.md'), '../x/a.md', root]) {
      const error = await refusal(() => writeInside(root, path, 'x'));
      expect(error.message).toMatch(/outside .*nothing written/);
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  it('exclusive: refuses whatever is there (a file, a dangling link) and leaves it', async () => {
    const { root, outside } = layout();
    writeFileSync(join(root, 'taken.md'), 'theirs');
    await expect(writeInside(root, join(root, 'taken.md'), 'x', { exclusive: true })).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(readFileSync(join(root, 'taken.md'), 'utf8')).toBe('theirs');
    symlinkSync(join(outside, 'aim'), join(root, 'dangling.md'));
    await refusal(() => writeInside(root, join(root, 'dangling.md'), 'x', { exclusive: true }));
    expect(existsSync(join(outside, 'aim'))).toBe(false);
    await writeInside(root, join(root, 'new.md'), 'mine', { exclusive: true, mode: 0o600 });
    expect(readFileSync(join(root, 'new.md'), 'utf8')).toBe('mine');
    expect(statSync(join(root, 'new.md')).mode & 0o777).toBe(0o600);
    expect(readdirSync(root).sort()).toEqual(['dangling.md', 'new.md', 'taken.md']);
  });

  it('refuses a file where a folder is needed, and a folder where the file goes', async () => {
    const { root } = layout();
    writeFileSync(join(root, 'posts'), 'a file');
    expect((await refusal(() => writeInside(root, join(root, 'posts/a.md'), 'x'))).message).toContain(
      'posts is not a folder',
    );
    mkdirSync(join(root, 'b.md'));
    expect((await refusal(() => writeInside(root, join(root, 'b.md'), 'x'))).message).toContain(
      'b.md is not a file',
    );
  });

  it('a full disk: ENOSPC, no descriptor path in the error and leaves no temporary file', async (ctx) => {
    const mounts = tmpfsMounts('write-inside-full-');
    try {
      const root = mounts.mount('disk', '64k');
      if (!root) return ctx.skip('mounting a tmpfs is not allowed here');
      mkdirSync(join(root, 'posts'));
      fillUp(root);
      const error = (await writeInside(root, join(root, 'posts/a.md'), 'x'.repeat(100_000)).catch(
        (e: unknown) => e,
      )) as NodeJS.ErrnoException;
      expect(error.code).toBe('ENOSPC');
      expect(`${error.message} ${error.path ?? ''}`).not.toContain('/proc/');
      expect(readdirSync(join(root, 'posts'))).toEqual([]);
    } finally {
      mounts.cleanup();
    }
  });
});

describe('checkInside', () => {
  it('finds a link on the way before anything is written, and passes folders not made yet', async () => {
    const { root, outside } = layout();
    symlinkSync(outside, join(root, 'media'));
    checkInside(root, join(root, 'posts/new/a.md'));
    expect((await refusal(() => checkInside(root, join(root, 'media/a.png')))).message).toContain(
      'media is a symbolic link',
    );
    await refusal(() => checkInside(root, join(root, '../a.md')));
    expect(existsSync(join(root, 'posts'))).toBe(false);
  });
});

describe('appendNoFollow', () => {
  it('appends to a file, makes a missing one, and refuses a link', async () => {
    const { root, outside } = layout();
    await appendNoFollow(join(root, 'summary.md'), 'one\n');
    await appendNoFollow(join(root, 'summary.md'), 'two\n');
    expect(readFileSync(join(root, 'summary.md'), 'utf8')).toBe('one\ntwo\n');
    symlinkSync(join(outside, 'aim'), join(root, 'linked.md'));
    await refusal(() => appendNoFollow(join(root, 'linked.md'), 'x'));
    expect(existsSync(join(outside, 'aim'))).toBe(false);
    expect(lstatSync(join(root, 'linked.md')).isSymbolicLink()).toBe(true);
  });
});
