// `wp publish`: credentials (site profile or --url/--username) + content (payload file, generated blog,
// flags; later wins) → one validated request per source → the service's publish endpoint. The run function
// takes a list of sources so batch publishing (issue 4) adds sources, not a second path.
import { API_PREFIX } from '../../api/blog-api.js';
import { BlogctlError, InterruptedError, NotFoundError, RejectedError, UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { jsonFields, pick } from '../../output/json.js';
import {
  buildPostContent,
  contentFromFlags,
  contentFromObject,
  parsePublishFile,
  publishSummary,
  type ContentLayer,
  type PostFlags,
  type PublishFile,
} from '../../publishing/post-payload.js';
import { redactCredentials, resolveCredentials } from '../../publishing/sites.js';
import type { Credentials, PostContent, PublishResult } from '../../schemas/wordpress.js';
import type { ActionInput } from '../define.js';
import { claimStdin, readJson, readText, sourceName } from './input.js';

interface PublishFlags extends Omit<PostFlags, 'content'> {
  site?: string;
  url?: string;
  username?: string;
  passwordStdin?: boolean;
  file?: string;
  fromBlog?: string;
  content?: string;
  contentFile?: string;
  dryRun?: boolean;
}

/** One post to publish, already validated; `name` identifies it in a batch summary (a file, a blog id). */
export interface PublishSource {
  name: string;
  content: PostContent;
}

export interface PublishOptions {
  credentials: Credentials;
  sources: PublishSource[];
  dryRun: boolean;
}

export interface PublishOutcome {
  source: string;
  /** The request body with the password as "***" (dry run). */
  request?: { credentials: Credentials; content: PostContent };
  result?: PublishResult;
  /** Why this source failed: `published: false` (exit 6) or a request error. */
  error?: BlogctlError;
}

export const PUBLISH_ENDPOINT = `POST ${API_PREFIX}/integrations/wordpress/publish`;

export async function action({ opts, deps }: ActionInput<PublishFlags>): Promise<void> {
  claimStdin([
    ['--password-stdin', Boolean(opts.passwordStdin)],
    ['--content-file -', opts.contentFile === '-'],
    ['-f -', opts.file === '-'],
  ]);
  if (opts.content !== undefined && opts.contentFile !== undefined)
    throw new UsageError('give either --content or --content-file, not both');

  // Flags first: a malformed flag fails before any file, network or prompt.
  const flagLayer = contentFromFlags({ ...opts, content: undefined }, '--content');
  const file: PublishFile =
    opts.file === undefined
      ? {}
      : parsePublishFile(await readJson(opts.file, '-f', deps), sourceName(opts.file));
  const fileName = opts.file === undefined ? undefined : sourceName(opts.file);
  const layers: ContentLayer[] = [];
  if (file.content) layers.push(contentFromObject(file.content, fileName!));
  if (opts.fromBlog !== undefined) layers.push(await blogLayer(opts.fromBlog, deps));
  if (opts.contentFile !== undefined) {
    const html = await readText(opts.contentFile, '--content-file', deps);
    layers.push({ values: { content: html }, names: { content: '--content-file' } });
  }
  if (opts.content !== undefined)
    layers.push({ values: { content: opts.content }, names: { content: '--content' } });
  layers.push(flagLayer);
  // Content is checked before the password is asked for: nobody types a password for a post that cannot go.
  const content = buildPostContent(layers);

  const { credentials } = await resolveCredentials(
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

  const name =
    fileName ?? (opts.fromBlog !== undefined ? `blog ${opts.fromBlog}` : (opts.contentFile ?? 'flags'));
  const [outcome] = await publishRun(
    { credentials, sources: [{ name, content }], dryRun: Boolean(opts.dryRun) },
    deps,
  );
  if (outcome!.error) throw outcome!.error;
  if (outcome!.request) {
    deps.io.json(outcome!.request);
    deps.io.note('dry run: nothing was sent');
    return;
  }
  printResult(deps, outcome!.result!, content.title);
}

/**
 * Publishes each source in turn. A refusal (`published: false`) or a request error is recorded on that
 * source's outcome so a batch can carry on and report; Ctrl-C stops everything.
 */
export async function publishRun(
  options: PublishOptions,
  deps: Pick<Deps, 'blogApi'>,
): Promise<PublishOutcome[]> {
  if (options.dryRun) {
    return options.sources.map((s) => ({
      source: s.name,
      request: redactCredentials({ credentials: options.credentials, content: s.content }),
    }));
  }
  const api = await deps.blogApi();
  const outcomes: PublishOutcome[] = [];
  for (const source of options.sources) {
    try {
      const result = await api.publishToWordPress(options.credentials, source.content);
      outcomes.push(
        result.published
          ? { source: source.name, result }
          : { source: source.name, result, error: rejection(result) },
      );
    } catch (error) {
      if (!(error instanceof BlogctlError) || error instanceof InterruptedError) throw error;
      outcomes.push({ source: source.name, error });
    }
  }
  return outcomes;
}

/** `published: false` → exit 6 carrying the service's (WordPress's) reason. */
export function rejection(result: PublishResult): RejectedError {
  const reason = result.reason ?? 'the service gave no reason';
  return new RejectedError(`WordPress did not publish the post: ${reason}`, {
    endpoint: PUBLISH_ENDPOINT,
    ...(result.reason !== undefined && { serviceMessage: result.reason }),
  });
}

/** `--from-blog <id>`: the title and content of a generated blog (the service has no get-one endpoint). */
async function blogLayer(blogId: string, deps: Pick<Deps, 'blogApi'>): Promise<ContentLayer> {
  const blogs = await (await deps.blogApi()).listBlogs();
  const blog = blogs.find((b) => b._id === blogId);
  if (!blog)
    throw new NotFoundError(`--from-blog: no blog with id "${blogId}"`, {
      hints: ['list them with `blogctl blog list`'],
    });
  const content = blog['content'];
  if (typeof content !== 'string' || !content)
    throw new UsageError(`--from-blog: blog "${blogId}" has no content to publish`);
  return {
    values: { title: blog.title, content },
    names: { title: '--from-blog (title)', content: '--from-blog (content)' },
  };
}

function printResult(deps: Pick<Deps, 'io' | 'globals'>, result: PublishResult, title: string): void {
  const { io } = deps;
  const summary = publishSummary(result);
  if (deps.globals.json) return io.json(pick(summary, jsonFields(deps.globals.json)));
  if (deps.globals.quiet) {
    const short = summary.link ?? summary.id;
    if (short) io.out(short);
    return;
  }
  const rows = Object.entries(summary).map(([k, v]) => [k, v === null ? '' : String(v)] as const);
  io.out(rows.map(([k, v]) => `${`${k}:`.padEnd(11)}${v}`.trimEnd()).join('\n'));
  io.success(`Sent "${title}" to WordPress (status ${summary.status ?? 'unknown'})`);
}
