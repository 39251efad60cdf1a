// Files blogctl writes from data it did not choose (a site's posts and images, a generated blog, a project's
// sources) land inside the folder it was asked to write in, and only there:
//
// - the path is resolved, then checked to be under the root (no `..` out of it);
// - no symbolic link is followed, at the file or in any folder between the root and it: a link in the way is
//   an error naming it (exit 2), and nothing is written. A repository can carry a dangling link
//   (`posts/welcome.md → ~/.bash_profile`); writing through it would write wherever it points;
// - the file is written as atomic-file.ts writes (temporary file, fsync, rename), so a crash leaves the old
//   file or the whole new one, and a rename replaces a link that appears at the last moment instead of
//   following it; `exclusive` never replaces anything.
//
// Checking a path and then writing to it leaves a window in which another process could swap a checked
// folder for a link. On Linux there is none: each folder is opened with O_NOFOLLOW | O_DIRECTORY from the
// one above it through /proc/self/fd (what openat(2) does; Node has no openat), and the file is written
// through the last folder's descriptor, so a swapped name is never looked up again. Elsewhere (macOS,
// Windows) each folder is checked with lstat as it is reached and the file written by its path: a process
// that can change the project's folders while blogctl writes could still redirect that one write.
import { closeSync, constants, lstatSync, mkdirSync, openSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { atomicWriteFile } from './atomic-file.js';

export interface WriteInsideOptions {
  /** Permission bits of a new file (the umask applies); a file replaced keeps its own. Default 0666. */
  mode?: number;
  /** Make the file only where nothing is: anything there (a file, a link) fails with code EEXIST. */
  exclusive?: boolean;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const PROC_FD = '/proc/self/fd';

/**
 * Writes `data` to `path`, which must be under `root` (a folder that exists; links above it are the
 * user's own and are followed). Folders between them are made as needed. Throws a UsageError naming a
 * link or a non-folder in the way, or a path outside `root`; an ErrnoException (EEXIST, ENOSPC, …) naming
 * the real path otherwise.
 */
export async function writeInside(
  root: string,
  path: string,
  data: string | Uint8Array,
  options: WriteInsideOptions = {},
): Promise<void> {
  const parts = partsUnder(root, path);
  const name = parts.pop()!;
  const folder = openFolder(resolve(root), parts);
  try {
    const at = folder.at(name);
    const there = lstatOrNothing(at);
    if (there) {
      refuseLink(there, join(folder.path, name));
      if (options.exclusive) throw exists(join(folder.path, name));
      if (!there.isFile())
        throw new UsageError(`${shown(join(folder.path, name))} is not a file; nothing written`);
    }
    const mode = there ? there.mode & 0o777 : (options.mode ?? 0o666);
    try {
      await atomicWriteFile(at, data, mode, { exclusive: Boolean(options.exclusive) });
    } catch (error) {
      throw realPathIn(error, folder);
    }
  } finally {
    folder.close();
  }
}

/**
 * Checks, without writing or making anything, that writing `path` under `root` would find no link and
 * leave no folder: for a batch that must fail before its first write. Folders not made yet pass.
 */
export function checkInside(root: string, path: string): void {
  const parts = partsUnder(root, path);
  let current = resolve(root);
  for (const [i, part] of parts.entries()) {
    current = join(current, part);
    const there = lstatOrNothing(current);
    if (!there) return;
    refuseLink(there, current);
    if (i < parts.length - 1 && !there.isDirectory())
      throw new UsageError(`${shown(current)} is not a folder; nothing written`);
  }
}

/**
 * Appends `text` to the file `path` (made if missing), never through a link at it: for a file named by the
 * user or CI (`--summary "$GITHUB_STEP_SUMMARY"`), in whatever folder it is.
 */
export async function appendNoFollow(path: string, text: string): Promise<void> {
  const { open } = process.getBuiltinModule('node:fs/promises');
  let handle;
  try {
    // O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of hanging the command.
    handle = await open(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0),
      0o666,
    );
  } catch (error) {
    const there = lstatOrNothing(path);
    if (there) refuseLink(there, path);
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile())
      throw new UsageError(`${shown(path)} is not a file; nothing written`);
    await handle.appendFile(text);
  } finally {
    await handle.close();
  }
}

