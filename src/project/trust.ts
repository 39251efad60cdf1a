// Whose project file: a blogctl.yml names the site a run sends its Application Password to, and the
// defaults it publishes with, so it is taken only from a folder the person running blogctl controls. As
// git's `safe.directory` does for repositories, the walk up to find it stops at a folder another user owns
// (anyone but this user and root) or that anyone may write (world-writable, sticky `/tmp` included: anyone
// can create a file there), and a project file another user owns or anyone may write is not read.
// BLOGCTL_SAFE_DIRECTORIES (folders separated by the platform's path delimiter, or `*`) trusts folders
// whoever owns them: a container job running as root in a checkout owned by the runner's user, say.
// Skipping a project file is said on stderr, once per run. Windows has no such owners: nothing is checked.
import type { Stats } from 'node:fs';
import { delimiter, resolve } from 'node:path';

interface Discovery {
  warn?: (line: string) => void;
  safe: string[];
}

let discovery: Discovery = { safe: [] };
const said = new Set<string>();

/** Where a run's discovery says what it skipped, and which folders its environment trusts (factory.ts). */
export function setDiscovery(env: NodeJS.ProcessEnv, warn: (line: string) => void): void {
  const safe = (env['BLOGCTL_SAFE_DIRECTORIES'] ?? '')
    .split(delimiter)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s === '*' ? s : resolve(s)));
  discovery = { warn, safe };
  said.clear();
}

/** Says a line of discovery on stderr, once per run. */
export function sayDiscovery(line: string): void {
  if (said.has(line)) return;
  said.add(line);
  discovery.warn?.(line);
}

/**
 * Why a folder or file (its stat) is not trusted to hold a project file: another user owns it, or anyone
 * may write it; undefined when it is trusted.
 */
export function distrust(path: string, info: Stats): string | undefined {
  if (typeof process.geteuid !== 'function' || process.platform === 'win32') return undefined;
  if (discovery.safe.includes('*') || discovery.safe.includes(resolve(path))) return undefined;
  const me = process.geteuid();
  if (info.uid !== me && info.uid !== 0) return `another user (uid ${info.uid}) owns it`;
  if (info.mode & 0o002)
    return info.isDirectory() && info.mode & 0o1000
      ? 'anyone may write to it (a shared folder, as /tmp)'
      : 'anyone may write to it';
  return undefined;
}
