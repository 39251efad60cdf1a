// The project's files as `wp pull` sees them: where new files go, free names for them, the files of posts
// pulled before (by their front matter key), and reading what is there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../../errors.js';
import type { Project } from '../../project/project-file.js';
import { caseKey, portableStem } from '../../lib/portable-name.js';
import { checkInside } from '../../lib/write-inside.js';

/** Where new files go: the folder given, else the project's first source folder, else its root. */
export function outputFolder(project: Project, given: string | undefined): string {
  const inside = (dir: string): boolean => {
    const rel = relative(project.root, dir);
    return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
  };
  if (given !== undefined) {
    const dir = resolve(given);
    if (!inside(dir)) throw new UsageError(`${given}: outside the project (${project.root})`);
    return dir;
  }
  // A source of the project file is refused as a folder given would be: pull writes only inside it.
  const chosen = (source: string): string => {
    if (inside(resolve(source))) return source;
    throw new UsageError(
      `${project.file}: sources: ${relative(project.root, source)} is outside the project (${project.root}): wp pull writes only inside it; name a folder inside it (\`blogctl wp pull <folder>\`)`,
    );
  };
  for (const source of project.sources) {
    try {
      if (statSync(source).isDirectory()) return chosen(source);
    } catch {
      // Not there yet: made when the first file is written.
      if (!/\.(md|markdown|html?)$/i.test(source)) return chosen(source);
    }
  }
  return project.root;
}

/**
 * A portable name for an image from its URL (lib/portable-name.ts): its last path segment decoded (kept
 * as it is when its `%` escapes are malformed), its stem and extension reduced to letters, digits, `_` and
 * `-`, never a device name.
 */
export function safeName(url: string): string {
  let segment: string;
  try {
    segment = basename(new URL(url).pathname);
  } catch {
    segment = basename(url.split(/[?#]/)[0]!);
  }
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? portableStem(name.slice(dot + 1), '', 10) : '';
  const stem = portableStem(dot > 0 ? name.slice(0, dot) : name, 'image', 90);
  return ext ? `${stem}.${ext}` : stem;
}

/**
 * A path in `dir` for `name` that no other post of this run took and no file holds, in any case (macOS and
 * Windows take `A.md` and `a.md` for one file): `name`, else `<stem>-<id>.md`, else `<stem>-<id>-2.md`, …
 * A file already there, even one named like a post's (`<slug>-<id>.md`), is never the answer: it may be
 * anyone's, and --force replaces only a post's own file (found by its key).
 */
export function freePath(dir: string, name: string, id: number, taken: Set<string>): string {
  const there = namesIn(dir, taken);
  const stem = name.replace(/\.md$/, '');
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : n === 2 ? `${stem}-${id}.md` : `${stem}-${id}-${n - 1}.md`;
    const path = join(dir, candidate);
    const key = caseKey(path);
    if (taken.has(key)) continue;
    if (there.has(caseKey(candidate))) {
      // A symbolic link where a post's file would go (a dangling `welcome.md → ~/.bash_profile`) is refused
      // by name, not stepped around.
      checkInside(dir, path);
      continue;
    }
    taken.add(key);
    return path;
  }
}

/** The names in `dir` (case-folded), read once per run (per `taken` set). */
const listings = new WeakMap<Set<string>, Map<string, Set<string>>>();
function namesIn(dir: string, taken: Set<string>): Set<string> {
  let byDir = listings.get(taken);
  if (!byDir) listings.set(taken, (byDir = new Map()));
  let names = byDir.get(dir);
  if (!names) {
    try {
      names = new Set(readdirSync(dir).map(caseKey));
    } catch {
      names = new Set();
    }
    byDir.set(dir, names);
  }
  return names;
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

const MARKER_START = '<!-- blogctl:v1 ';

/**
 * The content without blogctl's markers (each `<!-- blogctl:v1 … -->` that holds no `>`, with the line break
 * before it): what `/\n?<!-- blogctl:v1 [^>]*?-->/g` removes, found in one forward pass. The regex was
 * quadratic on many unclosed markers (each one searched to the end of the content for a `>`); here the
 * next `>` is searched for once and shared by every marker before it.
 */
export function withoutMarker(raw: string): string {
  let out = '';
  let at = 0;
  let gt = -1;
  for (let start = raw.indexOf(MARKER_START); start >= 0; start = raw.indexOf(MARKER_START, start + 1)) {
    const from = start + MARKER_START.length;
    if (gt < from) gt = raw.indexOf('>', from);
    if (gt < 0) break;
    if (gt - 2 < from || raw[gt - 1] !== '-' || raw[gt - 2] !== '-') continue;
    out += raw.slice(at, start > at && raw[start - 1] === '\n' ? start - 1 : start);
    at = gt + 1;
    start = gt;
  }
  return at === 0 ? raw : out + raw.slice(at);
}
