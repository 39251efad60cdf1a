// `wp publish`: credentials (site profile or --url/--username) + posts (positional Markdown/HTML files and
// folders, or one post from -f, --from-blog, --content-file, --content and flags; later wins) → checked jobs
// → the plan read from the site, printed (--dry-run) or carried out by the shared publish pipeline
// (publishing/publish-flow.ts) → one outcome per post.
import { existsSync, statSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { jsonOutput } from '../../output/json.js';
import { isMarkdownPath } from '../../publishing/markdown-path.js';
import {
  contentFromFlags,
  parsePublishFile,
  type PostFlags,
  type PublishFile,
} from '../../publishing/post-payload.js';
import type { PlannedPost, PublishPostsOptions } from '../../publishing/publish-flow.js';
import type { PublishOutcome } from '../../publishing/publish-outcome.js';
import { inPost, makeJob, type JobSpec, type PublishJob } from '../../publishing/publish-job.js';
import { resolveCredentials } from '../../sites/profiles.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { parseConcurrency } from '../concurrency.js';
import type { ActionInput } from '../define.js';
import { claimStdin, readJsonText, sourceName } from './input.js';
import {
  OUTPUT_FIELDS,
  PLAN_FIELDS,
  batchResult,
  printBatch,
  printPlan,
  printSingle,
} from './publish-output.js';
import { expandPaths, fileSpecs, POST_EXTENSIONS, singleSpec } from './publish-sources.js';

export interface PublishFlags extends Omit<PostFlags, 'content'> {
  site?: string;
  url?: string;
  username?: string;
  passwordStdin?: boolean;
  file?: string;
  fromBlog?: string;
  content?: string;
  contentFile?: string;
  featuredImage?: string;
  createTerms?: boolean;
  key?: string;
  allowImmediate?: boolean;
  update?: boolean;
  serviceOnly?: boolean;
  exitCode?: boolean;
  force?: boolean;
  concurrency?: string;
  dryRun?: boolean;
}

/** The pipeline's options, plus --dry-run and --exit-code. */
export interface PublishOptions extends PublishPostsOptions {
  dryRun: boolean;
  exitCode: boolean;
}

/** Flags that describe one post: refused with several files (each file has its own). */
const PER_POST_FLAGS = [
  ['title', '--title'],
  ['slug', '--slug'],
  ['excerpt', '--excerpt'],
  ['key', '--key'],
] as const;

export async function action({ args, opts, globals, deps }: ActionInput<PublishFlags>): Promise<void> {
  const recovered = recoverFiles((args[0] as string[] | undefined) ?? [], globals.json);
  if (opts.force)
    throw new UsageError(
      '--force is gone from wp publish: a changed source now updates its post in place, and an unchanged one is left alone; for a "future" post without a usable date, use --allow-immediate',
    );
  checkCombinations(opts, recovered.files);
  const expanded = expandPaths(recovered.files);
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
  const flagLayer = contentFromFlags({ ...opts, content: undefined }, '--content');
  const concurrency = parseConcurrency(opts.concurrency);

  let specs: JobSpec[];
  let warnings: string[];
  let file: PublishFile = {};
  let fileName: string | undefined;
  if (files.length) {
    ({ specs, warnings } = await fileSpecs(files, flagLayer, opts, deps));
  } else {
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
  const jobs = await makeJobs(specs, { now: new Date(), allowImmediate: Boolean(opts.allowImmediate) });
  for (const w of warnings) deps.io.warn(w);

  const { credentials, site } = await resolveCredentials(
    {
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
    concurrency: concurrency ?? deps.settings().concurrency,
    createTerms: Boolean(opts.createTerms),
    update: opts.update !== false,
    serviceOnly: Boolean(opts.serviceOnly),
    dryRun: Boolean(opts.dryRun),
    exitCode: Boolean(opts.exitCode),
  };
  if (options.serviceOnly)
    deps.io.warn(
      '--service-only: the site is not asked which posts exist, so a post published before is published again (a repeat cannot be detected), and nothing is updated',
    );
  if (options.dryRun) {
    const plan = await planRun(options, deps);
    warnDrafts(deps, jobs);
    return printPlan(deps, json, plan, options);
  }
  // Several sources on a terminal: a live count and each result as it comes (output/progress.ts).
  const { runBatch } = await import('../../output/progress.js');
  let live = false;
  const outcomes = await runBatch(
    deps.io,
    { verb: 'Publishing', labels: jobs.map((j) => j.name), signal: deps.signal },
    (progress) => {
      live = progress.live;
      return publishRun(
        {
          ...options,
          onStart: (i) => progress.start(i),
          onOutcome: (o, i) => progress.finish(i, batchResult(o)),
        },
        deps,
      );
    },
  );
  warnDrafts(deps, jobs);
  if (batch) return printBatch(deps, json, outcomes, { ...options, notesShown: live });
  printSingle(deps, json, outcomes[0]!, jobs[0]!.draft.content.title, options);
}

/** The schedule's warnings: after the look-up, which checks a local date in the site's time zone. */
function warnDrafts(deps: Pick<Deps, 'io'>, jobs: PublishJob[]): void {
  for (const job of jobs)
    for (const w of job.draft.warnings) deps.io.warn(jobs.length > 1 ? `${job.name}: ${w}` : w);
}

/** With --service-only nothing is asked of the site: term names and image files cannot be used. */
function checkServiceOnly(opts: PublishFlags): void {
  const names = [...(opts.category ?? []), ...(opts.tag ?? [])]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim());
  if (names.some((n) => n && !/^\d+$/.test(n)))
    throw new UsageError(
      '--service-only: categories and tags must be given by id (names are looked up on the site)',
    );
  if (opts.featuredImage !== undefined)
    throw new UsageError(
      '--service-only: --featured-image uploads to the site; give --featured-media <id> instead',
    );
  if (opts.createTerms)
    throw new UsageError(
      '--service-only and --create-terms cannot go together: terms are created on the site',
    );
}

/** Publishes every job through the shared pipeline: one outcome per job, in order. */
export async function publishRun(
  options: PublishOptions,
  deps: Pick<Deps, 'blogApi' | 'wordpress' | 'signal'>,
): Promise<PublishOutcome[]> {
  // Loaded only to send: the pipeline brings the WordPress client and the HTTP stack, which a post that
  // fails its checks never needs.
  const { publishPosts } = await import('../../publishing/publish-flow.js');
  return publishPosts(options, deps);
}

/** The plan, read from the site (or all "create" with --service-only); nothing is sent. */
export async function planRun(
  options: PublishOptions,
  deps: Pick<Deps, 'wordpress'>,
): Promise<PlannedPost[]> {
  // Posts from flags alone have nothing to look up: their plan is "create", without loading the pipeline.
  if (options.jobs.every((j) => j.sourceKey === undefined && !j.draft.schedule))
    return options.jobs.map((job) => ({ job, action: { kind: 'create' }, duplicates: [] }));
  const { planPublish } = await import('../../publishing/publish-flow.js');
  let client: Promise<WordPressClient> | undefined;
  return planPublish(options, () => (client ??= deps.wordpress(options.credentials)));
}

async function makeJobs(
  specs: JobSpec[],
  options: { now: Date; allowImmediate: boolean },
): Promise<PublishJob[]> {
  const jobs: PublishJob[] = [];
  for (const spec of specs) {
    try {
      jobs.push(await makeJob(spec, options));
    } catch (error) {
      throw inPost(error, spec.name, specs.length > 1);
    }
  }
  return jobs;
}

function checkCombinations(opts: PublishFlags, files: string[]): void {
  if (opts.content !== undefined && opts.contentFile !== undefined)
    throw new UsageError('give either --content or --content-file, not both');
  if (!files.length) return;
  const single = (
    [
      ['--content', opts.content],
      ['--content-file', opts.contentFile],
      ['-f', opts.file],
      ['--from-blog', opts.fromBlog],
    ] as const
  ).filter(([, v]) => v !== undefined);
  if (single.length) {
    throw new UsageError(
      `${single.map(([n]) => n).join(', ')} cannot be combined with FILE arguments: each file is a post of its own`,
    );
  }
  const perPost = PER_POST_FLAGS.filter(([k]) => opts[k] !== undefined).map(([, flag]) => flag);
  const several = files.length > 1 || files.some((f) => existsSync(f) && statSync(f).isDirectory());
  if (several && perPost.length) {
    throw new UsageError(
      `${perPost.join(', ')} describe${perPost.length === 1 ? 's' : ''} one post, but several files were given: set ${perPost.length === 1 ? 'it' : 'them'} in each file's front matter`,
    );
  }
}

/**
 * The global `--json [fields]` takes an optional value, so in `wp publish --json a.md b.md` commander hands
 * "a.md" to --json. A value that is not a list of output field names but names a post file (an existing
 * path, or a .md/.html name) goes back in front of the files.
 */
export function recoverFiles(
  files: string[],
  json: boolean | string | undefined,
): { files: string[]; json: boolean | string | undefined } {
  if (typeof json !== 'string' || json === '') return { files, json };
  const fields = json.split(',').map((f) => f.trim());
  if (fields.every((f) => (OUTPUT_FIELDS as readonly string[]).includes(f))) return { files, json };
  if (existsSync(json) || isMarkdownPath(json) || /\.html?$/i.test(json))
    return { files: [json, ...files], json: true };
  return { files, json };
}

function pickDefined<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (source[k] !== undefined) out[k] = source[k];
  return out;
}
