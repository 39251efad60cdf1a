// What names a post on the site, before it is hashed into blogctl's marker (identity.ts): the kind of
// source, then its identifying text. Plain strings: the commands build them without loading node:crypto.
import { posix, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';

export type SourceKey = `${'path' | 'key' | 'slug' | 'blog'}:${string}`;

/**
 * A file's source key: its path relative to `root` — the project's root, else the git work tree's — never to
 * where blogctl runs, so `cd posts && blogctl wp publish .` names the same posts as `blogctl wp publish posts`.
 */
export const fileSourceKey = (path: string, root: string): SourceKey =>
  `path:${relative(root, resolve(path)).split(sep).join(posix.sep)}`;
export const keySourceKey = (key: string): SourceKey => `key:${key}`;
export const slugSourceKey = (slug: string): SourceKey => `slug:${slug}`;
export const blogSourceKey = (blogId: string): SourceKey => `blog:${blogId}`;

/** How a person reads a source key: `posts/a.md`, `key "weekly"`, `slug "hello"`, `blog "665…"`. */
export function describeSource(key: SourceKey): string {
  const colon = key.indexOf(':');
  const [kind, value] = [key.slice(0, colon), key.slice(colon + 1)];
  return kind === 'path' ? value : `${kind} "${value}"`;
}

/** `--key` (or front matter `key`): one line, not empty, at most 500 characters. */
export function checkKey(key: string, name = '--key'): string {
  const k = key.trim();
  if (!k || k.length > 500 || /[\r\n]/.test(k))
    throw new UsageError(`${name}: give a non-empty key on one line (at most 500 characters)`);
  return k;
}
