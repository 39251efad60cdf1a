// Where a run's sources belong, which decides their identity on the site: the project around them (its
// namespace; keys relative to its root), else the git work tree around them (the repository's name as the
// namespace; keys relative to its root), else nothing (only a front matter `key` or `slug` can name a post).
// Never the folder blogctl runs in.
import { dirname, resolve } from 'node:path';
import { statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { findGitRoot, repositoryName } from './git-root.js';
import { findProject, NAMESPACE_RE, toNamespace, type Project } from './project-file.js';

export interface Scope {
  /** The namespace: the project's, else derived from the git repository, else '' (the default). */
  namespace: string;
  /** What a file's key is relative to: the project's root, else the git work tree's; undefined outside both. */
  root?: string;
  project?: Project;
  kind: 'project' | 'git' | 'none';
  /**
   * For a post without a file run inside a project: the project's namespace, which such posts carried
   * before they stopped taking it; a post found only there is this source's, and takes its namespace.
   */
  formerNamespace?: string;
}

/** Outside any project or git work tree, with no file sources: the default namespace. */
export const NO_SCOPE: Scope = { namespace: '', kind: 'none' };

const folderOf = (path: string): string => {
  const full = resolve(path);
  try {
    return statSync(full).isDirectory() ? full : dirname(full);
  } catch {
    return dirname(full);
  }
};

/** The one scope of these sources; sources of two projects (or repositories) in one run are refused. */
export function scopeOf(paths: string[]): Scope {
  let scope: Scope | undefined;
  let first = '';
  for (const path of paths) {
    const project = findProject(path);
    let next: Scope;
    if (project) next = { namespace: project.namespace, root: project.root, project, kind: 'project' };
    else {
      const git = findGitRoot(folderOf(path));
      next = git
        ? { namespace: toNamespace(repositoryName(git)), root: git, kind: 'git' }
        : { namespace: '', kind: 'none' };
    }
    if (!scope) {
      scope = next;
      first = path;
      continue;
    }
    if (scope.kind !== next.kind || scope.root !== next.root) {
      const where = (s: Scope): string =>
        s.kind === 'project'
          ? `project "${s.namespace}" (${s.project!.file})`
          : s.kind === 'git'
            ? `the git work tree ${s.root!}`
            : 'no project';
      throw new UsageError(
        `${first} is in ${where(scope)} but ${path} is in ${where(next)}: publish each project on its own`,
      );
    }
  }
  return scope ?? NO_SCOPE;
}

/**
 * The scope of a post without a file (flags, --key, --slug, --from-blog, `blog create --publish`): the
 * project around `dir` (where blogctl runs) gives its site and post defaults, but never its namespace — a
 * post's identity never depends on the folder blogctl runs in, and a project's namespace holds only posts
 * whose sources are its files (else a whole-project run would call them orphans, and --prune trash them).
 * The namespace is `namespace` (`--namespace`) when given, else the default one (''), from any folder.
 */
export function projectScopeAt(dir: string, namespace?: string): Scope {
  if (namespace !== undefined) checkNamespace(namespace);
  const project = findProject(dir);
  if (!project) return namespace === undefined ? NO_SCOPE : { ...NO_SCOPE, namespace };
  return {
    namespace: namespace ?? '',
    root: project.root,
    project,
    kind: 'project',
    ...(namespace === undefined && project.namespace !== '' && { formerNamespace: project.namespace }),
  };
}

/** `--namespace`: a namespace as blogctl.yml takes it. */
export function checkNamespace(namespace: string): void {
  if (!NAMESPACE_RE.test(namespace))
    throw new UsageError(
      `--namespace: "${namespace}" is not a namespace (lower-case letters, digits, ".", "_", "-" and "/", at most 100 characters)`,
    );
}
