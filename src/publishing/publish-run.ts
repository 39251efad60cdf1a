// `wp publish`'s jobs carried out by the shared publish pipeline (publish-flow.ts), or only planned from
// what the site holds (--dry-run), sending nothing.
import type { PublishOutcome } from './publish-outcome.js';
import type { Plan, PublishPostsOptions } from './sync/publish-plan.js';
import type { WordPressClient } from '../wordpress/client.js';
import type { CancelPort, ServicePort, SitePort } from './ports.js';

/** The pipeline's options, plus --dry-run and --exit-code. */
export interface PublishOptions extends PublishPostsOptions {
  dryRun: boolean;
  exitCode: boolean;
}

/** Publishes every job through the shared pipeline: one outcome per job, in order. */
export async function publishRun(
  options: PublishOptions,
  deps: ServicePort & SitePort & CancelPort,
): Promise<PublishOutcome[]> {
  // Loaded only to send: the pipeline brings the WordPress client and the HTTP stack, which a post that
  // fails its checks never needs.
  const { publishPosts } = await import('./publish-flow.js');
  return publishPosts(options, deps);
}

/** The plan, read from the site (or all "create" with --service-only); nothing is sent. */
export async function planRun(options: PublishOptions, deps: SitePort): Promise<Plan> {
  // Posts from flags alone have nothing to look up: their plan is "create", without loading the pipeline.
  if (options.jobs.every((j) => j.sourceKey === undefined && !j.draft.schedule))
    return {
      posts: options.jobs.map((job) => ({ job, action: { kind: 'create' }, duplicates: [] })),
      orphans: [],
    };
  const [{ planPublish, siteName, toSend }, { resolveAllTerms }] = await Promise.all([
    import('./sync/publish-plan.js'),
    import('./apply/publish-terms.js'),
  ]);
  let client: Promise<WordPressClient> | undefined;
  const wordpress = (): Promise<WordPressClient> => (client ??= deps.wordpress(options.credentials));
  const plan = await planPublish(options, wordpress);
  // The terms the real run would send, checked as it checks them: an unknown name fails the plan too (exit
  // 2). With --create-terms they would be made, which a plan never does, so they are not checked.
  if (!options.serviceOnly && !options.createTerms) {
    await resolveAllTerms(toSend(plan.posts, options), wordpress, options, siteName(options));
  }
  // The inline images the run would upload: those of the posts it sends that the site lacks.
  const sent = toSend(plan.posts, options).filter((p) => p.job.images?.length);
  if (!options.serviceOnly && sent.length) {
    const { distinctImages, imagesOnSite } = await import('./apply/inline-uploads.js');
    const { siteFailure } = await import('./publish-failure.js');
    const images = distinctImages(sent.map((p) => p.job));
    let found: Map<string, unknown>;
    try {
      found = await imagesOnSite(await wordpress(), images, plan.account);
    } catch (error) {
      throw siteFailure(error, 'looking up the images already uploaded', siteName(options));
    }
    plan.uploads = images.filter((i) => !found.has(i.sum));
  }
  return plan;
}
