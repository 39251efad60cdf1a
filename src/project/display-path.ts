// How a run names the files it found itself (a project's sources, its project file): by their path from the
// folder blogctl runs in, as the files named on the command line are, so `wp publish` and `wp publish posts/`
// print the same names, a CI log shows paths a reader can open, and JSON carries nothing of the runner's own
// layout (no home folder, no checkout path).
import { isAbsolute, relative, resolve } from 'node:path';

/** `path` from `cwd` (`posts/a.md`, `../posts/a.md`); `.` for `cwd` itself; absolute only across drives. */
export function displayPath(path: string, cwd = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, path));
  if (!rel) return '.';
  return isAbsolute(rel) ? path : rel;
}
