// Small real file systems for tests of full and read-only disks: tmpfs mounts under a temporary directory.
// Mounting needs root (CI runs as root); where it is not allowed, mountTmpfs returns undefined and the tests
// that need it are skipped, saying why.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Mounts {
  /** A tmpfs of `size` (mount's form: 64k, 2m) at `<base>/<name>`; undefined when mounting is not allowed. */
  mount(name: string, size: string): string | undefined;
  /** Unmounts every one and removes the base directory. */
  cleanup(): void;
}

export function tmpfsMounts(prefix: string): Mounts {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const mounted: string[] = [];
  return {
    mount(name, size) {
      const dir = join(base, name);
      mkdirSync(dir);
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], {
          stdio: 'pipe',
        });
      } catch {
        return undefined;
      }
      mounted.push(dir);
      return dir;
    },
    cleanup() {
      for (const dir of mounted.reverse()) execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * Fills the file system holding `dir` with files named `<prefix>-<n>` until it refuses (ENOSPC): what is left
 * is less than a page, so no new file can hold a byte. Returns their paths.
 */
export function fillUp(dir: string, prefix = 'filler'): string[] {
  const files: string[] = [];
  try {
    for (let i = 0; ; i++) {
      const file = join(dir, `${prefix}-${i}`);
      files.push(file);
      writeFileSync(file, Buffer.alloc(64 * 1024));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  // Then in pages: a 64 KiB file may have failed with more than a page left.
  try {
    for (let i = 0; ; i++) {
      const file = join(dir, `${prefix}-page-${i}`);
      files.push(file);
      writeFileSync(file, Buffer.alloc(4096));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return files;
}
