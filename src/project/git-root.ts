// The git work tree a path is in, found as git finds it (walking up to a `.git` folder or file), and the
// repository's name as its `origin` remote states it: the same on every clone and CI runner, whatever the
// folder it was checked out into. Read from the files themselves: no git program is needed.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/** The nearest folder at or above `dir` holding `.git` (a folder, or a worktree's file), or undefined. */
export function findGitRoot(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    try {
      statSync(join(at, '.git'));
      return at;
    } catch {
      // Not here: one folder up.
    }
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

/** The git folder holding `config`: `.git` itself, or for a worktree the common folder it points to. */
function gitConfigDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!pointer) return undefined;
    const gitDir = isAbsolute(pointer) ? pointer : resolve(root, pointer);
    try {
      const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
      return isAbsolute(common) ? common : resolve(gitDir, common);
    } catch {
      return gitDir;
    }
  } catch {
    return undefined;
  }
}

/**
 * The repository's name: the path of its `origin` URL without `.git` (`team/blog` for
 * `git@host:team/blog.git` or `https://host/team/blog`), else the work tree's folder name.
 */
export function repositoryName(root: string): string {
  const dir = gitConfigDir(root);
  if (dir) {
    try {
      const config = readFileSync(join(dir, 'config'), 'utf8');
      const origin = /\[remote "origin"\]([^[]*)/.exec(config)?.[1];
      const url = origin && /^\s*url\s*=\s*(.+?)\s*$/m.exec(origin)?.[1];
      if (url) {
        const path = url
          .replace(/^[a-z+]+:\/\/[^/]+\//i, '')
          .replace(/^[^@/:]+@[^:/]+:/, '')
          .replace(/\.git\/?$/, '')
          .replace(/\/+$/, '');
        const parts = path.split('/').filter(Boolean);
        if (parts.length) return parts.slice(-2).join('/');
      }
    } catch {
      // No readable config: the folder's name.
    }
  }
  return basename(root);
}
