// What a local write failure means, in one line naming the file: EROFS, ENOSPC and the like reach the person as
// "cannot write <file>: the file system is read-only (EROFS)" and exit 9, not as exit 1 "unexpected error".
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { WriteFailedError } from '../errors.js';

const CAUSES: Record<string, string> = {
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space is left on the device',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EIO: 'an I/O error',
};

/**
 * A WriteFailedError when `error` is this machine refusing to write `path`, or undefined (anything else stays
 * as it is). `after` says what that left: "config.json was left as it was".
 */
export function writeFailure(error: unknown, path: string, after: string): WriteFailedError | undefined {
  let code = (error as NodeJS.ErrnoException | undefined)?.code;
  let where = path;
  if (code === 'ENOENT') {
    // mkdir(…, {recursive: true}) answers ENOENT when it cannot create a directory on a read-only file system:
    // the real cause is found at the nearest directory that exists.
    const blocked = blockedAncestor(path);
    if (!blocked) return undefined;
    ({ code, where } = blocked);
  }
  const cause = code === undefined ? undefined : CAUSES[code];
  if (!cause) return undefined;
  const at = where === path ? '' : ` at ${where}`;
  return new WriteFailedError(`cannot write ${path}: ${cause} (${code}${at}); ${after}`);
}

/** The nearest existing directory above `path` and why it cannot be written to, when it cannot. */
function blockedAncestor(path: string): { code: string; where: string } | undefined {
  let dir = path;
  while (!existsSync(dir)) {
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  try {
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? { code, where: dir } : undefined;
  }
}
