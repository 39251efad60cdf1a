// `blog create --publish <site>` and `--save <file>`: the post flags checked before anything is generated,
// the blog published through the same pipeline as `wp publish`, and written as Markdown that it reads back.
import { lstatSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError, WriteFailedError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import type { JsonOutput } from '../../../output/json.js';
import type { BlogPublishInput } from '../../../publishing/publish-blog.js';
import type { PublishOutcome } from '../../../publishing/publish-outcome.js';
import type { Blog, BlogParams } from '../../../schemas/blog.js';
import type { GlobalOptions } from '../../../factory.js';
import { BLOG_CREATE_NAMES, givenPostFlags, postArgs, SEND_ONLY_FLAGS } from '../../common/post-flags.js';
import type { Flags } from './command.js';
import { createRun, summary } from './run.js';

/**
 * Without --publish a post flag would be dropped without a word. With --save it describes the saved file's
 * post, written into its front matter (as with --publish), so that `wp publish --site <site> <file>` sends
 * it; the flags a file does not keep, and any post flag without --save, are refused naming --publish.
 */
export function checkPostFlagsWithoutPublish(opts: Flags): void {
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
export async function savedPostInput(
  opts: Flags,
  postPassword?: { password: string; from: string },
): Promise<SavedPostInput> {
  const [{ postFlagLayer }, { checkKey }] = await Promise.all([
    import('../../../publishing/sources/post-input.js'),
    import('../../../publishing/source-key.js'),
  ]);
  const flagLayer = postFlagLayer({ ...opts, postPassword: postPassword?.password }, 'blog create', {
    categories: BLOG_CREATE_NAMES['--category']!,
    meta: BLOG_CREATE_NAMES['--meta']!,
  });
  if (postPassword) flagLayer.names['password'] = postPassword.from;
  return {
    flagLayer,
    ...(opts.featuredImage !== undefined && { featuredImage: opts.featuredImage }),
    ...(opts.key !== undefined && { key: checkKey(opts.key) }),
  };
}

/** `--publish <site>` and the post flags. */
export async function blogPublishInput(
  opts: Flags,
  site: string,
  postPassword?: { password: string; from: string },
): Promise<BlogPublishInput> {
  // The namespace the post belongs to: the saved file's (its project's, else its git repository's), else
  // none, as for `wp publish --from-blog` (the project blogctl runs in gives its defaults only).
  const { projectScopeAt, scopeOf } = await import('../../../project/scope.js');
  const { projectLayer } = await import('../../../publishing/sources/project-defaults.js');
  const scope = opts.save !== undefined ? scopeOf([opts.save]) : projectScopeAt(process.cwd());
  return {
    ...(await savedPostInput(opts, postPassword)),
    site,
    namespace: scope.namespace,
    ...(scope.formerNamespace !== undefined && { formerNamespace: scope.formerNamespace }),
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
export async function createAndPublish(
  params: BlogParams,
  input: BlogPublishInput,
  json: JsonOutput,
  { globals, deps }: { globals: GlobalOptions; deps: Deps },
  save?: string,
  strict = false,
): Promise<void> {
  const { planBlogPublish, publishBlog } = await import('../../../publishing/publish-blog.js');
  const plan = await planBlogPublish(input, deps);
  if (plan.already) return await printCreatePublish(deps, globals, json, undefined, plan.already);
  const result = await createRun({ params, dryRun: false, strict }, deps);
  if (result.dryRun) return;
  // Saved before publishing: a failed publish still leaves the reviewed file behind.
  const saveFailed = save ? await saveMarkdown(result.blog, save, deps, input) : undefined;
  const { outcome } = await publishBlog(plan, result.blog, deps);
  await printCreatePublish(deps, globals, json, result.blog, outcome);
  if (saveFailed) throw saveFailed;
}

async function printCreatePublish(
  deps: Pick<Deps, 'io'>,
  globals: GlobalOptions,
  json: JsonOutput,
  blog: Blog | undefined,
  outcome: PublishOutcome,
): Promise<void> {
  const { io } = deps;
  const [{ printNotes, publishRows }, { publishView }] = await Promise.all([
    import('../../common/publish-output.js'),
    import('../../common/publish-rows.js'),
  ]);
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

/**
 * `--save <file>`: refused over an existing file unless --force, and over a symbolic link (even a dangling
 * one, even with --force: the file would be written wherever it points), before anything is generated.
 */
export function checkSaveTarget(path: string, force: boolean): string {
  if (!path.trim()) throw new UsageError('--save: give a file name');
  // Checked before anything is generated: a generation costs the provider, and its post would be left
  // without its file.
  const folder = dirname(path);
  const kind = statSync(folder, { throwIfNoEntry: false });
  if (!kind?.isDirectory()) {
    throw new UsageError(
      `--save: ${kind ? `${folder} is not a folder` : `the folder ${folder} does not exist (mkdir -p ${folder})`}; nothing was generated`,
    );
  }
  let target;
  try {
    target = lstatSync(path);
  } catch {
    target = undefined;
  }
  if (target?.isSymbolicLink())
    throw new UsageError(
      `--save: ${path} is a symbolic link: blogctl writes no file through a link (remove it, or save elsewhere); nothing was generated`,
    );
  if (target?.isDirectory())
    throw new UsageError(`--save: ${path} is a folder: give a file name; nothing was generated`);
  if (!force && target)
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
  const { blogToMarkdown } = await import('../../../blogs/markdown-export.js');
  const { relative } = await import('node:path');
  const fields = publish && { ...publish.flagLayer.values };
  delete fields?.['password'];
  const image =
    publish?.featuredImage !== undefined
      ? relative(dirname(resolve(path)), resolve(publish.featuredImage))
      : undefined;
  const site = publish?.site ?? '<site>';
  try {
    // In the file's own folder, never through a link at it (one made since checkSaveTarget included).
    const { writeInside } = await import('../../../lib/write-inside.js');
    await writeInside(
      dirname(resolve(path)),
      resolve(path),
      blogToMarkdown(blog, {
        ...(fields && { fields }),
        ...(image !== undefined && { featuredImage: image }),
        ...(publish?.key !== undefined && { key: publish.key }),
      }),
    );
  } catch (error) {
    // The blog exists: the error says how to get it as a file later (exit 9: a local write failed).
    const after = `the blog was created: \`blogctl blog show ${blog._id} --markdown\` prints it`;
    const { writeFailure } = await import('../../../lib/write-failure.js');
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
