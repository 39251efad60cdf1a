// `wp publish` with no paths and no post from flags publishes the project around the working folder; outside
// one, it says so, and where the nearest project below is (a README's `posts/blogctl.yml` when a workflow
// runs from the repository's root), instead of asking for a post's title.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { displayPath } from './display-path.js';
import { PROJECT_FILE } from './project-file.js';

/** How far below the working folder a project file is looked for: levels, and folders read in all. */
const BELOW = { depth: 4, folders: 2_000 } as const;

/**
 * The shallowest blogctl.yml below `dir` (breadth first, in name order), within BELOW; hidden folders and
 * node_modules are not looked into.
 */
function projectFileBelow(dir: string): string | undefined {
  let level = [dir];
  let read = 0;
  for (let depth = 0; depth <= BELOW.depth && level.length; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (++read > BELOW.folders) return undefined;
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      if (depth > 0 && entries.some((e) => e.name === PROJECT_FILE && e.isFile()))
        return join(folder, PROJECT_FILE);
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
        if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
          next.push(join(folder, entry.name));
    }
    level = next;
  }
  return undefined;
}

/** The error of a `wp publish` with nothing to publish outside a project, naming the nearest project below. */
export function noProjectError(cwd: string): UsageError {
  const below = projectFileBelow(cwd);
  const hint = below
    ? `; the nearest is ${displayPath(below, cwd)}: run blogctl from its folder, or give its folder (blogctl wp publish ${displayPath(below.slice(0, -PROJECT_FILE.length - 1), cwd)})`
    : ': give the files or folders to publish, run `blogctl wp init` to make this folder a project, or give one post with --title and --content';
  return new UsageError(`no ${PROJECT_FILE} here or above${hint}`);
}