/** A UsageError when `path` is a symbolic link (dangling or not), told as `what` (a flag) names it. */
export function refuseLinkAt(path: string, what: string): void {
  const there = lstatOrNothing(path);
  if (there?.isSymbolicLink())
    throw new UsageError(
      `${what}: ${path} is a symbolic link: blogctl writes no file through a link (remove it, or write elsewhere); nothing was sent`,
    );
}

/** The components of `path` below `root`, refused when `path` is `root` itself or outside it. */
function partsUnder(root: string, path: string): string[] {
  const base = resolve(root);
  const target = resolve(base, path);
  const rel = relative(base, target);
  if (!rel || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`))
    throw new UsageError(
      `${shown(target)}: outside ${shown(base)}, the folder being written; nothing written`,
    );
  return rel.split(sep);
}

interface Folder {
  /** The folder's path (for messages). */
  path: string;
  /** A path that names `name` in this very folder. */
  at(name: string): string;
  close(): void;
}

function openFolder(root: string, parts: string[]): Folder {
  if (process.platform === 'linux' && O_NOFOLLOW && O_DIRECTORY) {
    let fd: number | undefined;
    try {
      fd = openSync(root, constants.O_RDONLY | O_DIRECTORY);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (fd !== undefined && lstatOrNothing(`${PROC_FD}/${fd}`)) return openByDescriptor(fd, root, parts);
    if (fd !== undefined) closeSync(fd);
  }
  return openByPath(root, parts);
}

/** Each folder opened from the one above it through its descriptor: no name is looked up twice. */
function openByDescriptor(rootFd: number, root: string, parts: string[]): Folder {
  let fd = rootFd;
  let path = root;
  try {
    for (const part of parts) {
      const next = `${PROC_FD}/${fd}/${part}`;
      const nextPath = join(path, part);
      let child: number | undefined;
      for (let attempt = 0; child === undefined; attempt++) {
        try {
          child = openSync(next, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' && attempt < 3) {
            try {
              mkdirSync(next, 0o777);
            } catch (made) {
              if ((made as NodeJS.ErrnoException).code !== 'EEXIST') throw renamed(made, next, nextPath);
            }
            continue;
          }
          if (code === 'ELOOP' || code === 'ENOTDIR') {
            const there = lstatOrNothing(next);
            if (there) refuseLink(there, nextPath);
            throw new UsageError(`${shown(nextPath)} is not a folder; nothing written`);
          }
          throw renamed(error, next, nextPath);
        }
      }
      closeSync(fd);
      fd = child;
      path = nextPath;
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const folderFd = fd;
  return { path, at: (name) => `${PROC_FD}/${folderFd}/${name}`, close: () => closeSync(folderFd) };
}

/** Each folder checked with lstat as it is reached (platforms without /proc/self/fd). */
function openByPath(root: string, parts: string[]): Folder {
  let path = root;
  for (const part of parts) {
    path = join(path, part);
    let there = lstatOrNothing(path);
    if (!there) {
      try {
        mkdirSync(path, 0o777);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      there = lstatOrNothing(path);
    }
    if (!there) continue;
    refuseLink(there, path);
    if (!there.isDirectory()) throw new UsageError(`${shown(path)} is not a folder; nothing written`);
  }
  const folder = path;
  return { path: folder, at: (name) => join(folder, name), close: () => undefined };
}

function refuseLink(stats: Stats, path: string): void {
  if (stats.isSymbolicLink())
    throw new UsageError(
      `${shown(path)} is a symbolic link: blogctl writes no file through a link (remove it, or write elsewhere); nothing written`,
    );
}

function lstatOrNothing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function exists(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EEXIST: file already exists, '${path}'`), { code: 'EEXIST', path });
}

/** An error about a /proc/self/fd path, told with the real one. */
function renamed(error: unknown, procPath: string, realPath: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.message !== 'string') return error;
  e.message = e.message.split(procPath).join(realPath);
  if (e.path === procPath) e.path = realPath;
  return e;
}

function realPathIn(error: unknown, folder: Folder): unknown {
  const procDir = dirname(folder.at('x'));
  const e = error as NodeJS.ErrnoException & { dest?: string };
  if (procDir === folder.path || typeof e?.message !== 'string') return error;
  e.message = e.message.split(procDir).join(folder.path);
  if (typeof e.path === 'string') e.path = e.path.split(procDir).join(folder.path);
  if (typeof e.dest === 'string') e.dest = e.dest.split(procDir).join(folder.path);
  return e;
}

/** A path as messages name it: from the folder blogctl runs in when that is shorter. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !isAbsolute(rel) && rel.length < path.length ? rel : path;
}
