// `blog create … --publish <site>`: generate, then publish the blog's title and content through the same
// pipeline as `wp publish --from-blog`. Generation is slow and may cost money, so everything that can fail
// without it is checked first: the post flags, the schedule (in the site's time zone), the image file, the
// site and its password, the look-up on the site (with --key, an earlier run's post is found and nothing is
// generated), a slug held by another post, and the category and tag names.
import { BlogctlError, RejectedError } from '../errors.js';
import type { CredentialPorts } from '../sites/ports.js';
import type { CancelPort, ServicePort, SitePort } from './ports.js';
import type { Blog } from '../schemas/blog.js';
import type { Credentials } from '../schemas/wordpress.js';
import type { WordPressClient } from '../wordpress/client.js';
import { resolveTermIds } from '../wordpress/terms.js';
import { blogContent } from './sources/blog-source.js';
import { blogSourceKey, keySourceKey } from './source-key.js';
import type { ContentLayer } from './sources/post-payload.js';
import { sitePostView, trashedWarning } from './apply/publish-apply.js';
import { siteFailure } from './publish-failure.js';
import { publishPosts } from './publish-flow.js';
import { planPublish, type PlannedPost } from './sync/publish-plan.js';
import { makeJob, type JobSpec, type PublishJob } from './sources/publish-job.js';
import { outcome, type PublishOutcome } from './publish-outcome.js';
import { resolveCredentials } from '../sites/profiles.js';

export interface BlogPublishInput {
  /** --publish <site>: a site profile id. */
  site: string;
  /** The post flags (--wp-category, --post-meta and the rest). */
  flagLayer: ContentLayer;
  featuredImage?: string;
  key?: string;
  /** The namespace of the post (publish-plan.ts). */
  namespace?: string;
  /** The namespace such a post took before, where it is looked for too (publish-plan.ts). */
  formerNamespace?: string;
  /** The project's post defaults (blogctl.yml), under the blog's fields: as `wp publish` reads its files. */
  defaults?: ContentLayer[];
  allowImmediate: boolean;
  createTerms: boolean;
  /**
   * The post flags as `wp publish` arguments (--key included): advice to publish the blog later names a
   * command that makes the same post.
   */
  postArgs?: string[];
}

export interface BlogPublishPlan {
  input: BlogPublishInput;
  credentials: Credentials;
  siteId: string;
  /** What the site says would happen (a stand-in blog for the generated one). */
  planned: PlannedPost;
  /** With --key: the post an earlier run published for it, and generation is skipped. */
  already?: PublishOutcome;
  wordpress: () => Promise<WordPressClient>;
}

type PlanDeps = CredentialPorts & SitePort;

/** Everything that can fail before generating (exit 2, 4, 5, 6, 7 without a blog having been made). */
export async function planBlogPublish(
  input: BlogPublishInput,
  deps: PlanDeps,
  { dryRun = false } = {},
): Promise<BlogPublishPlan> {
  // A stand-in title and body: the real ones come from the generated blog.
  const probe = await makeJob(spec(input, { _id: 'preflight', title: 'preflight', content: 'x' }), {
    now: new Date(),
    allowImmediate: input.allowImmediate,
  });
  // Stdin may be carrying the provider key or -f -: the password comes from the profile or the environment.
  const { credentials, site } = await resolveCredentials({ site: input.site, passwordStdin: false }, deps);
  let client: Promise<WordPressClient> | undefined;
  const wordpress = (): Promise<WordPressClient> => (client ??= deps.wordpress(credentials));
  const siteId = site ?? input.site;
  const {
    posts: [planned],
  } = await planPublish(
    {
      credentials,
      siteId,
      jobs: [probe],
      ...(input.namespace !== undefined && { namespace: input.namespace }),
      ...(input.formerNamespace !== undefined && { formerNamespace: input.formerNamespace }),
      concurrency: 1,
      createTerms: input.createTerms,
      update: true,
      serviceOnly: false,
    },
    wordpress,
  );
  const plan: BlogPublishPlan = { input, credentials, siteId, planned: planned!, wordpress };
  const action = planned!.action;
  if (action.kind === 'conflict')
    throw new RejectedError(
      `--slug "${action.post.slug}" belongs to post ${action.post.id} (${action.post.status}), which blogctl did not publish for this blog: it is never overwritten; nothing generated or sent`,
    );
  // With --key, an earlier run's post: nothing is generated. In the trash, it is left there and reported as
  // `trashed`, as wp publish reports it; publishing anew would make a second post for the key.
  if (input.key !== undefined && action.kind !== 'create') {
    const source = { ...probe, name: `--key ${input.key}` };
    plan.already =
      action.kind === 'trashed'
        ? outcome(source, 'trashed', sitePostView(action.post), {
            warnings: [`--key ${input.key}: ${trashedWarning(action.post)}; nothing generated or sent`],
          })
        : outcome(source, 'unchanged', sitePostView(action.post), {
            notes: [
              `--key ${input.key} is already published to ${siteId} as post ${action.post.id} (${action.post.status}): nothing generated or sent`,
            ],
          });
    return plan;
  }
  // Unknown names fail here, before generating; with --create-terms they are created now, and the publish
  // below finds them through the same client. A dry run never creates them (nor can it check them then).
  if (dryRun && input.createTerms) return plan;
  for (const taxonomy of ['categories', 'tags'] as const) {
    const refs = probe.draft[taxonomy];
    if (!refs?.length) continue;
    try {
      await resolveTermIds(await wordpress(), taxonomy, refs, { create: input.createTerms });
    } catch (error) {
      if (error instanceof BlogctlError && error.exitCode === 2) throw error;
      throw siteFailure(error, 'looking up categories and tags', siteId);
    }
  }
  return plan;
}

