// A Markdown file outside any project and git work tree has no path its post can be found by (a path is
// only a name relative to a root every runner shares). So on its first publish blogctl gives it a front
// matter `key:` — a short random one, as `wp init --write-keys` writes (project/random-key.ts) — which the
// post's marker carries from its creation; the next publish finds the post by it, from any folder.
//
// What must stay true:
// - the key is chosen when the file is read, so the post is created under it, and written into the file only
//   once the post exists (created, or possibly created: an answer lost): never a key naming no post;
// - only one line is added (the front matter made when there is none); every other byte is kept, and the
//   edited file must read as the same post (same fields, same body) or nothing is written;
// - the file is replaced atomically in its own folder and never through a symbolic link (lib/write-inside.ts),
//   and only if it still holds the bytes that were published: an edit made meanwhile is not overwritten;
// - a file blogctl may not write (read-only, a link, stdin, HTML, JSON front matter) keeps the warning that
//   publishing it again makes another post; a write that fails after the post exists says how to add the
//   key by hand.
import { accessSync, constants, lstatSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { canonicalJson } from '../../lib/canonical-json.js';
import { addKey } from '../../project/write-keys.js';
import { prefix, type PublishOutcome } from '../publish-outcome.js';
import { listItems } from '../../output/group.js';
import { isMarkdownPath } from './markdown-path.js';

/** The key a file outside any project and git work tree gets, and the file as it will be written. */
export interface NewKey {
  /** The file as the run names it. */
  name: string;
  /** Its absolute path. */
  path: string;
  key: string;
  /** The bytes read and published: the file is written only while it still holds them. */
  read: Buffer;
  /** The file with its `key:` line. */
  text: string;
  /** Whether it had front matter (the hand-written fix differs). */
  hadFrontMatter: boolean;
}

/**
 * The key `path` (read as `text`) gets, or undefined when blogctl would not write it: not Markdown, not a
 * regular file, not writable by its mode or this user, JSON front matter, or a front matter whose edited
 * form would read differently.
 */
export async function plannedKey(name: string, text: string): Promise<NewKey | undefined> {
  if (!isMarkdownPath(name)) return undefined;
  const path = resolve(name);
  try {
    const info = lstatSync(path);
    // A file without any write bit is read-only by intent, even to root (whose access() always passes).
    if (!info.isFile() || (info.mode & 0o222) === 0) return undefined;
    accessSync(path, constants.W_OK);
    // The atomic replace makes a temporary file beside it.
    accessSync(dirname(path), constants.W_OK);
  } catch {
    return undefined;
  }
  const edit = addKey(path, text);
  if (edit.kind !== 'added') return undefined;
  if (!(await readsTheSame(name, text, edit.text, edit.key))) return undefined;
  return {
    name,
    path,
    key: edit.key,
    read: Buffer.from(text, 'utf8'),
    text: edit.text,
    hadFrontMatter: /^\uFEFF?---[ \t]*\r?\n/.test(text),
  };
}

/** Whether `edited` is `original` with a front matter `key` of `key` and nothing else changed. */
async function readsTheSame(name: string, original: string, edited: string, key: string): Promise<boolean> {
  const { parseMarkdownPost } = await import('./markdown.js');
  try {
    const before = parseMarkdownPost(original, { path: name });
    const after = parseMarkdownPost(edited, { path: name });
    const { key: written, ...rest } = after.fields;
    return (
      written === key &&
      before.fields.key === undefined &&
      after.html === before.html &&
      canonicalJson(rest) === canonicalJson(before.fields) &&
      canonicalJson(after.ignoredKeys) === canonicalJson(before.ignoredKeys)
    );
  } catch {
    return false;
  }
}

/** What a dry run says of the files that would get their key. */
export function keysWouldBeWritten(keys: NewKey[]): string {
  if (keys.length === 1)
    return `${keys[0]!.name}: would get a front matter "key" once its post is created (it is in no project and no git work tree: the key finds the post again on the next publish)`;
  return `${keys.length} files would get a front matter "key" once their posts are created (they are in no project and no git work tree: the key finds each post again on the next publish): ${listItems(keys.map((k) => k.name))}`;
}

/**
 * Writes the key into the file once its post exists (`outcome` created, or failed in doubt), and says so in
 * the outcome: a note when written, else a warning with the line to add by hand.
 */
export async function writeNewKey(newKey: NewKey, outcome: PublishOutcome, several: boolean): Promise<void> {
  if (outcome.state !== 'created' && !outcome.inDoubt) return;
  const by = prefix({ name: newKey.name }, several);
  let why: string | undefined;
  try {
    if (!readFileSync(newKey.path).equals(newKey.read)) why = 'it changed while it was being published';
    else {
      const { writeInside } = await import('../../lib/write-inside.js');
      await writeInside(dirname(newKey.path), basename(newKey.path), newKey.text);
    }
  } catch (error) {
    why = (error as Error).message;
  }
  const post = outcome.post?.id ? `post ${outcome.post.id}` : 'its post';
  if (why === undefined) {
    outcome.notes.push(
      `${by}front matter "key" written into the file: it is in no project and no git work tree, and the key finds its post again on the next publish (keep the line)`,
    );
    return;
  }
  const exists = outcome.state === 'created' ? `${post} was created` : 'its post may have been created';
  const how = newKey.hadFrontMatter
    ? `add the line "key: ${newKey.key}" to its front matter by hand`
    : `add these lines at its top by hand: "---", "key: ${newKey.key}", "---"`;
  outcome.warnings.push(
    `${by}${exists}, but its front matter key could not be written into ${newKey.name} (${why}): ${how}, else the next publish makes another post`,
  );
}
