// Whose config: like ssh with ~/.ssh (StrictModes), blogctl reads its config dir, config.json and
// credentials.json only when they are the user's own (or root's) and no one else may write them. Another
// local user who can replace config.json (a world-writable folder above it, a shared BLOGCTL_CONFIG_DIR)
// could point the user's API key or Application Passwords at their own server. A leaf module.
import { statSync, type Stats } from 'node:fs';
import { UsageError } from '../errors.js';

/**
 * A UsageError naming `path` and the fix when it belongs to another user, or its group or anyone may write
 * it; nothing when it is missing, or on a platform without POSIX owners (Windows).
 */
export function checkTrusted(path: string, what: 'folder' | 'file'): void {
  const problem = trustProblem(path, what);
  if (problem) throw new UsageError(problem);
}

function trustProblem(path: string, what: 'folder' | 'file'): string | undefined {
  if (typeof process.getuid !== 'function' || process.platform === 'win32') return undefined;
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  const me = process.getuid();
  if (stats.uid !== me && stats.uid !== 0)
    return `the config ${what} ${path} belongs to another user (uid ${stats.uid}; you are uid ${me}): blogctl does not use another user's config; run \`chown ${me} ${path}\` if it is yours, or set BLOGCTL_CONFIG_DIR to a folder of your own; nothing was read`;
  if (stats.mode & 0o022) {
    const mode = (stats.mode & 0o777).toString(8).padStart(4, '0');
    const who = stats.mode & 0o002 ? 'anyone' : 'its group';
    return `the config ${what} ${path} may be changed by ${who} (mode ${mode}): blogctl does not use a config others can change; run \`chmod go-w ${path}\`; nothing was read`;
  }
  return undefined;
}
