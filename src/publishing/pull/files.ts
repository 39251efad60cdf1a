// The project's files as `wp pull` sees them: where new files go, free names for them, the files of posts
// pulled before (by their front matter key), and reading what is there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import type { Project } from '../../project/project-file.js';

/** Where new files go: the folder given, else the project's first source folder, else its root. */
export function outputFolder(project: Project, given: string | undefined): string {
  if (given !== undefined) {
    const dir = resolve(given);
    const rel = relative(project.root, dir);
    if (rel.startsWith('..') || resolve(project.root, rel) !== dir)
      throw new UsageError(`${given}: outside the project (${project.root})`);
    return dir;
  }
  for (const source of project.sources) {
    try {
      if (statSync(source).isDirectory()) return source;
    } catch {
      // Not there yet: made when the first file is written.
      if (!/\.(md|markdown|html?)$/i.test(source)) return source;
    }
  }
  return project.root;
}

export function safeName(url: string): string {
  const name = decodeURIComponent(basename(new URL(url).pathname));
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(-100) || 'image';
}

/** A path in `dir` for `name` that no other post of this run took and no file of another post holds. */
export function freePath(dir: string, name: string, id: number, taken: Set<string>): string {
  const first = join(dir, name);
  if (!taken.has(first) && readIfThere(first) === undefined) return first;
  return join(dir, name.replace(/\.md$/, `-${id}.md`));
}

/** The project's Markdown files by their front matter key, for posts pulled before. */
export function filesByKey(project: Project): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const path = join(dir, name);
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(path);
      else if (/\.(md|markdown)$/i.test(name)) {
        const text = readIfThere(path) ?? '';
        const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
        const key = /^key:\s*["']?([^"'\r\n#]+?)["']?\s*(?:#.*)?$/m.exec(front)?.[1];
        if (key && !out.has(key)) out.set(key, path);
      }
    }
  };
  walk(project.root);
  return out;
}

export function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function readIfThereBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

export const withoutMarker = (raw: string): string => raw.replace(/\n?<!-- blogctl:v1 [^>]*?-->/g, '');
