// One namespace, one owner, for posts published before files outside any project in a git work tree had a
// namespace of their own (project/scope.ts): such a file's post still carries the repository's name, which
// a project of that work tree may carry too (`wp init` gives it by default). Which of those posts is whose
// is told by the files of the work tree, read here only when a run needs to know:
//
// - a loose file's run takes a post of that namespace by its key only when no project file of the namespace
//   names the same key (a project's post is never taken);
// - a project's run never counts as an orphan (nor prunes) a post whose key a loose file of the work tree
//   names: the file exists, outside the project.
//
// The walk is bounded (MAX_ENTRIES): past it, what was not reached is unknown, and the answer is the safe
// one (no post taken; no such post an orphan). Hidden folders, node_modules and symbolic links are not
// followed, as a folder of sources is walked (post-files.ts).
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import type { Scope } from '../../project/scope.js';
import { loadProject, PROJECT_FILE } from '../../project/project-file.js';
import type { SourceKey } from '../source-key.js';
import type { PublishPostsOptions } from '../sync/publish-plan.js';
import { isMarkdownPath } from './markdown-path.js';
import { POST_EXTENSIONS } from './post-files.js';

/** Folder entries looked at before the walk gives up (a work tree that large answers "unknown"). */
const MAX_ENTRIES = 50_000;
/** Bytes of a Markdown file read for its front matter. */
const HEAD_BYTES = 64 * 1024;

interface RepositoryKeys {
  /** Key hashes of the post files outside every project, as their git work tree names them. */
  loose: Set<string>;
  /** Key hashes of the post files of projects whose namespace is the one asked about. */
  claimed: Set<string>;
  /** The walk stopped at its bound. */
  partial: boolean;
}

/**
 * The keys of `gitRoot`'s post files: those outside every project (`loose`), or those of projects of
 * `namespace` (`claimed`): only the files `want` names are read.
 */
async function repositoryKeys(
  gitRoot: string,
  namespace: string,
  want: 'loose' | 'claimed',
): Promise<RepositoryKeys> {
  // Loaded when the plan asks (identity.ts hashes with node:crypto, which a dry run from flags never needs).
  const [{ readFrontMatter }, { keyHash }] = await Promise.all([
    import('./front-matter.js'),
    import('../identity.js'),
  ]);
  const keys: RepositoryKeys = { loose: new Set(), claimed: new Set(), partial: false };
  let entries = 0;
  const stack: { dir: string; project?: { root: string; namespace?: string } }[] = [{ dir: gitRoot }];
  while (stack.length) {
    const { dir, project: above } = stack.pop()!;
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries += list.length;
    if (entries > MAX_ENTRIES) {
      keys.partial = true;
      return keys;
    }
    let project = above;
    if (list.some((e) => e.name === PROJECT_FILE && e.isFile())) {
      let ns: string | undefined;
      try {
        ns = loadProject(join(dir, PROJECT_FILE)).namespace;
      } catch {
        // A project file that cannot be read still makes its folder a project's: its files are not loose.
      }
      project = { root: dir, ...(ns !== undefined && { namespace: ns }) };
    }
    for (const entry of list) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') stack.push({ dir: path, project });
        continue;
      }
      if (!entry.isFile() || !POST_EXTENSIONS.some((ext) => entry.name.toLowerCase().endsWith(ext))) continue;
      // A project file that could not be read claims what it holds: nothing of it is ever taken.
      const into = project ? (project.namespace ?? namespace) === namespace && keys.claimed : keys.loose;
      if (!into || into !== keys[want]) continue;
      into.add(keyHash(sourceKeyOf(path, project?.root ?? gitRoot, readFrontMatter)));
    }
  }
  return keys;
}

/** A file's source key as publish-sources.ts makes it: front matter key, blog, slug, else its path. */
function sourceKeyOf(
  path: string,
  root: string,
  readFrontMatter: (source: string, label: string) => { data: Record<string, unknown> },
): SourceKey {
  const byPath: SourceKey = `path:${relative(root, path).split(sep).join(posix.sep)}`;
  if (!isMarkdownPath(path)) return byPath;
  let data: Record<string, unknown>;
  try {
    data = readFrontMatter(
      head(path)
        .replace(/^\uFEFF/, '')
        .replace(/\r\n?/g, '\n'),
      path,
    ).data;
  } catch {
    return byPath;
  }
  const text = (v: unknown): string | undefined =>
    typeof v === 'string' || typeof v === 'number' ? String(v).trim() || undefined : undefined;
  const key = text(data['key']);
  if (key !== undefined) return `key:${key}`;
  const blog = text(data['blog_id']);
  if (blog !== undefined) return `blog:${blog}`;
  const slug = text(data['slug']);
  return slug !== undefined ? `slug:${slug}` : byPath;
}

/** The first HEAD_BYTES of a file, as text. */
function head(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The run's options for a scope that shares its namespace with older posts of loose files (scope.ts): for
 * those loose files, where their posts were and which keys projects claim; for a project, which posts are
 * loose files'. The work tree is read once, and only if the plan asks.
 */
export function sharedNamespaceOptions(
  scope: Scope,
): Pick<PublishPostsOptions, 'sharedNamespace' | 'outsideProject'> {
  const { sharedNamespace: namespace, gitRoot } = scope;
  if (namespace === undefined || gitRoot === undefined) return {};
  const want = scope.kind === 'git' ? 'claimed' : 'loose';
  let read: Promise<RepositoryKeys> | undefined;
  const keys = (): Promise<RepositoryKeys> => (read ??= repositoryKeys(gitRoot, namespace, want));
  if (scope.kind === 'git')
    return {
      sharedNamespace: {
        namespace,
        claimed: async () => {
          const k = await keys();
          return (key) => k.partial || k.claimed.has(key);
        },
      },
    };
  if (scope.kind === 'project')
    return {
      outsideProject: async () => {
        const k = await keys();
        return (key) => k.partial || k.loose.has(key);
      },
    };
  return {};
}
