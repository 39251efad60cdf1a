// `blog create … --publish <site>`: generate, then publish the blog's title and content through the same
// pipeline and journal as `wp publish --from-blog`. Generation is slow and may cost money, so everything that
// can fail without it is checked first: the post flags, the schedule, the image file, the site and its
// password, the journal (with --key, including a publish an earlier run left in doubt), and the category and
// tag names on the site.
import { BlogctlError } from '../errors.js';
import type { Deps } from '../factory.js';
import type { Blog } from '../schemas/blog.js';
import type { Credentials } from '../schemas/wordpress.js';
import type { WordPressClient } from '../wordpress/client.js';
import { resolveTermIds } from '../wordpress/terms.js';
import { readInDoubt } from './in-doubt.js';
import { blogSource, findPublished, journalKey, journalSite, keySource, withJournalLock } from './journal.js';
import type { ContentLayer } from './post-payload.js';
import { publishPosts } from './publish-flow.js';
import { makeJob, type JobSpec, type PublishJob } from './publish-job.js';
import {
  alreadyPublished,
  recordsOnDisk,
  type PublishOutcome,
  type RecordTarget,
} from './publish-outcome.js';
import { foundOnSite, recheckInDoubt } from './publish-recover.js';
import { resolveCredentials } from '../sites/profiles.js';

export interface BlogPublishInput {
  /** --publish <site>: a site profile id. */
  site: string;
  /** The post flags (blog create's --category included, as the post's category). */
  flagLayer: ContentLayer;
  featuredImage?: string;
  key?: string;
  force: boolean;
  createTerms: boolean;
  /**
   * The post flags as `wp publish` arguments (--key included, --force not): advice to publish the blog
   * later names a command that makes the same post, hence the same journal key, so that it finds the
   * journal entry or in-doubt record this run leaves.
   */
  postArgs?: string[];
}

export interface BlogPublishPlan {
  input: BlogPublishInput;
  credentials: Credentials;
  siteId: string;
  /** With --key and no --force: the earlier publish, and generation is skipped. */
  already?: PublishOutcome;
  wordpress: () => Promise<WordPressClient>;
}

type PlanDeps = Pick<Deps, 'store' | 'settings' | 'env' | 'io' | 'prompter' | 'readStdin' | 'wordpress'>;

/** Everything that can fail before generating (exit 2, 4, 5, 7 without a blog having been made). */
export async function planBlogPublish(input: BlogPublishInput, deps: PlanDeps): Promise<BlogPublishPlan> {
  // A stand-in title and body: the real ones come from the generated blog.
  const probe = await makeJob(spec(input, { _id: 'preflight', title: 'preflight', content: 'x' }), {
    now: new Date(),
    force: input.force,
  });
  // Stdin may be carrying the provider key or -f -: the password comes from the profile or the environment.
  const { credentials, site } = await resolveCredentials({ site: input.site, passwordStdin: false }, deps);
  let client: Promise<WordPressClient> | undefined;
  const wordpress = (): Promise<WordPressClient> => (client ??= deps.wordpress(credentials));
  const plan: BlogPublishPlan = { input, credentials, siteId: site ?? input.site, wordpress };

  if (input.key !== undefined && !input.force) {
    const dir = deps.store().dir;
    const site = journalSite(credentials.websiteUrl);
    const key = journalKey(keySource(input.key));
    const entry = findPublished(dir, site, key);
    if (entry) {
      plan.already = alreadyPublished(
        { name: `--key ${input.key}`, draft: probe.draft },
        entry,
        false,
        `--key ${input.key}: nothing generated or sent`,
      );
      return plan;
    }
    // An earlier run sent this key's post without an answer: look for it before paying for a new blog.
    // Not there (or the site will not say): generate, and the publish sends it with the earlier key.
    const doubt = readInDoubt(dir, site, key);
    const recheck = doubt && (await recheckInDoubt(doubt, wordpress));
    if (recheck?.kind === 'failed') throw recheck.error;
    if (recheck?.kind === 'found') {
      plan.already = await withJournalLock(dir, async (journal) => {
        const target: RecordTarget = {
          site,
          siteId: plan.siteId,
          journal,
          several: false,
          syncing: [],
        };
        const outcome = foundOnSite({ ...probe, name: `--key ${input.key}` }, recheck.post, target);
        await recordsOnDisk(target);
        return outcome;
      });
      return plan;
    }
  }
  // Unknown names fail here, before generating; with --create-terms they are created now, and the publish
  // below finds them through the same client.
  for (const taxonomy of ['categories', 'tags'] as const) {
    const refs = probe.draft[taxonomy];
    if (refs?.length) await resolveTermIds(await wordpress(), taxonomy, refs!, { create: input.createTerms });
  }
  return plan;
}

/**
 * Publishes the generated blog: source `blog <id>` in the journal (or the --key). A failure names the command
 * that publishes this blog later — the same post, so the same journal key: in doubt, on the error line (that
 * command looks for the post first; another `blog create` would make another blog); otherwise as a hint.
 */
export async function publishBlog(
  plan: BlogPublishPlan,
  blog: Blog,
  deps: Pick<Deps, 'blogApi' | 'wordpress' | 'store' | 'signal' | 'io'>,
): Promise<{ outcome: PublishOutcome; job: PublishJob }> {
  const job = await makeJob(spec(plan.input, blog), { now: new Date(), force: plan.input.force });
  for (const warning of job.draft.warnings) deps.io.warn(warning);
  const later = publishLaterCommand(plan.input, blog._id);
  const [outcome] = await publishPosts(
    {
      credentials: plan.credentials,
      siteId: plan.siteId,
      jobs: [job],
      concurrency: 1,
      createTerms: plan.input.createTerms,
      force: plan.input.force,
      wordpress: plan.wordpress,
      inDoubtHint: `the blog was generated (${blog._id}) and the post may exist: \`${later}\` looks for it on the site first and sends it only if it is not there`,
    },
    deps,
  );
  const { error } = outcome!;
  if (error && !outcome!.inDoubt) {
    // The generated blog's id is in the line itself: a cron log (no hint lines) must not lose it, or the
    // next run pays for generating it again.
    outcome!.error = new BlogctlError(
      error.kind,
      error.exitCode,
      `${error.message}; the blog was generated (${blog._id}): publish it later with \`${later}\``,
      error.context,
    );
  }
  return { outcome: outcome!, job };
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

function spec(input: BlogPublishInput, blog: Pick<Blog, '_id' | 'title'> & { content?: unknown }): JobSpec {
  const content = typeof blog.content === 'string' ? blog.content : '';
  return {
    name: `blog ${blog._id}`,
    layers: [
      {
        values: { title: blog.title, content },
        names: { title: 'the generated title', content: 'the generated content' },
      },
      input.flagLayer,
    ],
    ...(input.featuredImage !== undefined && {
      featuredImage: { path: input.featuredImage, name: '--featured-image' },
    }),
    source: input.key !== undefined ? keySource(input.key) : blogSource(blog._id),
  };
}
