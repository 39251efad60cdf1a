// What a project's folders hold that is not a post: the repository's README, changelog and licence, installed
// packages, and whatever `exclude:` in blogctl.yml names (a `plan.md` a CI job writes into the checkout).
// Applied where a folder of the project is walked for sources; a file named in `sources:` or on the command
// line is always read. Globs are matched by picomatch: a pattern without `/` matches a file or folder name at
// any depth, one with `/` the path from the project's root; case is ignored (README.md, Readme.md, readme.md
// are one file on macOS and Windows). Hidden files and folders (`.git`, `.github`) are left out of every
// folder walk before these apply.
import { relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { findProject, type Project } from './project-file.js';

/** Left out of every project's folders, with what `exclude:` adds. */
const DEFAULT_EXCLUDES = ['README*', 'CHANGELOG*', 'LICENSE*', 'node_modules'] as const;

/** Which pattern leaves a path out: undefined when it is read. */
export type Exclusion = (path: string) => string | undefined;

const matchers = new WeakMap<Project, Exclusion>();

/** The exclusion of the project around `dir` (a folder being walked), or undefined outside any project. */
export function exclusionAt(dir: string): Exclusion | undefined {
  const project = findProject(dir);
  return project && exclusionOf(project);
}

/** A project's exclusion: its default and `exclude:` patterns, matched against paths from its root. */
function exclusionOf(project: Project): Exclusion {
  const known = matchers.get(project);
  if (known) return known;
  const patterns = [...DEFAULT_EXCLUDES, ...project.exclude].map((p) => p.replace(/^\/+|\/+$/g, ''));
  const options = { dot: true, basename: true, nocase: true } as const;
  const tests = patterns.map((pattern) => ({ pattern, test: picomatch(pattern, options) }));
  const named = new Set(project.sources.map((s) => resolve(s)));
  const exclusion: Exclusion = (path) => {
    const full = resolve(path);
    if (named.has(full)) return undefined;
    const rel = relative(project.root, full).split(sep).join('/');
    if (!rel || rel.startsWith('../') || rel === '..') return undefined;
    return tests.find(({ test }) => test(rel))?.pattern;
  };
  matchers.set(project, exclusion);
  return exclusion;
}
