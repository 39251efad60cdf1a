// The post files a `wp` verb is given: files and folders expanded into post files (Markdown or HTML),
// each once, with what was left out.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { UsageError } from '../../errors.js';
import { exclusionAt } from '../../project/excludes.js';
import { PROJECT_FILE } from '../../project/project-file.js';

/** The extensions a folder is searched for; anything else in it is listed as skipped. */
export const POST_EXTENSIONS = ['.md', '.markdown', '.html', '.htm'];

/**
 * The positional arguments as post files: a folder stands for every post file below it (recursively, in
 * name order; hidden files and folders such as `.git` left out), other files in it are reported as skipped.
 * The same file named twice (overlapping globs, a folder and a file in it) is read once. In a project's
 * folders, what its exclusion names (README*, `exclude:` globs: project/excludes.ts) is left out and listed
 * as excluded, with the pattern; a folder so excluded is one entry, not walked.
 */
export function expandPaths(args: string[]): {
  files: string[];
  skipped: string[];
  excluded: { path: string; pattern: string }[];
} {
  const files: string[] = [];
  const skipped: string[] = [];
  const excluded: { path: string; pattern: string }[] = [];
  const seen = new Set<string>();
  const walked = new Set<string>();
  let found = 0;
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return join(path);
    }
  };
  const add = (path: string): void => {
    found++;
    // By real path: a file reached through a symlinked folder too is one source, named by its first path.
    const key = real(path);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(path);
  };
  const walk = (dir: string): void => {
    // Symlinked folders are followed (a shared folder linked into posts/), each real folder once: a link back
    // up the tree (`posts/loop -> .`) would otherwise list every file again at every depth, as new sources.
    const at = real(dir);
    if (walked.has(at)) return;
    walked.add(at);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      throw new UsageError(`cannot read the folder ${dir}: ${(error as Error).message}`);
    }
    const exclusion = exclusionAt(dir);
    for (const name of names) {
      // The project file is no post, nor worth a "skipped" line.
      if (name.startsWith('.') || name === PROJECT_FILE) continue;
      const path = join(dir, name);
      const pattern = exclusion?.(path);
      if (pattern !== undefined) {
        excluded.push({ path, pattern });
        continue;
      }
      let info;
      try {
        info = statSync(path);
      } catch {
        skipped.push(path);
        continue;
      }
      if (info.isDirectory()) walk(path);
      else if (info.isFile() && POST_EXTENSIONS.includes(extname(name).toLowerCase())) add(path);
      else skipped.push(path);
    }
  };
  for (const arg of args) {
    let isDir = false;
    try {
      isDir = statSync(arg).isDirectory();
    } catch {
      // Not there: reading it says so, naming the file.
    }
    if (isDir) {
      // Named already, or inside a folder named before: its files are listed.
      if (walked.has(real(arg))) continue;
      const before = found;
      const excludedBefore = excluded.length;
      walk(arg);
      if (found === before) {
        const left = excluded.slice(excludedBefore);
        const why = left.length
          ? `; ${left.length} left out by the project's exclusion (${left[0]!.path} by ${left[0]!.pattern}${left.length > 1 ? ', …' : ''})`
          : '';
        throw new UsageError(`${arg}: no post files in this folder (${POST_EXTENSIONS.join(', ')})${why}`);
      }
    } else add(arg);
  }
  return { files, skipped, excluded };
}
