// `wp publish`: credentials (site profile or --url/--username) + posts (positional Markdown/HTML files and
// folders, or one post from -f, --from-blog, --content-file, --content and flags; later wins) → checked jobs
// (publishing/sources/read-sources.ts) → the plan read from the site, printed (--dry-run) or carried out by
// the shared publish pipeline (publishing/publish-run.ts) → one outcome per post, printed.
import { UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { claimStdin } from '../../../lib/input-files.js';
import { groupedLines } from '../../../output/group.js';
import { jsonOutput } from '../../../output/json.js';
import { planRun, publishRun, type PublishOptions } from '../../../publishing/publish-run.js';
import type { Plan } from '../../../publishing/sync/publish-plan.js';
import { sharedNamespaceOptions } from '../../../publishing/sources/repository-keys.js';
import { POST_EXTENSIONS } from '../../../publishing/sources/post-files.js';
import { postFlagLayer } from '../../../publishing/sources/post-input.js';
import type { PublishJob } from '../../../publishing/sources/publish-job.js';
import {
  findSources,
  readSources,
  siteOfProject,
  type Sources,
} from '../../../publishing/sources/read-sources.js';
import type { Credentials } from '../../../schemas/wordpress.js';
import { resolveCredentials, type CredentialSources } from '../../../sites/profiles.js';
import { parseConcurrency } from '../../concurrency.js';
import type { Input } from './command.js';
import { checkCombinations, checkServiceOnly, recoverFiles, singlePostAsked } from './checks.js';
import { printBatch, printSingle } from '../../common/publish-output.js';
import { planRows, printPlan } from '../../common/publish-plan-output.js';
import { OUTPUT_FIELDS, PLAN_FIELDS, batchRow, type PlanRow } from '../../common/publish-rows.js';

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
  const found = findSources(recovered.files, singlePostAsked(opts));
  // Positional files (one or many, or a folder) print a row per file; a post from flags prints its fields.
  const batch = found.files.length > 0;
  // Checked before any file is read or anything sent.
  // One JSON shape whatever names the posts: an array of rows (a plan's with --dry-run).
  const json = jsonOutput(recovered.json, opts.dryRun ? PLAN_FIELDS : OUTPUT_FIELDS);
  for (const path of found.skipped)
    deps.io.note(`skipped ${path}: not a post file (${POST_EXTENSIONS.join(', ')})`);
  for (const { path, pattern } of found.excluded)
    deps.io.note(`skipped ${path}: excluded by ${pattern} (blogctl.yml exclude, or its defaults)`);
  const excludedRows = found.excluded.map(({ path }): PlanRow => ({
    source: path,
    action: 'excluded',
    id: null,
    link: null,
    status: null,
  }));
  if (opts.serviceOnly) checkServiceOnly(opts);
  claimStdin([
    ['--password-stdin', Boolean(opts.passwordStdin)],
    ['--content-file -', opts.contentFile === '-'],
    ['-f -', opts.file === '-'],
  ]);
  // Flags first: a malformed flag fails before any file, network or prompt.
  const flagLayer = postFlagLayer(opts, 'wp publish');
  const concurrency = parseConcurrency(opts.concurrency);
  // Every post is checked before the password is asked for and before anything is sent.
  const sources = await readSources(
    {
      found,
      flagLayer,
      post: opts,
      now: new Date(),
      allowImmediate: Boolean(opts.allowImmediate),
      ...(deps.io.canPrompt && { askTitle: () => askTitle(deps) }),
    },
    deps,
  );
  for (const w of sources.warnings) deps.io.warn(w);
  const { credentials, site } = await resolveCredentials(credentialSources(opts, sources, deps), deps);
  const options = publishOptions(opts, sources, { credentials, site, concurrency }, deps);
  if (options.dryRun) {
    const plan = await planRun(options, deps);
    warnDrafts(deps, sources.jobs);
    await noteNewKeys(deps, plan);
    await report?.rows(
      [...planRows(plan, options.update, options.prune), ...excludedRows],
      site ?? credentials.websiteUrl,
    );
    return printPlan(deps, json, plan, {
      ...options,
      prune: Boolean(options.prune),
      rowsShown: Boolean(opts.markdown),
      excluded: excludedRows,
    });
  }
  // Several sources on a terminal: a live count while they go (output/progress.ts), then the table.
  const { runBatch } = await import('../../../output/progress.js');
  const outcomes = await runBatch(
    deps.io,
    { verb: 'Publishing', labels: sources.jobs.map((j) => j.name), signal: deps.signal },
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
  warnDrafts(deps, sources.jobs);
  await report?.rows(outcomes.map(batchRow), site ?? credentials.websiteUrl);
  if (batch || opts.markdown)
    return printBatch(deps, json, outcomes, { ...options, rowsShown: Boolean(opts.markdown) });
  printSingle(deps, json, outcomes[0]!, sources.jobs[0]!.draft.content.title, options);
}

/** What a dry run says of each file outside any project and git work tree that its run would give a key. */
async function noteNewKeys(deps: Pick<Deps, 'io'>, plan: Plan): Promise<void> {
  const keyed = plan.posts.filter((p) => p.job.newKey && p.action.kind === 'create');
  if (!keyed.length) return;
  const { keysWouldBeWritten } = await import('../../../publishing/sources/loose-key.js');
  deps.io.note(keysWouldBeWritten(keyed.map((p) => p.job.newKey!)));
}

/** A post's title asked for on a terminal (a post from flags with none from any source). */
async function askTitle(deps: Pick<Deps, 'prompter'>): Promise<string> {
  const title = await deps
    .prompter()
    .input('Post title', { validate: (v) => (v.trim() ? true : 'enter a title') });
  return title.trim();
}

/** Where the site and its password come from: the flags, else the `-f` file's credentials, else the project's site. */
function credentialSources(
  opts: Input['opts'],
  sources: Sources,
  deps: Pick<Deps, 'store'>,
): CredentialSources {
  const { payload, payloadName } = sources;
  const projectSite =
    opts.site === undefined && opts.url === undefined && opts.username === undefined && !payload.credentials
      ? siteOfProject(sources.scope.project, deps)
      : {};
  return {
    ...projectSite,
    ...(opts.site !== undefined && { site: opts.site }),
    ...(opts.url !== undefined && { url: opts.url }),
    ...(opts.username !== undefined && { username: opts.username }),
    passwordStdin: Boolean(opts.passwordStdin),
    ...(payload.credentials && { file: payload.credentials }),
    ...(payloadName !== undefined && { fileName: payloadName }),
  };
}

/** The run's options from the flags, the sources and the site; refuses --prune of part of a project. */
function publishOptions(
  opts: Input['opts'],
  sources: Sources,
  site: { credentials: Credentials; site?: string; concurrency: number | undefined },
  deps: Pick<Deps, 'io' | 'settings'>,
): PublishOptions {
  const { scope } = sources;
  const options: PublishOptions = {
    credentials: site.credentials,
    ...(site.site !== undefined && { siteId: site.site }),
    jobs: sources.jobs,
    namespace: scope.namespace,
    ...(scope.formerNamespace !== undefined && { formerNamespace: scope.formerNamespace }),
    ...sharedNamespaceOptions(scope),
    concurrency: site.concurrency ?? deps.settings().concurrency,
    createTerms: Boolean(opts.createTerms ?? scope.project?.defaults.create_terms),
    update: opts.update !== false,
    serviceOnly: Boolean(opts.serviceOnly),
    dryRun: Boolean(opts.dryRun),
    exitCode: Boolean(opts.exitCode),
    force: Boolean(opts.force),
    prune: Boolean(opts.prune),
    complete: sources.complete,
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
  return options;
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
