// What a publish run is asked to publish, read into checked jobs before the password is asked for and before
// anything is sent: the files named (or, with none and no post from flags, every source of the project
// around the working folder), else one post from -f, --from-blog, --content-file, --content and the flags.
// Every input error of a batch is reported at once, each naming its source (publish-sources.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigStore } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import { readJsonText, sourceName, type StdinReader } from '../../lib/input-files.js';
import type { IO } from '../../output/io.js';
import { displayPath } from '../../project/display-path.js';
import { noProjectError } from '../../project/no-project.js';
import { findProjectFile, loadProject, type Project } from '../../project/project-file.js';
import { projectScopeAt, scopeOf, type Scope } from '../../project/scope.js';
import { readSites } from '../../sites/profiles.js';
import type { ServicePort } from '../ports.js';
import { expandPaths } from './post-files.js';
import { parsePublishFile, type ContentLayer, type PublishFile } from './post-payload.js';
import { makeJob, problemLines, sameSourceClashes, type JobSpec, type PublishJob } from './publish-job.js';
import { fileIdentityKey, fileSpecs, inputErrors, singleSpec, type SingleInput } from './publish-sources.js';
import { linkParents } from '../post-kinds.js';
import type { SourceKey } from '../source-key.js';

/** The files a run names, expanded: a folder to its post files; with none, the project's sources. */
export interface FoundSources {
  /** The project whose every source is published (no paths, no post from flags), else undefined. */
  project?: Project;
  files: string[];
  /** Paths that are not post files (a folder's `notes.txt`), for the caller to say it skipped them. */
  skipped: string[];
  /** What the project's exclusion left out of its folders (README*, `exclude:`), with the pattern. */
  excluded: { path: string; pattern: string }[];
}

/**
 * The post files of a run. No files and no post from flags: the project around the current folder, all its
 * sources (as git finds its repository from anywhere inside it).
 */
export function findSources(paths: string[], postFromFlags: boolean): FoundSources {
  const wholeProject = paths.length === 0 && !postFromFlags;
  const project = wholeProject ? projectHere() : undefined;
  // Nothing named outside a project: say so (and where a project is), rather than ask for a post's title.
  if (wholeProject && !project) throw noProjectError(process.cwd());
  const expanded = expandPaths(project ? projectSources(project) : paths);
  return {
    ...(project && { project }),
    files: expanded.files,
    skipped: expanded.skipped,
    excluded: expanded.excluded,
  };
}

/** The post from flags (no files): where each part comes from. */
interface PostFlagInputs extends Omit<SingleInput, 'file'> {
  /** `-f`: a JSON payload file (`-` is stdin). */
  file?: string;
  /** --namespace: the project a post without a file belongs to. */
  namespace?: string;
}

export interface SourcesRequest {
  found: FoundSources;
  /** The post flags as a layer, over every file's own fields. */
  flagLayer: ContentLayer;
  post: PostFlagInputs;
  now: Date;
  allowImmediate: boolean;
  /** A post from flags without a title from any source: asked for when a person is there. */
  askTitle?: () => Promise<string>;
  /**
   * A batch's input errors are returned (`problems`, with the jobs of the sources without any) instead of
   * thrown, for the caller to report them with those only the site can tell (unknown terms): one report.
   */
  keepProblems?: boolean;
}

/** The checked jobs of a run, and what else the run needs from its sources. */
export interface Sources {
  jobs: PublishJob[];
  /** Said once the jobs are checked (front matter not used, a file outside any project). */
  warnings: string[];
  /** The project (and namespace) the posts belong to. */
  scope: Scope;
  /** Whether the run holds every source of its project (only then are orphans known). */
  complete: boolean;
  /** The `-f` payload file (its credentials, if any) and the name it is reported by. */
  payload: PublishFile;
  payloadName?: string;
  /** With `keepProblems`: the batch's input errors (its jobs are the sources without any). */
  problems?: { lines: string[]; sources: string[] };
}

