// The root of the git work tree holding a folder, found as git finds it: the nearest folder up from it with
// a `.git` (a folder, or a file in a worktree or submodule). No git process: CI images without git still work.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function repoRoot(from: string): string | undefined {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(resolve(dir, '.git'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
