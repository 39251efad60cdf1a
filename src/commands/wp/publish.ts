// `wp publish`: credentials (site profile or --url/--username) + posts (positional Markdown/HTML files, or one
// post from -f, --from-blog, --content-file, --content and flags; later wins) → checked jobs → the shared
// publish pipeline (publishing/publish-flow.ts) → one outcome per post.
import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { jsonOutput, type JsonOutput } from '../../output/json.js';
import { isMarkdownPath } from '../../publishing/markdown-path.js';
import {
  contentFromFlags,
  parsePublishFile,
  type PostFlags,
  type PublishFile,
} from '../../publishing/post-payload.js';
import type { PublishPostsOptions } from '../../publishing/publish-flow.js';
import type { PublishOutcome } from '../../publishing/publish-outcome.js';
import { inPost, makeJob, type JobSpec, type PublishJob } from '../../publishing/publish-job.js';
import { redactCredentials, resolveCredentials } from '../../sites/profiles.js';
import type { Credentials, PostContent } from '../../schemas/wordpress.js';
import { parseConcurrency } from '../concurrency.js';
import type { ActionInput } from '../define.js';
import { claimStdin, readJsonText, sourceName } from './input.js';
import { OUTPUT_FIELDS, printBatch, printSingle, SINGLE_FIELDS } from './publish-output.js';
import { fileSpecs, singleSpec } from './publish-sources.js';

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
  force?: boolean;
  concurrency?: string;
  dryRun?: boolean;
}

/** The pipeline's options, plus --dry-run. */
export interface PublishOptions extends PublishPostsOptions {
  dryRun: boolean;
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
  const files = recovered.files;
  // Checked before any file is read or anything sent.
  const json = jsonOutput(
    recovered.json,
    opts.dryRun
      ? files.length
        ? ['file', 'body']
        : ['credentials', 'content']
      : files.length
        ? OUTPUT_FIELDS
        : SINGLE_FIELDS,
  );
  checkCombinations(opts, files);
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
    let bytes: string | undefined;
    if (opts.file !== undefined) {
      fileName = sourceName(opts.file);
      const read = await readJsonText(opts.file, '-f', deps);
      file = parsePublishFile(read.value, fileName);
      if (opts.file !== '-') bytes = read.text;
    }
    const single = await singleSpec(
      {
        ...(fileName !== undefined && {
          file: {
            name: fileName,
            ...(file.content && { content: file.content }),
            ...(bytes !== undefined && { bytes }),
          },
        }),
        ...pickDefined(opts, ['fromBlog', 'contentFile', 'content', 'key', 'featuredImage', 'featuredMedia']),
      },
      flagLayer,
      deps,
    );
    specs = [single.spec];
    warnings = single.warnings;
  }
  // Every post is checked before the password is asked for and before anything is sent.
  const jobs = await makeJobs(specs, { now: new Date(), force: Boolean(opts.force) });
  for (const w of warnings) deps.io.warn(w);
  for (const job of jobs)
    for (const w of job.draft.warnings) deps.io.warn(specs.length > 1 ? `${job.name}: ${w}` : w);

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
    concurrency: concurrency ?? (opts.dryRun ? 1 : deps.settings().concurrency),
    createTerms: Boolean(opts.createTerms),
    force: Boolean(opts.force),
    dryRun: Boolean(opts.dryRun),
  };
  if (options.dryRun) return printDryRun(deps, json, options, files.length > 0);
  const outcomes = await publishRun(options, deps);
  if (files.length) return printBatch(deps, json, outcomes);
  printSingle(deps, json, outcomes[0]!, jobs[0]!.draft.content.title);
}

/** Publishes every job through the shared pipeline: one outcome per job, in order. */
export async function publishRun(
  options: PublishOptions,
  deps: Pick<Deps, 'blogApi' | 'wordpress' | 'store' | 'signal'>,
): Promise<PublishOutcome[]> {
  // Loaded only to send: the pipeline brings the WordPress client and the HTTP stack, which a dry run and
  // a post that fails its checks never need.
  const { publishPosts } = await import('../../publishing/publish-flow.js');
  return publishPosts(options, deps);
}

/**
 * The request body per post, password as "***". Names of categories and tags and a featured image file stay
 * as given: they are resolved (and uploaded) on the site only when sending.
 */
export function dryRunBodies(options: PublishOptions): { credentials: Credentials; content: unknown }[] {
  return options.jobs.map((job) => {
    const content: Record<string, unknown> = { ...job.draft.content };
    if (job.draft.categories) content['categories'] = job.draft.categories;
    if (job.draft.tags) content['tags'] = job.draft.tags;
    if (job.featuredImage) content['featured_media'] = `(upload of ${job.featuredImage})`;
    return redactCredentials({ credentials: options.credentials, content: content as PostContent });
  });
}

/** The bodies are a dry run's output: JSON with or without --json. */
function printDryRun(
  deps: Pick<Deps, 'io'>,
  json: JsonOutput,
  options: PublishOptions,
  batch: boolean,
): void {
  const bodies = dryRunBodies(options);
  json.print(deps.io, batch ? bodies.map((body, i) => ({ file: options.jobs[i]!.name, body })) : bodies[0]);
  const unresolved = options.jobs.some((j) => j.featuredImage || j.draft.categories || j.draft.tags);
  deps.io.note(
    `dry run: nothing was sent${unresolved ? ' (term names and image files are resolved on the site when sending)' : ''}`,
  );
}

async function makeJobs(specs: JobSpec[], options: { now: Date; force: boolean }): Promise<PublishJob[]> {
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
  if (files.length > 1 && perPost.length) {
    throw new UsageError(
      `${perPost.join(', ')} describe${perPost.length === 1 ? 's' : ''} one post, but ${files.length} files were given: set ${perPost.length === 1 ? 'it' : 'them'} in each file's front matter`,
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