/** Every source read and checked; the input errors of a batch are all reported (io.error), then thrown. */
export async function readSources(
  request: SourcesRequest,
  ports: StdinReader & ServicePort & { io: Pick<IO, 'error'> },
): Promise<Sources> {
  const { found, flagLayer, post } = request;
  const { files } = found;
  let specs: JobSpec[];
  let warnings: string[];
  let problems: string[] = [];
  let payload: PublishFile = {};
  let payloadName: string | undefined;
  let scope: Scope;
  if (files.length) {
    scope = scopeOf(files);
    ({ specs, warnings, problems } = await fileSpecs(
      files,
      flagLayer,
      { ...post, newKeys: true },
      ports,
      scope,
    ));
  } else {
    const named = [post.contentFile, post.file].filter((f): f is string => f !== undefined && f !== '-');
    // A post without a file belongs to the project blogctl runs in (as with no paths), else to none.
    scope = named.length ? scopeOf(named) : projectScopeAt(process.cwd(), post.namespace);
    if (post.file !== undefined) {
      payloadName = sourceName(post.file);
      const read = await readJsonText(post.file, '-f', ports);
      payload = parsePublishFile(read.value, payloadName);
    }
    const single = await singleSpec(
      {
        ...(payloadName !== undefined && {
          file: {
            name: payloadName,
            ...(payload.content && { content: payload.content }),
            ...(post.file !== '-' && { path: post.file }),
          },
        }),
        ...pickDefined(post, ['fromBlog', 'contentFile', 'content', 'key', 'featuredImage', 'featuredMedia']),
      },
      flagLayer,
      ports,
      scope,
    );
    specs = [single.spec];
    // A post with no title from any source: asked for on a terminal; otherwise the check names --title.
    if (!single.spec.layers.some((l) => typeof l.values['title'] === 'string') && request.askTitle)
      single.spec.layers.push({ values: { title: await request.askTitle() }, names: { title: '--title' } });
    warnings = single.warnings;
  }
  const kept: string[] = [];
  const jobs = await makeJobs(
    specs,
    { now: request.now, allowImmediate: request.allowImmediate },
    problems,
    ports.io,
    files,
    scope,
    ports,
    request.keepProblems ? kept : undefined,
  );
  return {
    jobs,
    ...(kept.length && {
      problems: { lines: kept, sources: [...new Set([...specs.map((s) => s.name), ...files])] },
    }),
    warnings,
    scope,
    complete: found.project !== undefined || coversProject(scope, files),
    payload,
    ...(payloadName !== undefined && { payloadName }),
  };
}

/** Every source checked; a batch's input errors are reported together, each naming its source. */
async function makeJobs(
  specs: JobSpec[],
  options: { now: Date; allowImmediate: boolean },
  unreadable: string[],
  io: Pick<IO, 'error'>,
  files: string[] = [],
  scope?: Scope,
  stdin?: StdinReader,
  /** Given: a batch's problems go here, and the jobs without any are returned. */
  keep?: string[],
): Promise<PublishJob[]> {
  const jobs: PublishJob[] = [];
  // The files that could not be read, then every source that fails its checks: all reported at once.
  const problems = [...unreadable];
  const several = specs.length + unreadable.length > 1;
  for (const spec of specs) {
    try {
      jobs.push(await makeJob(spec, options));
    } catch (error) {
      if (!several || !(error instanceof UsageError)) throw oneSource(error, spec.name);
      problems.push(...problemLines(error, spec.name));
    }
  }
  // Two sources that are one post, or ask for one slug: reported with the rest.
  for (const clash of sameSourceClashes(jobs))
    problems.push(`${clash}: give each its own front matter "key" or "slug"`);
  if (!problems.length && jobs.some((j) => j.kind?.parent) && scope && stdin)
    problems.push(...(await linkJobParents(jobs, scope, stdin)));
  // Links to other sources: each to a source of the run or of its project, else an error at its line.
  if (jobs.some((j) => j.links) && scope && stdin)
    problems.push(
      ...(await (
        await import('./source-links.js')
      ).linkJobsToSources(
        jobs,
        files,
        () => projectFiles(scope),
        (path) => fileIdentityKey(path, scope, stdin),
      )),
    );
  if (problems.length && keep && several) {
    keep.push(...problems);
    // The sources that failed their checks made no job: the site checks the others.
    return jobs;
  }
  if (problems.length) throw inputErrors(problems, io, [...new Set([...specs.map((s) => s.name), ...files])]);
  return jobs;
}

