// `wp publish`: credentials (site profile or --url/--username) + posts (positional Markdown/HTML files and
// folders, or one post from -f, --from-blog, --content-file, --content and flags; later wins) → checked jobs
// → the plan read from the site, printed (--dry-run) or carried out by the shared publish pipeline
// (publishing/publish-flow.ts) → one outcome per post.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { groupedLines } from '../../../output/group.js';
import { jsonOutput } from '../../../output/json.js';
import { parsePublishFile, type PublishFile } from '../../../publishing/post-payload.js';
import {
  makeJob,
  problemLines,
  sameSourceClashes,
  type JobSpec,
  type PublishJob,
} from '../../../publishing/publish-job.js';
import { displayPath } from '../../../project/display-path.js';
import { resolveCredentials } from '../../../sites/profiles.js';
import { siteOfProject } from '../project-site.js';
import { parseConcurrency } from '../../concurrency.js';
import type { Input } from './command.js';
import { checkCombinations, checkServiceOnly, recoverFiles, singlePostAsked } from './checks.js';
import { planRun, publishRun, type PublishOptions } from './run.js';
import { claimStdin, readJsonText, sourceName } from '../../common/input.js';
import { printBatch, printSingle } from '../../common/publish-output.js';
import { planRows, printPlan } from '../../common/publish-plan-output.js';
import { OUTPUT_FIELDS, PLAN_FIELDS, batchRow } from '../../common/publish-rows.js';
import { postFlagLayer } from '../../common/post-input.js';
import { expandPaths, POST_EXTENSIONS } from '../post-files.js';
import { fileSpecs, inputErrors, singleSpec } from '../publish-sources.js';
import { projectScopeAt, scopeOf, type Scope } from '../../../project/scope.js';
import { findProjectFile, loadProject, type Project } from '../../../project/project-file.js';

export async function action(input: Input): Promise<void> {
  const { opts, globals, deps } = input;
  if (!opts.markdown && opts.summary === undefined) return publishAction(input);
  if (opts.markdown && (globals.json !== undefined || globals.quiet))
    throw new UsageError('--markdown prints the Markdown on stdout: leave out --json and -q');
  if (opts.summary !== undefined && !opts.summary.trim())
    throw new UsageError('--summary: give the file to append to (in GitHub Actions: "$GITHUB_STEP_SUMMARY")');
  const { MarkdownReport, githubSourceLink } = await import('./markdown-report.js');
  const link = githubSourceLink(deps.env);
  const report = new MarkdownReport(
    { markdown: Boolean(opts.markdown), ...(opts.summary !== undefined && { summary: opts.summary }) },
    deps.io,
    { dryRun: Boolean(opts.dryRun), ...(link && { sourceLink: link }) },
  );
  try {
    await publishAction(input, report);
  } catch (error) {
    await report.fail(error);
    throw error;
  }
}

