// Where a run's sources belong, which decides their identity on the site: the project around them (its
// namespace; keys relative to its root), else the git work tree around them (`git:` and the repository's
// name as the namespace; keys relative to its root), else nothing (a front matter `key`, given on the first
// publish when blogctl may write it, or `slug` names a post). Never the folder blogctl runs in.
//
// One namespace, one owner: the namespace of files outside any project in a git work tree starts with `git:`,
// which no project and no --namespace can take (":" is no namespace character), so a project's runs never
// see those files' posts, nor call them orphans. Such files carried the bare repository name before, which
// `wp init` gives a project by default: `sharedNamespace` names it, for the run to find their posts there
// (publish-plan.ts) and for a project of that namespace to leave them alone.
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
   * The namespace files outside any project in this git work tree carried before they had their own (the
   * repository's name): set for `git`, and for a `project` whose namespace is that name. See the top.
   */
  sharedNamespace?: string;
  /** The git work tree, when `sharedNamespace` is set. */
  gitRoot?: string;
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
      next = git ? gitScope(git) : { namespace: '', kind: 'none' };
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
  return scope?.kind === 'project' ? withSharedNamespace(scope) : (scope ?? NO_SCOPE);
}

/** The namespace of files outside any project in the git work tree of repository `name` (see the top). */
const gitNamespace = (name: string): string => `git:${toNamespace(name)}`;

function gitScope(git: string): Scope {
  const name = repositoryName(git);
  return {
    namespace: gitNamespace(name),
    root: git,
    kind: 'git',
    sharedNamespace: toNamespace(name),
    gitRoot: git,
  };
}

/** A project whose namespace is its git repository's name shares it with that work tree's older posts. */
function withSharedNamespace(scope: Scope): Scope {
  const git = findGitRoot(scope.root!);
  if (!git || toNamespace(repositoryName(git)) !== scope.namespace) return scope;
  return { ...scope, sharedNamespace: scope.namespace, gitRoot: git };
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
