// `blog create`: flags, a -f file and prompts → BlogParams (params.ts) → POST create-blog (run.ts) → a
// summary, the id, or JSON; with --publish or --save, publish.ts.
import { claimStdin } from '../../../lib/input-files.js';
import { jsonOutput, type JsonOutput } from '../../../output/json.js';
import { resolvePostPassword } from '../../common/post-password.js';
import { BLOG_FIELDS } from '../../../blogs/fields.js';
import type { Deps } from '../../../factory.js';
import type { Blog } from '../../../schemas/blog.js';
import type { GlobalOptions } from '../../../factory.js';
import type { Input } from './command.js';
import { resolveCreateParams } from './params.js';
import {
  blogPublishInput,
  checkPostFlagsWithoutPublish,
  checkSaveTarget,
  createAndPublish,
  saveMarkdown,
  savedPostInput,
} from './publish.js';
import { createRun, summary } from './run.js';

/** What `--dry-run` prints, and `--publish` with --json; a blog's own fields are the service's. */
const DRY_RUN_FIELDS = ['blogParams'];
const CREATE_PUBLISH_FIELDS = ['blog', 'publish'];

export async function action({ opts, globals, deps }: Input): Promise<void> {
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
    const { randomKey } = await import('../../../project/random-key.js');
    opts.key = randomKey();
  }
  if (opts.postPasswordStdin)
    claimStdin([
      ['--post-password-stdin', true],
      ['--provider-key-stdin', Boolean(opts.providerKeyStdin)],
      ['-f -', opts.file === '-'],
    ]);
  // The post's password is the published post's alone: a --save file never keeps it.
  const publish =
    opts.publish !== undefined
      ? await blogPublishInput(opts, opts.publish, await resolvePostPassword(opts, deps))
      : undefined;
  // Without --publish, the post flags describe the saved file's post (its front matter).
  const savedPost = publish ?? (opts.save !== undefined ? await savedPostInput(opts) : undefined);
  const save =
    opts.save !== undefined && !opts.dryRun ? checkSaveTarget(opts.save, Boolean(opts.force)) : undefined;
  const params = await resolveCreateParams(opts, deps);
  const strict = Boolean(opts.strict);
  if (publish && !opts.dryRun)
    return createAndPublish(params, publish, json, { globals, deps }, save, strict);
  // A dry run with --publish checks the publish side as the real run would (site, password, schedule in the
  // site's time zone, terms, a slug held by another post, an earlier post with --key), sending nothing.
  const checked =
    publish && opts.dryRun
      ? await (
          await import('../../../publishing/publish-blog.js')
        ).planBlogPublish(publish, deps, { dryRun: true })
      : undefined;
  const result = await createRun({ params, dryRun: Boolean(opts.dryRun), strict }, deps);
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
  // The built-in sandbox without a provider writes from templates: its text is a stand-in, and a person
  // reading it on a terminal is told so (scripts get the blog as the service sent it).
  const placeholder = Boolean(deps.settings().sandbox) && !deps.env['BLOGCTL_PROVIDER_URL']?.trim();
  await printCreated(blog, json, globals, io, placeholder);
  // The blog is printed first (it exists either way); then the run fails, so a script does not go on
  // without the file.
  if (saveFailed) throw saveFailed;
}

async function printCreated(
  blog: Blog,
  json: JsonOutput,
  globals: GlobalOptions,
  io: Deps['io'],
  placeholder = false,
): Promise<void> {
  // `id` selects the blog's `_id` too; the whole blog is printed as the service sent it.
  if (json.enabled)
    return json.print(
      io,
      json.fields ? (await import('../../../blogs/list-query.js')).withIdAlias(blog) : blog,
    );
  if (globals.quiet) return io.out(blog._id);
  io.success(`Created blog ${blog._id}`);
  // Cut to the terminal's width only for a person; piped, nothing is cut.
  const fit = io.stdoutIsTTY ? (await import('../../../output/table.js')).fit : undefined;
  io.out(summary(blog, io, fit && ((line) => fit(line, io.columns))));
  // The post to read (wrapped, through the pager), or as Markdown: not the raw HTML of `--field content`.
  if (io.stderrIsTTY) {
    if (placeholder)
      io.note(
        io.paintErr(
          'dim',
          "The sandbox's placeholder text, written from templates: set BLOGCTL_PROVIDER_URL and BLOGCTL_MODEL for a post written by a model (docs/generation.md)",
        ),
      );
    io.note(io.paintErr('dim', `Full text: blogctl blog show ${blog._id} (or --markdown for a file)`));
  }
}