async function publishAction(
  { args, opts, globals, deps }: Input,
  report?: import('./markdown-report.js').MarkdownReport,
): Promise<void> {
  const recovered = recoverFiles(args[0], globals.json);
  checkCombinations(opts, recovered.files);
  // No files and no post from flags: the project around the current folder, all its sources (as git finds
  // its repository from anywhere inside it).
  const project = recovered.files.length === 0 && !singlePostAsked(opts) ? projectHere() : undefined;
  const expanded = expandPaths(project ? projectSources(project) : recovered.files);
  const files = expanded.files;
  // Positional files (one or many, or a folder) print a row per file; a post from flags prints its fields.
  const batch = files.length > 0;
  // Checked before any file is read or anything sent.
  // One JSON shape whatever names the posts: an array of rows (a plan's with --dry-run).
  const json = jsonOutput(recovered.json, opts.dryRun ? PLAN_FIELDS : OUTPUT_FIELDS);
  for (const path of expanded.skipped)
    deps.io.note(`skipped ${path}: not a post file (${POST_EXTENSIONS.join(', ')})`);
  if (opts.serviceOnly) checkServiceOnly(opts);
  claimStdin([
    ['--password-stdin', Boolean(opts.passwordStdin)],
    ['--content-file -', opts.contentFile === '-'],
    ['-f -', opts.file === '-'],
  ]);
  // Flags first: a malformed flag fails before any file, network or prompt.
  const flagLayer = postFlagLayer(opts, 'wp publish');
  const concurrency = parseConcurrency(opts.concurrency);

  let specs: JobSpec[];
  let warnings: string[];
  let problems: string[] = [];
  let file: PublishFile = {};
  let fileName: string | undefined;
  let scope: Scope;
  if (files.length) {
    scope = scopeOf(files);
    ({ specs, warnings, problems } = await fileSpecs(files, flagLayer, opts, deps, scope));
  } else {
    const named = [opts.contentFile, opts.file].filter((f): f is string => f !== undefined && f !== '-');
    // A post without a file belongs to the project blogctl runs in (as with no paths), else to none.
    scope = named.length ? scopeOf(named) : projectScopeAt(process.cwd(), opts.namespace);
    if (opts.file !== undefined) {
      fileName = sourceName(opts.file);
      const read = await readJsonText(opts.file, '-f', deps);
      file = parsePublishFile(read.value, fileName);
    }
    const single = await singleSpec(
      {
        ...(fileName !== undefined && {
          file: {
            name: fileName,
            ...(file.content && { content: file.content }),
            ...(opts.file !== '-' && { path: opts.file }),
          },
        }),
        ...pickDefined(opts, ['fromBlog', 'contentFile', 'content', 'key', 'featuredImage', 'featuredMedia']),
      },
      flagLayer,
      deps,
      scope,
    );
    specs = [single.spec];
    // A post with no title from any source: asked for on a terminal; otherwise the check below names --title.
    if (!single.spec.layers.some((l) => typeof l.values['title'] === 'string') && deps.io.canPrompt) {
      const title = await deps
        .prompter()
        .input('Post title', { validate: (v) => (v.trim() ? true : 'enter a title') });
      single.spec.layers.push({ values: { title: title.trim() }, names: { title: '--title' } });
    }
    warnings = single.warnings;
  }
  // Every post is checked before the password is asked for and before anything is sent.
  const jobs = await makeJobs(
    specs,
    { now: new Date(), allowImmediate: Boolean(opts.allowImmediate) },
    problems,
    deps.io,
    files,
  );
  for (const w of warnings) deps.io.warn(w);

  const projectSite =
    opts.site === undefined && opts.url === undefined && opts.username === undefined && !file.credentials
      ? siteOfProject(scope.project, deps)
      : {};
  const { credentials, site } = await resolveCredentials(
    {
      ...projectSite,
      ...(opts.site !== undefined && { site: opts.site }),
      ...(opts.url !== undefined && { url: opts.url }),
      ...(opts.username !== undefined && { username: opts.username }),
      passwordStdin: Boolean(opts.passwordStdin),
      ...(file.credentials && { file: file.credentials }),
      ...(fileName !== undefined && { fileName }),
    },
    deps,
  );
  const options: PublishOptions = {
    credentials,
    ...(site !== undefined && { siteId: site }),
    jobs,
    namespace: scope.namespace,
    ...(scope.formerNamespace !== undefined && { formerNamespace: scope.formerNamespace }),
    concurrency: concurrency ?? deps.settings().concurrency,
    createTerms: Boolean(opts.createTerms ?? scope.project?.defaults.create_terms),
    update: opts.update !== false,
    serviceOnly: Boolean(opts.serviceOnly),
    dryRun: Boolean(opts.dryRun),
    exitCode: Boolean(opts.exitCode),
    force: Boolean(opts.force),
    prune: Boolean(opts.prune),
    complete: project !== undefined || coversProject(scope, files),
    sayInput: (line) => deps.io.error(line),
  };
  // Orphans are only known when every source of the project is in the run: a run of one file must not call
  // the project's other posts orphans.
  if (options.prune && !options.complete)
    throw new UsageError(
      '--prune: orphans are known only when the whole project is published: run `blogctl wp publish` inside the project without paths',
    );
  if (options.serviceOnly)
    deps.io.warn(
      '--service-only: the site is not asked which posts exist, so a post published before is published again (a repeat cannot be detected), and nothing is updated',
    );
  if (options.dryRun) {
    const plan = await planRun(options, deps);
    warnDrafts(deps, jobs);
    await report?.rows(planRows(plan, options.update, options.prune), site ?? credentials.websiteUrl);
    return printPlan(deps, json, plan, {
      ...options,
      prune: Boolean(options.prune),
      rowsShown: Boolean(opts.markdown),
    });
  }
  // Several sources on a terminal: a live count while they go (output/progress.ts), then the table.
  const { runBatch } = await import('../../../output/progress.js');
  const outcomes = await runBatch(
    deps.io,
    { verb: 'Publishing', labels: jobs.map((j) => j.name), signal: deps.signal },
    (progress) => {
      return publishRun(
        {
          ...options,
          onStart: (i) => progress.start(i),
          // The results are reported once, by the table at the end: the live line only counts them.
          onOutcome: (o, i) => progress.finish(i, { ok: !o.error }),
        },
        deps,
      );
    },
  );
  warnDrafts(deps, jobs);
  await report?.rows(outcomes.map(batchRow), site ?? credentials.websiteUrl);
  if (batch || opts.markdown)
    return printBatch(deps, json, outcomes, { ...options, rowsShown: Boolean(opts.markdown) });
  printSingle(deps, json, outcomes[0]!, jobs[0]!.draft.content.title, options);
}

/**
 * The schedule's warnings: after the look-up, which checks a local date in the site's time zone. Each is said
 * once, with the sources that share it.
 */
function warnDrafts(deps: Pick<Deps, 'io'>, jobs: PublishJob[]): void {
  const entries = jobs.flatMap((job) => job.draft.warnings.map((w) => [job.name, w] as const));
  if (jobs.length === 1) for (const [, w] of entries) deps.io.warn(w);
  else for (const line of groupedLines(entries, 'source')) deps.io.warn(line);
}

/** Every source checked; a batch's input errors are reported together, each naming its source. */
async function makeJobs(
  specs: JobSpec[],
  options: { now: Date; allowImmediate: boolean },
  unreadable: string[],
  io: Pick<Deps['io'], 'error'>,
  files: string[] = [],
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
  if (problems.length) throw inputErrors(problems, io, [...new Set([...specs.map((s) => s.name), ...files])]);
  return jobs;
}

/** A file's field problems as its lines say them (`posts/a.md:3: status: …`), else the error as it is. */
function oneSource(error: unknown, name: string): unknown {
  const inputs = error instanceof UsageError ? error.context.inputs : undefined;
  if (!inputs?.length || !inputs.every((line) => line.startsWith(`${name}:`))) return error;
  return new UsageError(inputs.join('; '), (error as UsageError).context);
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

function pickDefined<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (source[k] !== undefined) out[k] = source[k];
  return out;
}