/**
 * Publishes the generated blog: source `blog <id>` (or the --key). A failure names the command that
 * publishes this blog later.
 */
export async function publishBlog(
  plan: BlogPublishPlan,
  blog: Blog,
  deps: ServicePort & SitePort & CancelPort & Pick<CredentialPorts, 'io'>,
): Promise<{ outcome: PublishOutcome; job: PublishJob }> {
  const job = await makeJob(spec(plan.input, blog), {
    now: new Date(),
    allowImmediate: plan.input.allowImmediate,
  });
  const later = publishLaterCommand(plan.input, blog._id);
  const [result] = await publishPosts(
    {
      credentials: plan.credentials,
      siteId: plan.siteId,
      jobs: [job],
      ...(plan.input.namespace !== undefined && { namespace: plan.input.namespace }),
      ...(plan.input.formerNamespace !== undefined && { formerNamespace: plan.input.formerNamespace }),
      concurrency: 1,
      createTerms: plan.input.createTerms,
      update: true,
      serviceOnly: false,
      wordpress: plan.wordpress,
      inDoubtHint: `the blog was generated (${blog._id}) and the post may exist: \`${later}\` finds it on the site, or sends it only if it is not there`,
    },
    deps,
  );
  for (const warning of job.draft.warnings) deps.io.warn(warning);
  const { error } = result!;
  if (error && !result!.inDoubt) {
    // The generated blog's id is in the line itself: a cron log (no hint lines) must not lose it, or the
    // next run pays for generating it again.
    result!.error = new BlogctlError(
      error.kind,
      error.exitCode,
      `${error.message}; the blog was generated (${blog._id}): publish it later with \`${later}\``,
      error.context,
    );
  }
  return { outcome: result!, job };
}

/** `blogctl wp publish --site <site> --from-blog <id>` with the same post flags, quoted for a POSIX shell. */
export function publishLaterCommand(input: BlogPublishInput, blogId: string): string {
  return ['blogctl', 'wp', 'publish', '--site', input.site, '--from-blog', blogId, ...(input.postArgs ?? [])]
    .map(shellWord)
    .join(' ');
}

function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function spec(input: BlogPublishInput, blog: Pick<Blog, '_id' | 'title'> & Record<string, unknown>): JobSpec {
  // The same fields as `wp publish --from-blog`: the blog's title, content, excerpt and slug under the flags.
  const generated = blogContent(blog, 'the generated');
  return {
    name: `blog ${blog._id}`,
    layers: [...(input.defaults ?? []), generated.layer, input.flagLayer],
    blog: generated.blog,
    ...(input.featuredImage !== undefined && {
      featuredImage: { path: input.featuredImage, name: '--featured-image' },
    }),
    source: input.key !== undefined ? keySourceKey(input.key) : blogSourceKey(blog._id),
  };
}
