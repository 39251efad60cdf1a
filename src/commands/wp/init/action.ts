// `wp init`: writes the project file (blogctl.yml) at the root of a content folder — the site, the
// namespace (given, or derived from the git repository's or the folder's name, and shown), the sources —
// and with --write-keys gives every Markdown source without one a random front matter `key`.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { decodeUtf8 } from '../../../lib/utf8.js';
import { writeFailure } from '../../../lib/write-failure.js';
import { checkInside, writeInside } from '../../../lib/write-inside.js';
import { displayPath } from '../../../project/display-path.js';
import { findGitRoot, repositoryName } from '../../../project/git-root.js';
import {
  derivedNamespace,
  findProjectFile,
  loadProject,
  NAMESPACE_RE,
  PROJECT_FILE,
  type Project,
} from '../../../project/project-file.js';
import { addKey } from '../../../project/write-keys.js';
import { checkSiteId, checkSiteUrl, loadSite } from '../../../sites/profiles.js';
import type { Input } from './command.js';
import { expandPaths } from '../../../publishing/sources/post-files.js';

export async function action({ args, opts, deps }: Input): Promise<void> {
  const dir = resolve(args[0] ?? '.');
  const kind = statSync(dir, { throwIfNoEntry: false });
  if (kind && !kind.isDirectory()) throw new UsageError(`${dir}: not a folder`);
  // A new project's folder is made when it is missing (`wp init posts`), once everything else is checked.
  const file = join(dir, PROJECT_FILE);
  let project: Project;
  if (kind && exists(file)) {
    if (
      opts.site !== undefined ||
      opts.namespace !== undefined ||
      opts.username !== undefined ||
      !opts.writeKeys
    )
      throw new UsageError(
        `${file} exists already (namespace "${loadProject(file).namespace}"): edit it by hand; a project's namespace is never changed by blogctl`,
        { hints: ['to give its sources keys, run `blogctl wp init --write-keys`'] },
      );
    project = loadProject(file);
  } else {
    project = await createProject(dir, file, opts, deps);
  }
  if (opts.writeKeys) await writeKeys(project, deps);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function createProject(dir: string, file: string, opts: Input['opts'], deps: Deps): Promise<Project> {
  const siteArg = opts.site ?? deps.settings().defaultSite;
  if (siteArg === undefined)
    throw new UsageError('missing --site: give a site profile id, or the site URL with --username');
  let site: string | { url: string; username: string };
  if (/^https?:\/\//i.test(siteArg)) {
    if (opts.username === undefined)
      throw new UsageError('--site is a URL: give the WordPress username with --username');
    site = { url: checkSiteUrl(siteArg, '--site'), username: opts.username };
  } else {
    if (opts.username !== undefined)
      throw new UsageError('--username goes with a site URL; a site profile has its own username');
    site = loadSite(deps.store(), checkSiteId(siteArg, '--site')).id;
  }
  let namespace: string;
  let from: string;
  if (opts.namespace !== undefined) {
    namespace = opts.namespace.trim();
    if (!NAMESPACE_RE.test(namespace))
      throw new UsageError(
        `--namespace: "${namespace}" is not a namespace (lower-case letters, digits, ".", "_", "-" and "/", at most 100 characters)`,
      );
    from = 'as given';
  } else {
    namespace = derivedNamespace(dir);
    const git = findGitRoot(dir);
    from = git ? `from the git repository "${repositoryName(git)}"` : 'from the folder name';
  }
  const outer = findProjectFile(join(dir, '..'));
  if (outer && outer !== file)
    deps.io.warn(`${outer} is a project around this one: sources in ${dir} now belong to this project`);
  const text = [
    '# blogctl project file: the site, the namespace and the sources of `blogctl wp publish`.',
    "# The namespace makes these posts this project's on the site: never change it once published.",
    typeof site === 'string'
      ? `site: ${JSON.stringify(site)}`
      : `site:\n  url: ${JSON.stringify(site.url)}\n  username: ${JSON.stringify(site.username)}`,
    `namespace: ${JSON.stringify(namespace)}`,
    'sources:',
    '  - .',
    '',
  ].join('\n');
  try {
    if (!exists(dir)) {
      mkdirSync(dir, { recursive: true });
      deps.io.note(`Created the folder ${displayPath(dir)}`);
    }
    // Only where nothing is: an existing file is the user's, and a link (even dangling) points elsewhere.
    await writeInside(dir, file, text, { exclusive: true, mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new UsageError(`${file} exists already: edit it by hand`);
    throw writeFailure(error, file, 'nothing was written') ?? error;
  }
  deps.io.out(file);
  deps.io.note(
    `Wrote ${PROJECT_FILE}: site ${typeof site === 'string' ? `"${site}"` : `${site.url} as ${site.username}`}, namespace "${namespace}" (${from}), sources: the folder`,
  );
  return loadProject(file);
}

/** A random `key:` in every Markdown source without one; the rest of each file is kept byte for byte. */
async function writeKeys(project: Project, deps: Deps): Promise<void> {
  const { files } = expandPaths(project.sources.filter(exists));
  // Every file is checked before the first is written: one outside the project or reached through a
  // symbolic link fails the run with nothing written.
  const edits: { path: string; shown: string; text: string; key: string }[] = [];
  for (const path of files) {
    // Refused when not UTF-8: written back, other bytes would change.
    const text = decodeUtf8(readFileSync(path), path);
    const edit = addKey(path, text);
    const shown = relative(process.cwd(), path) || path;
    if (edit.kind === 'json-front-matter') {
      deps.io.warn(`${shown}: JSON front matter: add "key" by hand (its path is its key until then)`);
      continue;
    }
    if (edit.kind !== 'added') continue;
    checkInside(project.root, path);
    edits.push({ path, shown, text: edit.text, key: edit.key });
  }
  let added = 0;
  for (const { path, shown, ...edit } of edits) {
    try {
      await writeInside(project.root, path, edit.text);
    } catch (error) {
      throw writeFailure(error, path, `${added} files were given a key before it`) ?? error;
    }
    added++;
    deps.io.note(`${shown}: key ${edit.key}`);
  }
  deps.io.note(
    added
      ? `Gave ${added} source${added === 1 ? '' : 's'} a key: commit them, and a file keeps its post wherever it moves`
      : 'Every Markdown source has a key already',
  );
}