/**
 * Each source's parent as a post id or another source (post-kinds.ts linkParents): a parent file that is
 * no source of the run is named by its own front matter key or slug, else its path. Returns the problems.
 */
async function linkJobParents(jobs: PublishJob[], scope: Scope, stdin: StdinReader): Promise<string[]> {
  const inRun = new Set(jobs.map((j) => resolve(j.name)));
  const outside = new Map<string, SourceKey | undefined>();
  for (const job of jobs) {
    const ref = job.kind?.parent;
    if (!ref || !('path' in ref) || inRun.has(resolve(ref.path)) || outside.has(resolve(ref.path))) continue;
    outside.set(
      resolve(ref.path),
      existsSync(ref.path) ? await fileIdentityKey(ref.path, scope, stdin) : undefined,
    );
  }
  const sources = jobs.map((job) => ({
    name: job.name,
    file: job.name,
    fields: {},
    ...(job.sourceKey !== undefined && { sourceKey: job.sourceKey }),
    ...(job.kind?.parent && { parent: job.kind.parent }),
  }));
  const { links, problems } = linkParents(sources, (path) => outside.get(resolve(path)));
  jobs.forEach((job, i) => {
    const link = links[i];
    if (link) job.parent = link;
  });
  return problems;
}

/** A file's field problems as its lines say them (`posts/a.md:3: status: …`), else the error as it is. */
function oneSource(error: unknown, name: string): unknown {
  const inputs = error instanceof UsageError ? error.context.inputs : undefined;
  if (!inputs?.length || !inputs.every((line) => line.startsWith(`${name}:`))) return error;
  return new UsageError(inputs.join('; '), (error as UsageError).context);
}

/** The post files of the project of `scope`, or undefined outside a project. */
function projectFiles(scope: Scope): string[] | undefined {
  if (!scope.project) return undefined;
  try {
    return expandPaths(scope.project.sources.filter((s) => existsSync(s))).files;
  } catch {
    return [];
  }
}

/** Whether these files are every source of their project (the paths named the whole project). */
function coversProject(scope: Scope, files: string[]): boolean {
  if (!scope.project || !files.length) return false;
  let all: string[];
  try {
    all = expandPaths(scope.project.sources.filter((s) => existsSync(s))).files.map((f) => resolve(f));
  } catch {
    return false;
  }
  const given = new Set(files.map((f) => resolve(f)));
  return all.length === given.size && all.every((f) => given.has(f));
}

/** The project around the current folder, or undefined (then flags alone make the post). */
function projectHere(): Project | undefined {
  const file = findProjectFile(process.cwd());
  return file === undefined ? undefined : loadProject(file);
}

/** A project's sources as paths from the working folder; one that is missing is an error naming it and the project file. */
function projectSources(project: Project): string[] {
  const sources = project.sources.map((s) => displayPath(s));
  for (const source of sources)
    if (!existsSync(source))
      throw new UsageError(`${displayPath(project.file)}: sources: ${source} does not exist`);
  return sources;
}

/**
 * The site a project names: a profile id, or a URL and username. For a URL, a profile with the same URL and
 * username (if one exists on this machine) gives the stored password; else --password-stdin or
 * BLOGCTL_WP_PASSWORD does, so a fresh CI runner needs no `wp sites add`.
 */
export function siteOfProject(
  project: Project | undefined,
  ports: { store(): ConfigStore },
): { site?: string; url?: string; username?: string } {
  const site = project?.site;
  if (site === undefined) return {};
  if (typeof site === 'string') return { site };
  const url = site.url.replace(/\/+$/, '');
  const profile = readSites(ports.store()).find(
    (s) => s.url.replace(/\/+$/, '') === url && s.username === site.username,
  );
  return profile ? { site: profile.id } : { url, username: site.username };
}

function pickDefined<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (source[k] !== undefined) out[k] = source[k];
  return out;
}
