// `blog create`: flags, a -f file and prompts → BlogParams → POST create-blog → a summary, the id, or JSON.
import { existsSync, writeFileSync } from 'node:fs';
import { BlogctlError, UsageError, WriteFailedError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { jsonOutput, type JsonOutput } from '../../output/json.js';
import { registerSecret } from '../../output/redact.js';
import {
  BlogParamsError,
  applyCustomValues,
  draftBlogParams,
  dryRunBody,
  finishBlogParams,
  missingFields,
  missingFlags,
  parseBlogParamsFile,
  type BlogParamFlags,
} from '../../blogs/params.js';
import { BLOG_FIELDS } from '../../blogs/fields.js';
import { firstLines } from '../../blogs/text.js';
import type { PostFlags } from '../../publishing/post-payload.js';
import type { BlogPublishInput } from '../../publishing/publish-blog.js';
import type { PublishOutcome } from '../../publishing/publish-outcome.js';
import type { Blog, BlogParams } from '../../schemas/blog.js';
import type { ActionInput } from '../define.js';
import { readText } from '../shared/input.js';
import { givenPostFlags, postArgs, SEND_ONLY_FLAGS } from '../shared/post-flags.js';

/**
 * The post flags of `--publish`. blog create's own --category and --meta are the blog's (BlogParams); the
 * post's are --wp-category and --post-meta.
 */
type PostPublishFlags = Omit<PostFlags, 'title' | 'content' | 'category' | 'meta'> & {
  wpCategory?: string[];
  postMeta?: string[];
  featuredImage?: string;
  createTerms?: boolean;
  key?: string;
  allowImmediate?: boolean;
};

export interface CreateFlags extends BlogParamFlags, PostPublishFlags {
  file?: string;
  providerKeyStdin?: boolean;
  dryRun?: boolean;
  publish?: string;
  /** Also write the blog as Markdown (blogs/markdown-export.ts); refused over an existing file unless --force. */
  save?: string;
  force?: boolean;
}

export interface CreateOptions {
  params: BlogParams;
  dryRun: boolean;
}

export type CreateResult = { dryRun: true; body: { blogParams: BlogParams } } | { dryRun: false; blog: Blog };

const SUMMARY_LINES = 3;

/** What `--dry-run` prints, and `--publish` with --json; a blog's own fields are the service's. */
const DRY_RUN_FIELDS = ['blogParams'];
const CREATE_PUBLISH_FIELDS = ['blog', 'publish'];

export async function action({ opts, globals, deps }: ActionInput<CreateFlags>): Promise<void> {
  // Checked before anything is read or sent, so a bad --json never costs a generation.
  const json = jsonOutput(
    globals.json,
    opts.dryRun ? DRY_RUN_FIELDS : opts.publish !== undefined ? CREATE_PUBLISH_FIELDS : BLOG_FIELDS,
  );
  // The post flags and the file to save to are checked before any prompt or generation.
  if (opts.publish === undefined) checkPostFlagsWithoutPublish(opts);
  // A saved file names its post by a key of its own, which --publish uses too: the file's post stays the
  // same wherever the file moves or whatever it is renamed to.
  if (opts.save !== undefined && opts.key === undefined) {
    const { randomKey } = await import('../../project/random-key.js');
    opts.key = randomKey();
  }
  const publish = opts.publish !== undefined ? await blogPublishInput(opts, opts.publish) : undefined;
  // Without --publish, the post flags describe the saved file's post (its front matter).
  const savedPost = publish ?? (opts.save !== undefined ? await savedPostInput(opts) : undefined);
  const save =
    opts.save !== undefined && !opts.dryRun ? checkSaveTarget(opts.save, Boolean(opts.force)) : undefined;
  const params = await resolveCreateParams(opts, deps);
  if (publish && !opts.dryRun) return createAndPublish(params, publish, json, { globals, deps }, save);
  // A dry run with --publish checks the publish side as the real run would (site, password, schedule in the
  // site's time zone, terms, a slug held by another post, an earlier post with --key), sending nothing.
  const checked =
    publish && opts.dryRun
      ? await (
          await import('../../publishing/publish-blog.js')
        ).planBlogPublish(publish, deps, { dryRun: true })
      : undefined;
  const result = await createRun({ params, dryRun: Boolean(opts.dryRun) }, deps);
  const io = deps.io;
  if (result.dryRun) {
    // The body is the output of a dry run, JSON with or without --json.
    json.print(io, result.body);
    if (checked) {
      const already = checked.already;
      const found = already?.post?.id ?? '?';
      io.note(
        !already
          ? `dry run: nothing was sent; plan for "${checked.siteId}": create a new post from the generated blog (site reached, password accepted, terms and schedule checked)`
          : already.state === 'trashed'
            ? `dry run: nothing was sent; the post of --key ${publish!.key!} on "${checked.siteId}", post ${found}, is in WordPress's trash and would be left there, so nothing would be generated`
            : `dry run: nothing was sent; --key ${publish!.key!} is already published to "${checked.siteId}" as post ${found}, so nothing would be generated`,
      );
    }
    return;
  }
  const { blog } = result;
  const saveFailed = save ? await saveMarkdown(blog, save, deps, savedPost) : undefined;
  await printCreated(blog, json, globals, io);
  // The blog is printed first (it exists either way); then the run fails, so a script does not go on
  // without the file.
  if (saveFailed) throw saveFailed;
}

async function printCreated(
  blog: Blog,
  json: JsonOutput,
  globals: ActionInput['globals'],
  io: Deps['io'],
): Promise<void> {
  // `id` selects the blog's `_id` too; the whole blog is printed as the service sent it.
  if (json.enabled)
    return json.print(io, json.fields ? (await import('../../blogs/list-query.js')).withIdAlias(blog) : blog);
  if (globals.quiet) return io.out(blog._id);
  io.success(`Created blog ${blog._id}`);
  // Cut to the terminal's width only for a person; piped, nothing is cut.
  const fit = io.stdoutIsTTY ? (await import('../../output/table.js')).fit : undefined;
  io.out(summary(blog, io, fit && ((line) => fit(line, io.columns))));
  if (io.stderrIsTTY) io.note(io.paintErr('dim', `Full text: blogctl blog show ${blog._id} --field content`));
}

/**
 * Without --publish a post flag would be dropped without a word. With --save it describes the saved file's
 * post, written into its front matter (as with --publish), so that `wp publish --site <site> <file>` sends
 * it; the flags a file does not keep, and any post flag without --save, are refused naming --publish.
 */
function checkPostFlagsWithoutPublish(opts: CreateFlags): void {
  const given = givenPostFlags(opts);
  const refused = opts.save === undefined ? given[0] : given.find((g) => SEND_ONLY_FLAGS.includes(g.flag));
  if (!refused) return;
  const why =
    opts.save === undefined
      ? 'applies only with --publish <site>, or with --save <file> (written into its front matter)'
      : 'applies only with --publish <site>: a --save file does not keep it (give it to wp publish)';
  throw new UsageError(`${refused.flag} ${why}; nothing was generated`);
}

/** The post flags that describe the post itself: what --publish sends and what --save writes. */
export type SavedPostInput = Pick<BlogPublishInput, 'flagLayer' | 'featuredImage' | 'key'> & {
  site?: string;
};

/**
 * The post flags, checked. blog create's own --category and --meta are the blog's; the post's are
 * --wp-category and --post-meta, named so in their errors. The post's payload code and the WordPress schemas
 * it validates with load only here: a blog create without post flags, its dry run included, never uses them.
 */
export async function savedPostInput(opts: CreateFlags): Promise<SavedPostInput> {
  const [{ postFlagLayer }, { checkKey }] = await Promise.all([
    import('../shared/post-input.js'),
    import('../../publishing/source-key.js'),
  ]);
  return {
    flagLayer: postFlagLayer(opts, 'blog create'),
    ...(opts.featuredImage !== undefined && { featuredImage: opts.featuredImage }),
    ...(opts.key !== undefined && { key: checkKey(opts.key) }),
  };
}

/** `--publish <site>` and the post flags. */
export async function blogPublishInput(opts: CreateFlags, site: string): Promise<BlogPublishInput> {
  // The namespace the post belongs to: the saved file's (its project's, else its git repository's), else the
  // project blogctl runs in, as for `wp publish --from-blog`.
  const { projectScopeAt, scopeOf } = await import('../../project/scope.js');
  const { projectLayer } = await import('../shared/project-defaults.js');
  const scope = opts.save !== undefined ? scopeOf([opts.save]) : projectScopeAt(process.cwd());
  return {
    ...(await savedPostInput(opts)),
    site,
    namespace: scope.namespace,
    // The project's defaults (status, terms…) as its `wp publish` applies them to the saved file.
    defaults: projectLayer(scope),
    allowImmediate: Boolean(opts.allowImmediate),
    createTerms: Boolean(opts.createTerms ?? scope.project?.defaults.create_terms),
    postArgs: postArgs(opts),
  };
}

/**
 * Checks the publish side (site, password, the look-up, term names) first, since generation is slow; then
 * generates and publishes through the same pipeline as `wp publish`.
 */
async function createAndPublish(
  params: BlogParams,
  input: BlogPublishInput,
  json: JsonOutput,
  { globals, deps }: Pick<ActionInput<CreateFlags>, 'globals' | 'deps'>,
  save?: string,
): Promise<void> {
  const { planBlogPublish, publishBlog } = await import('../../publishing/publish-blog.js');
  const plan = await planBlogPublish(input, deps);
  if (plan.already) return await printCreatePublish(deps, globals, json, undefined, plan.already);
  const result = await createRun({ params, dryRun: false }, deps);
  if (result.dryRun) return;
  // Saved before publishing: a failed publish still leaves the reviewed file behind.
  const saveFailed = save ? await saveMarkdown(result.blog, save, deps, input) : undefined;
  const { outcome } = await publishBlog(plan, result.blog, deps);
  await printCreatePublish(deps, globals, json, result.blog, outcome);
  if (saveFailed) throw saveFailed;
}

async function printCreatePublish(
  deps: Pick<ActionInput['deps'], 'io'>,
  globals: ActionInput['globals'],
  json: JsonOutput,
  blog: Blog | undefined,
  outcome: PublishOutcome,
): Promise<void> {
  const { io } = deps;
  const { printNotes, publishRows, publishView } = await import('../shared/publish-output.js');
  printNotes(io, [outcome]);
  const view = outcome.error
    ? { action: 'failed', published: false, error: outcome.error.message, exitCode: outcome.error.exitCode }
    : publishView(outcome);
  if (json.enabled) {
    json.print(io, { blog: blog ?? null, publish: view });
  } else if (globals.quiet) {
    if (!outcome.error) io.out(publishView(outcome).link ?? publishView(outcome).id ?? '');
  } else {
    if (blog) {
      io.success(`Created blog ${blog._id}`);
      io.out(summary(blog, io));
      io.out('');
    }
    if (!outcome.error) io.out(publishRows(publishView(outcome)));
  }
  // The error names the command that publishes the blog later (publishBlog), in doubt or not.
  if (outcome.error) throw outcome.error;
  if (outcome.state === 'created')
    io.success(`Published "${blog?.title ?? ''}" (status ${publishView(outcome).status ?? 'unknown'})`);
}

/** `--save <file>`: refused over an existing file unless --force, before anything is generated. */
export function checkSaveTarget(path: string, force: boolean): string {
  if (!path.trim()) throw new UsageError('--save: give a file name');
  if (!force && existsSync(path))
    throw new UsageError(`--save: ${path} exists (--force overwrites it); nothing was generated`);
  return path;
}

/**
 * Writes the blog as Markdown that `wp publish` reads back: its source is the blog's id (the same post as
 * `wp publish --from-blog`), or the --key. The post flags used go into the front matter, so publishing the
 * file later finds the post unchanged (after --publish) or makes it as they say (without). Not the post
 * password: the file is meant for review and git (a source without one leaves the post's password alone).
 */
export async function saveMarkdown(
  blog: Blog,
  path: string,
  deps: Pick<Deps, 'io'>,
  publish?: SavedPostInput,
): Promise<WriteFailedError | undefined> {
  const { blogToMarkdown } = await import('../../blogs/markdown-export.js');
  const { dirname, relative, resolve } = await import('node:path');
  const fields = publish && { ...publish.flagLayer.values };
  delete fields?.['password'];
  const image =
    publish?.featuredImage !== undefined
      ? relative(dirname(resolve(path)), resolve(publish.featuredImage))
      : undefined;
  const site = publish?.site ?? '<site>';
  try {
    writeFileSync(
      path,
      blogToMarkdown(blog, {
        ...(fields && { fields }),
        ...(image !== undefined && { featuredImage: image }),
        ...(publish?.key !== undefined && { key: publish.key }),
      }),
    );
  } catch (error) {
    // The blog exists: the error says how to get it as a file later (exit 9: a local write failed).
    const after = `the blog was created: \`blogctl blog show ${blog._id} --markdown\` prints it`;
    const { writeFailure } = await import('../../lib/write-failure.js');
    return (
      writeFailure(error, path, after) ??
      new WriteFailedError(`--save: cannot write ${path}: ${(error as Error).message}; ${after}`)
    );
  }
  deps.io.note(
    `Saved blog ${blog._id} as ${path}: its post is the blog's (${publish?.key !== undefined ? `--key ${publish.key}` : `--from-blog ${blog._id}`}); publish it with \`blogctl wp publish --site ${site} ${path}\``,
  );
  return undefined;
}

/** Sends the request (or, with --dry-run, only shows it) while a spinner runs on a terminal. */
export async function createRun(
  options: CreateOptions,
  deps: Pick<Deps, 'io' | 'blogApi' | 'settings'> & Partial<Pick<Deps, 'watchGeneration'>>,
): Promise<CreateResult> {
  // A dry run needs no config, base URL or API key: it stops before any of them is looked up.
  if (options.dryRun) return { dryRun: true, body: dryRunBody(options.params) };
  const api = await deps.blogApi();
  const timeoutMs = deps.settings().createTimeoutMs;
  const label = 'Generating blog post…';
  const spinner = await deps.io.spinner(label);
  // The in-process sandbox writing with a model says how far it is (only a terminal shows a spinner).
  const unwatch = deps.watchGeneration?.((line) => spinner.update(`${label} ${line}`));
  try {
    return { dryRun: false, blog: await api.createBlog(options.params, { timeoutMs }) };
  } catch (error) {
    throw withProviderHint(error);
  } finally {
    unwatch?.();
    spinner.stop();
  }
}

/**
 * A failure of the sandbox's text-generation provider (its error codes provider_*) gets advice naming the
 * provider and model the sandbox reported (its message says "(<url>, model <name>)"), never a key.
 */
export function withProviderHint(error: unknown): unknown {
  if (!(error instanceof BlogctlError)) return error;
  const code = error.context.peerCode;
  if (!code?.startsWith('provider_')) return error;
  const named = /provider \((\S+), model (.+?)\) /.exec(error.context.serviceMessage ?? error.message);
  const which = named ? `the provider ${named[1]!} with model ${named[2]!}` : "the sandbox's provider";
  const hint =
    code === 'provider_key_refused'
      ? `${which} refused the key: send yours with BLOGCTL_PROVIDER_API_KEY or --provider-key-stdin, or start \`blogctl sandbox\` with the right one`
      : code === 'provider_unavailable'
        ? `check that ${which} is running and serves that model (Ollama: \`ollama serve\`, \`ollama pull <model>\`), then run it again`
        : `${which} answered with nothing usable: run it again, or try another model (BLOGCTL_MODEL, --model)`;
  error.context.hints = [...(error.context.hints ?? []), hint];
  return error;
}

/**
 * The -f file, then flags over it, then the provider key, then prompts for what is still missing — or one
 * error naming every missing flag when nobody can be asked. Everything is validated before anything is sent.
 */
export async function resolveCreateParams(
  opts: CreateFlags,
  deps: Pick<Deps, 'io' | 'env' | 'readStdin' | 'prompter'>,
): Promise<BlogParams> {
  const { io } = deps;
  if (opts.providerKeyStdin && opts.file === '-') {
    throw new UsageError(
      '--provider-key-stdin and -f - both read stdin: pass the parameters as a file path, or the key in BLOGCTL_PROVIDER_API_KEY',
    );
  }
  try {
    const file = opts.file === undefined ? undefined : await readParamsFile(opts.file, deps);
    if (file && typeof file.params['externalProviderApiKey'] === 'string')
      registerSecret(file.params['externalProviderApiKey']);
    const draft = draftBlogParams(opts, file);

    const providerKey = await readProviderKey(opts, deps);
    if (providerKey) {
      draft.params.externalProviderApiKey = providerKey.key;
      draft.origins.externalProviderApiKey = providerKey.source;
    }

    const missing = missingFields(draft.params);
    if (missing.length) {
      if (!io.canPrompt) {
        throw new UsageError(
          `missing required parameters: ${missingFlags(missing)} (cannot ask: ${io.noInputReason})`,
          {
            hints: [
              'pass them as flags or in a -f params.json file; nothing was sent (see blogctl blog create --help)',
            ],
          },
        );
      }
      const { askMissingParams } = await import('../../blogs/prompts.js');
      await askMissingParams(draft, missing, deps.prompter());
      applyCustomValues(draft, opts);
    }
    return finishBlogParams(draft);
  } catch (error) {
    if (error instanceof BlogParamsError) throw new UsageError(error.message);
    throw error;
  }
}

async function readParamsFile(
  path: string,
  deps: Pick<Deps, 'readStdin'>,
): Promise<{ params: Record<string, unknown>; label: string }> {
  const label = path === '-' ? '-f - (stdin)' : path;
  return { params: parseBlogParamsFile(await readText(path, '-f', deps), label), label };
}

/** The provider key never comes from argv: --provider-key-stdin (first line) wins over BLOGCTL_PROVIDER_API_KEY. */
async function readProviderKey(
  opts: CreateFlags,
  deps: Pick<Deps, 'io' | 'env' | 'readStdin' | 'prompter'>,
): Promise<{ key: string; source: string } | undefined> {
  let key: string | undefined;
  let source = 'BLOGCTL_PROVIDER_API_KEY';
  if (opts.providerKeyStdin) {
    source = '--provider-key-stdin';
    if (deps.io.stdinIsTTY) {
      // Reading a terminal would echo the key as it is typed: ask with a hidden prompt instead.
      if (!deps.io.canPrompt)
        throw new UsageError(`--provider-key-stdin: pipe the key in (cannot ask: ${deps.io.noInputReason})`);
      key = await deps
        .prompter()
        .password('Provider API key', { validate: (v) => (v.trim() ? true : 'enter the key') });
    } else {
      key = (await deps.readStdin()).split(/\r?\n/)[0];
    }
    key = key?.trim();
    if (!key) throw new UsageError('--provider-key-stdin: no key on the first line of stdin');
  } else {
    key = deps.env['BLOGCTL_PROVIDER_API_KEY']?.trim() || undefined;
  }
  if (!key) return undefined;
  registerSecret(key);
  return { key, source };
}

/** id, title and the first lines of the text, HTML stripped; `cut` fits a text line to the terminal. */
export function summary(
  blog: Blog,
  io: Pick<Deps['io'], 'paint'>,
  cut: (line: string) => string = (l) => l,
): string {
  const lines = [`${io.paint('bold', 'id:')}    ${blog._id}`, `${io.paint('bold', 'title:')} ${blog.title}`];
  const words = blog['wordCount'];
  if (typeof words === 'number') lines.push(`${io.paint('bold', 'words:')} ${words}`);
  const text = firstLines(blog, SUMMARY_LINES);
  if (text.length) lines.push('', ...text.map((l) => cut(`  ${l}`)));
  return lines.join('\n');
}
