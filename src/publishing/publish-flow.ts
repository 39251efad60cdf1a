// The one publish pipeline, for `wp publish` (one post, a batch of files, a folder) and `blog create
// --publish`. Publishing is a sync with the WordPress site, which alone knows what was published:
//
//   look up the site (every post carrying blogctl's marker, and the posts holding the slugs asked for; one
//   request for the whole batch, more only past 100 posts) → a plan per source (plan.ts): create, update
//   the fields that changed, or leave it → terms by name for what will be sent (all before any post is
//   sent) → per post, a few at a time: featured image upload when the image is new or changed → create
//   through the service's publish endpoint, or update in place on WordPress → the status read back when the
//   service's answer lacks it.
//
// Nothing is kept on this machine. A create that may have reached the service without a readable answer is
// never sent again in the same run (the service may still be relaying it); the next run, from any machine,
// finds the post on the site by its marker, or sends it again with the same Idempotency-Key (identity.ts).
import { randomUUID } from 'node:crypto';
import {
  AuthError,
  BlogctlError,
  InterruptedError,
  RejectedError,
  UnavailableError,
  UsageError,
} from '../errors.js';
import type { Deps } from '../factory.js';
import { isUnreachable, wasNeverSent } from '../http/retry.js';
import type { Credentials, PostContent } from '../schemas/wordpress.js';
import type { PublishResult } from '../schemas/wordpress-publish.js';
import type { WordPressClient } from '../wordpress/client.js';
import { uploadMedia } from '../wordpress/media.js';
import { findPostsBySlugs, searchPosts, updatePost, type WpPostDetail } from '../wordpress/posts.js';
import { resolveTermIds, type TermRef } from '../wordpress/terms.js';
import {
  fieldSum,
  idempotencyKey,
  keyHash,
  MARKER_SEARCH,
  readMarker,
  replaceMarker,
  withMarker,
  type Marker,
} from './identity.js';
import { describeSource } from './source-key.js';
import { planActions, type Action, type SitePost } from './plan.js';
import { checkOnSite } from './publish-draft.js';
import type { PublishJob } from './publish-job.js';
import {
  failed,
  outcome,
  prefix,
  rejection,
  type PublishOutcome,
  type PublishedPost,
} from './publish-outcome.js';
import { groupedLines } from '../output/group.js';
import { readBackPost } from './read-back.js';
import { siteZoneOf } from './schedule.js';

export interface PublishPostsOptions {
  credentials: Credentials;
  /** The site profile used, for messages. */
  siteId?: string;
  jobs: PublishJob[];
  concurrency: number;
  /** `--create-terms`. */
  createTerms: boolean;
  /** `--no-update` makes it false: a changed post is reported `changed` and left as it is. */
  update: boolean;
  /**
   * `--service-only`: publish through the service alone, for a machine that cannot reach the site — no
   * look-up (repeats cannot be detected), no update, no terms by name, no image upload.
   */
  serviceOnly: boolean;
  /** A WordPress client already made for this site (its term listing is reused); default: one per call. */
  wordpress?: () => Promise<WordPressClient>;
  /** What the error line of a post left in doubt says (blog create names the command that publishes later). */
  inDoubtHint?: string;
  /** Called as each post finishes, in the order they finish (progress on a terminal). */
  onOutcome?: (outcome: PublishOutcome, index: number) => void;
  /** Called as each post is taken up, before anything is sent for it (what is in flight, for progress). */
  onStart?: (index: number) => void;
}

type FlowDeps = Pick<Deps, 'blogApi' | 'wordpress' | 'signal'>;

/** One source and what the plan says to do with it. */
export interface PlannedPost {
  job: PublishJob;
  /** Undefined for a post with no source (flags alone): always created, never found again. */
  marker?: Marker;
  action: Action;
  /** Other posts on the site carrying the same source. */
  duplicates: SitePost[];
}

/** The site's name in messages: the profile id, else its URL. */
const siteName = (options: Pick<PublishPostsOptions, 'siteId' | 'credentials'>): string =>
  options.siteId ?? options.credentials.websiteUrl;

/**
 * A request made to WordPress directly failed: say what it was for and that nothing was published. The
 * error keeps its kind and exit code (401 is still 4, unreachable still 7).
 */
export function siteFailure(error: unknown, what: string, site: string): unknown {
  if (!(error instanceof BlogctlError) || error instanceof InterruptedError) return error;
  const hints = [
    ...(error.context.hints ?? []),
    ...(error instanceof UnavailableError
      ? [
          'to publish through the service alone when this machine cannot reach the site, add --service-only (no look-up: repeats cannot be detected)',
        ]
      : []),
  ];
  return new BlogctlError(
    error.kind,
    error.exitCode,
    `${what} on ${site} failed: ${error.message}; nothing was published`,
    { ...error.context, ...(hints.length && { hints }) },
  );
}

/**
 * The plan for every job: read from the site (with the site's credentials), or "create" for all with
 * --service-only. Local dates are checked in the site's time zone here too. Sends nothing.
 */
export async function planPublish(
  options: PublishPostsOptions,
  wordpress: () => Promise<WordPressClient>,
): Promise<PlannedPost[]> {
  const { jobs } = options;
  const markers = jobs.map(jobMarker);
  checkSameSource(jobs);
  // Posts from flags alone have nothing to be found by: the site is asked only for a local date's zone.
  const untracked = !markers.some(Boolean) && !jobs.some((j) => j.draft.schedule);
  if (options.serviceOnly || untracked) {
    return checkSchedules(
      jobs.map((job, i) => ({
        job,
        ...(markers[i] && { marker: markers[i] }),
        action: { kind: 'create' },
        duplicates: [],
      })),
      options,
    );
  }
  const site = siteName(options);
  const lookingUp = 'looking up which posts already exist';
  let marked: WpPostDetail[];
  let bySlug: WpPostDetail[] = [];
  try {
    const client = await wordpress();
    // The site's time zone: a date without an offset is the site's local time.
    const zoned = jobs.filter((j) => j.draft.schedule);
    if (zoned.length) {
      const zone = siteZoneOf(await client.index());
      const now = new Date();
      for (const job of zoned) checkOnSite(job.draft, zone, now);
    }
    const slugs = jobs.flatMap((job, i) => (markers[i] && claimedSlug(job) ? [claimedSlug(job)!] : []));
    [marked, bySlug] = await Promise.all([
      searchPosts(client, MARKER_SEARCH, lookingUp),
      slugs.length ? findPostsBySlugs(client, slugs, lookingUp) : Promise.resolve([]),
    ]);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw siteFailure(error, lookingUp, site);
  }
  const sitePost = (p: WpPostDetail): SitePost => {
    const marker = readMarker(p.content?.raw ?? '');
    return {
      id: p.id,
      status: p.status,
      slug: p.slug ?? '',
      ...(p.link !== undefined && { link: p.link }),
      ...(p.type !== undefined && { type: p.type }),
      ...(p.password !== undefined && { password: p.password }),
      ...(marker && { marker }),
      ...(p.content?.raw !== undefined && { raw: p.content.raw }),
    };
  };
  const tracked = jobs.flatMap((job, i) =>
    markers[i]
      ? [
          {
            i,
            marker: markers[i],
            // Only a password the source sets is managed: an editor's on a source without one stays.
            ...(job.draft.content.password !== undefined && { password: job.draft.content.password }),
            ...(claimedSlug(job) && { slug: claimedSlug(job) }),
          },
        ]
      : [],
  );
  const planned = planActions(tracked, marked.map(sitePost), bySlug.map(sitePost));
  const result: PlannedPost[] = jobs.map((job) => ({ job, action: { kind: 'create' }, duplicates: [] }));
  tracked.forEach((t, n) => {
    result[t.i] = { job: jobs[t.i]!, marker: t.marker, ...planned[n]! };
  });
  return checkSchedules(result, options);
}

/** The slug a source asks for: a post of someone else's holding it is a conflict (not a generated one). */
const claimedSlug = (job: PublishJob): string | undefined => {
  const slug = job.draft.content.slug;
  return slug && slug !== job.looseSlug ? slug : undefined;
};

/** The fields whose sending makes WordPress decide the status from the date again. */
const SCHEDULE_FIELDS = new Set(['status', 'date', 'date_gmt']);

/**
 * A `future` post without a usable date (none, past, under 60 s ahead) fails the run (exit 2, nothing sent)
 * only if its status or date would be sent: a create, or an update of either. A scheduled post left alone,
 * or updated in other fields, keeps the date it was published with, even once that date has passed.
 */
function checkSchedules(plan: PlannedPost[], options: Pick<PublishPostsOptions, 'update'>): PlannedPost[] {
  const problems = plan.flatMap(({ job, action }) => {
    const problem = job.draft.scheduleProblem;
    const sent =
      action.kind === 'create' ||
      (action.kind === 'update' && options.update && action.fields.some((f) => SCHEDULE_FIELDS.has(f)));
    if (!problem || !sent) return [];
    return [[job.name, problem] as const];
  });
  if (!problems.length) return plan;
  // Said once: the line, and as details only when the sources have different problems.
  const lines = plan.length > 1 ? groupedLines(problems, 'source') : problems.map(([, problem]) => problem);
  throw new UsageError(
    `${lines[0]!}; nothing was published`,
    lines.length > 1 ? { details: lines } : undefined,
  );
}

/**
 * The marker a job's post carries: its source's key and a sum of every field as it would be sent — the
 * content fields, the categories and tags as given (names stay names: renaming a term on the site is not a
 * change of the post), the featured image by its bytes.
 */
export function jobMarker(job: PublishJob): Marker | undefined {
  if (job.sourceKey === undefined) return undefined;
  const sums: Record<string, string> = {};
  for (const [field, value] of Object.entries(job.draft.content)) {
    // Not the post's password: the marker is in the page's source, and a short hash of a password can be
    // guessed back. The plan compares it with the site's own value instead (planActions).
    if (value !== undefined && field !== 'password') sums[field] = fieldSum(value);
  }
  if (job.contentSum !== undefined) sums['content'] = job.contentSum;
  if (job.draft.categories) sums['categories'] = fieldSum(job.draft.categories);
  if (job.draft.tags) sums['tags'] = fieldSum(job.draft.tags);
  if (job.featuredImage) sums['image'] = job.featuredImage.sum;
  return { key: keyHash(job.sourceKey), sums };
}

/**
 * Two sources that would be the same post on the site, or that ask for the same slug (WordPress would give
 * the second `slug-2`, and the next run would find it in conflict): refused before anything is sent.
 */
function checkSameSource(jobs: PublishJob[]): void {
  const seen = new Map<string, PublishJob>();
  const slugs = new Map<string, PublishJob>();
  const clashes: string[] = [];
  for (const job of jobs) {
    if (job.sourceKey === undefined) continue;
    const first = seen.get(job.sourceKey);
    if (first) {
      clashes.push(`${first.name} and ${job.name} are the same post (${describeSource(job.sourceKey)})`);
      continue;
    }
    seen.set(job.sourceKey, job);
    const slug = claimedSlug(job);
    if (slug === undefined) continue;
    const holder = slugs.get(slug);
    if (holder) clashes.push(`${holder.name} and ${job.name} ask for the same slug "${slug}"`);
    else slugs.set(slug, job);
  }
  if (clashes.length) {
    throw new UsageError(
      `${clashes[0]!}: give each its own front matter "key" or "slug"; nothing was published`,
      { details: clashes },
    );
  }
}

export async function publishPosts(options: PublishPostsOptions, deps: FlowDeps): Promise<PublishOutcome[]> {
  const { jobs, credentials } = options;
  const site = siteName(options);
  let client: Promise<WordPressClient> | undefined;
  const wordpress =
    options.wordpress ?? ((): Promise<WordPressClient> => (client ??= deps.wordpress(credentials)));
  const plan = await planPublish(options, wordpress);
  const several = jobs.length > 1;

  const toSend = plan.filter(
    (p) => p.action.kind === 'create' || (p.action.kind === 'update' && options.update),
  );
  const terms = options.serviceOnly
    ? new Map<PublishJob, ResolvedTerms>()
    : await resolveAllTerms(toSend, wordpress, options, site);
  const api = toSend.some((p) => p.action.kind === 'create')
    ? await deps.blogApi({ connections: options.concurrency })
    : undefined;
  const uploads = new Map<string, Promise<number>>();
  const upload = (path: string): Promise<number> => {
    let id = uploads.get(path);
    // One upload per file and run: a shared --featured-image is not added to the library once per post.
    if (!id) {
      id = wordpress()
        .then((c) => uploadMedia(c, path).then((m) => m.id))
        .catch((error: unknown) => {
          throw siteFailure(error, `uploading the featured image ${path}`, site);
        });
      uploads.set(path, id);
    }
    return id;
  };
  const context: PostContext = { options, site, several, wordpress, upload, api, terms };

  const outcomes: PublishOutcome[] = new Array(jobs.length);
  let next = 0;
  let stop: BlogctlError | undefined;
  const worker = async (): Promise<void> => {
    while (next < plan.length) {
      const i = next++;
      options.onStart?.(i);
      const planned = plan[i]!;
      let result: PublishOutcome;
      if (stop && (planned.action.kind === 'create' || planned.action.kind === 'update')) {
        // Every post after these would be refused, or wait through the same retries for the same answer.
        const reason = `not attempted: ${stop.message}`;
        result = failed(
          planned.job,
          stop instanceof AuthError ? new AuthError(reason) : new UnavailableError(reason),
        );
      } else {
        result = await applyOne(planned, context, deps);
        if (result.error instanceof AuthError) stop ??= result.error;
        if (result.error && context.unreachable) stop ??= context.unreachable;
      }
      for (const duplicate of planned.duplicates)
        result.warnings.push(
          `${prefix(planned.job, several)}post ${duplicate.id} (${duplicate.status}) carries the same source; only post ${postOf(planned.action)?.id ?? '?'} is kept in step: delete the other in WordPress`,
        );
      outcomes[i] = result;
      options.onOutcome?.(result, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, plan.length)) }, worker));
  return outcomes;
}

const postOf = (action: Action): SitePost | undefined => ('post' in action ? action.post : undefined);

interface PostContext {
  options: PublishPostsOptions;
  site: string;
  several: boolean;
  wordpress: () => Promise<WordPressClient>;
  upload: (path: string) => Promise<number>;
  api: Awaited<ReturnType<Deps['blogApi']>> | undefined;
  terms: Map<PublishJob, ResolvedTerms>;
  /** The service could not be reached at all (after the retries): the posts not started are not sent. */
  unreachable?: BlogctlError;
}

/** A source whose post is in the trash: left there, by `wp publish` and `blog create --publish --key` alike. */
export const trashedWarning = (post: Pick<SitePost, 'id'>): string =>
  `its post ${post.id} is in WordPress's trash: left there (restore it in WordPress to keep it in step, or delete it permanently to publish anew)`;

export const sitePostView = (post: SitePost): PublishedPost => ({
  id: String(post.id),
  link: post.link ?? null,
  status: post.status,
  type: post.type ?? 'post',
});

async function applyOne(
  planned: PlannedPost,
  ctx: PostContext,
  deps: Pick<Deps, 'signal'>,
): Promise<PublishOutcome> {
  const { job, action } = planned;
  const by = prefix(job, ctx.several);
  switch (action.kind) {
    case 'unchanged':
      return outcome(job, 'unchanged', sitePostView(action.post));
    case 'trashed':
      return outcome(job, 'trashed', sitePostView(action.post), {
        warnings: [`${by}${trashedWarning(action.post)}`],
      });
    case 'conflict':
      return failed(
        job,
        new RejectedError(
          `the slug "${action.post.slug}" belongs to post ${action.post.id} (${action.post.status}), which ${action.post.marker ? 'blogctl published for another source' : 'blogctl did not publish'}: it is never overwritten, and a new post would get another slug; nothing sent`,
          {
            hints: [
              'give this source another slug, or remove the slug from it so WordPress picks one',
              "to make that post this source's, delete it in WordPress (or change its slug) and publish again",
            ],
          },
        ),
      );
    case 'update':
      if (!ctx.options.update)
        return outcome(job, 'changed', sitePostView(action.post), {
          fields: action.fields,
          notes: [
            `${by}its source changed (${action.fields.join(', ')}); its post is left as it is (--no-update)`,
          ],
        });
      return guarded(job, deps, () => updateOne(planned, action, ctx));
    case 'create':
      return guarded(job, deps, () => createOne(planned, ctx));
  }
}

/** Ctrl-C ends the whole run (exit 130), not one post; any other failure is this post's. */
async function guarded(
  job: PublishJob,
  deps: Pick<Deps, 'signal'>,
  run: () => Promise<PublishOutcome>,
): Promise<PublishOutcome> {
  try {
    return await run();
  } catch (error) {
    if (deps.signal.aborted || !(error instanceof BlogctlError) || error instanceof InterruptedError)
      throw error;
    return failed(job, error);
  }
}

/** The post's content as sent: categories and tags resolved, the featured image uploaded, the marker added. */
async function contentToSend(
  planned: PlannedPost,
  ctx: PostContext,
  withImage: boolean,
): Promise<PostContent> {
  const { job, marker } = planned;
  const content: PostContent = { ...job.draft.content, ...ctx.terms.get(job) };
  if (marker) content.content = withMarker(content.content, marker);
  if (withImage && job.featuredImage && !ctx.options.serviceOnly)
    content.featured_media = await ctx.upload(job.featuredImage.path);
  return content;
}

async function createOne(planned: PlannedPost, ctx: PostContext): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const content = await contentToSend(planned, ctx, true);
  let result: PublishResult;
  try {
    // A post from flags alone cannot be found again: its key guards only this request.
    result = await ctx.api!.publishToWordPress(ctx.options.credentials, content, {
      idempotencyKey: marker ? idempotencyKey(ctx.options.credentials.websiteUrl, marker) : randomUUID(),
    });
  } catch (error) {
    if (!(error instanceof BlogctlError) || error instanceof InterruptedError) throw error;
    // Never sent again in this run: the service may still be relaying it. The next run finds it by its marker.
    if (isAmbiguous(error)) return inDoubt(job, error, ctx);
    // Never connected, after the retries: the service is down or the URL wrong, for every post after this.
    if (isUnreachable(error)) ctx.unreachable ??= error;
    throw error;
  }
  if (!result.published) throw rejection(result);
  const { post, warning } = await readBackPost(
    {
      id: result.id ?? null,
      link: result.link ?? null,
      status: result.status ?? null,
      type: result.type ?? null,
    },
    ctx.wordpress,
    ctx.options.serviceOnly,
  );
  const done = outcome(job, 'created', post);
  statusWarning(done, job, ctx.several);
  if (warning) done.warnings.push(`${prefix(job, ctx.several)}${warning}`);
  if (!marker)
    done.warnings.push(
      `${prefix(job, ctx.several)}a post from flags alone has no source to be found by: publishing it again makes another post (give --slug or --key to keep it in step)`,
    );
  return done;
}

/**
 * The fields that changed, as WordPress's update takes them, and the content always, since its marker
 * changes: the source's body when the body changed, else the site's own (an editor's edits kept) with only
 * the marker replaced.
 */
async function updateOne(
  planned: PlannedPost,
  action: Extract<Action, { kind: 'update' }>,
  ctx: PostContext,
): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const content = await contentToSend(planned, ctx, action.fields.includes('image'));
  const keep = !action.fields.includes('content') && action.post.raw !== undefined && marker;
  const body: Record<string, unknown> = {
    content: keep ? replaceMarker(action.post.raw!, marker) : content.content,
  };
  for (const field of action.fields) {
    if (field === 'content') continue;
    if (field === 'image') {
      body['featured_media'] = content.featured_media ?? 0;
      continue;
    }
    const value = (content as Record<string, unknown>)[field];
    if (value !== undefined) body[field] = value;
    else {
      // Removed from the source: cleared on the site where WordPress has an empty value for it.
      const cleared = CLEARED[field];
      if (cleared !== undefined) body[field] = cleared;
    }
  }
  let stored: WpPostDetail;
  try {
    stored = await updatePost(await ctx.wordpress(), action.post.id, body);
  } catch (error) {
    throw siteFailure(error, `updating post ${action.post.id}`, ctx.site);
  }
  const done = outcome(
    job,
    'updated',
    {
      id: String(stored.id),
      link: stored.link ?? action.post.link ?? null,
      status: stored.status,
      type: stored.type ?? 'post',
    },
    { fields: action.fields },
  );
  if (action.fields.includes('status') || action.fields.includes('date'))
    statusWarning(done, job, ctx.several);
  return done;
}

/** What a field removed from the source becomes on the site. */
const CLEARED: Record<string, unknown> = {
  excerpt: '',
  password: '',
  template: '',
  featured_media: 0,
  sticky: false,
  format: 'standard',
  categories: [],
  tags: [],
};

function statusWarning(done: PublishOutcome, job: PublishJob, several: boolean): void {
  const status = done.post?.status;
  // A status the schedule foresaw (a past date made `future` into `publish`) was warned about already.
  if (status && status !== job.draft.requestedStatus && status !== job.draft.expectedStatus)
    done.warnings.push(
      `${prefix(job, several)}WordPress gave the post status "${status}", not "${job.draft.requestedStatus}" as asked`,
    );
}

/**
 * The request may have been acted on, outcome unknown. Only two failures say for certain that no post was
 * made: nothing was sent (the connection failed first), or the service refused the request (a 4xx).
 * Anything else — no answer, an unreadable 2xx, a 5xx (a gateway's 502/504 says nothing about what the
 * service behind it did), an error of unknown kind — may have left a post behind.
 */
export function isAmbiguous(error: BlogctlError): boolean {
  const { status, peerCode } = error.context;
  if (status !== undefined) return !(status >= 400 && status < 500);
  if (error instanceof UnavailableError) return !wasNeverSent(peerCode);
  // Raised by blogctl itself before a request could be made (a usage or configuration problem).
  return false;
}

function inDoubt(job: PublishJob, error: BlogctlError, ctx: PostContext): PublishOutcome {
  const next =
    ctx.options.inDoubtHint ??
    (job.sourceKey === undefined
      ? 'the post may exist, and a post from flags alone cannot be found again: check the site before publishing it again'
      : 'the post may exist: the next run finds it on the site, or sends it again with the same Idempotency-Key');
  const result = failed(
    job,
    new BlogctlError(error.kind, error.exitCode, `${error.message}; ${next}`, error.context),
  );
  result.inDoubt = true;
  return result;
}

interface ResolvedTerms {
  categories?: number[];
  tags?: number[];
}

/**
 * The categories and tags of every post that will be sent, before any is: an unknown name (without
 * --create-terms) fails the whole run with exit 2, naming each unknown term, and nothing is published.
 */
async function resolveAllTerms(
  planned: PlannedPost[],
  wordpress: () => Promise<WordPressClient>,
  options: PublishPostsOptions,
  site: string,
): Promise<Map<PublishJob, ResolvedTerms>> {
  const problems: [string, string][] = [];
  const resolved = new Map<PublishJob, ResolvedTerms>();
  const several = options.jobs.length > 1;
  for (const { job } of planned) {
    const one: ResolvedTerms = {};
    try {
      const categories = await resolveRefs(
        job.draft.categories,
        'categories',
        wordpress,
        options.createTerms,
      );
      const tags = await resolveRefs(job.draft.tags, 'tags', wordpress, options.createTerms);
      if (categories) one.categories = categories;
      if (tags) one.tags = tags;
    } catch (error) {
      if (!(error instanceof UsageError)) throw siteFailure(error, 'looking up categories and tags', site);
      problems.push([job.name, error.message]);
    }
    resolved.set(job, one);
  }
  // "nothing was published" is in the line itself: a script's log gets no hint lines.
  if (problems.length === 1)
    throw new UsageError(`${several ? `${problems[0]![0]}: ` : ''}${problems[0]![1]}; nothing was published`);
  if (problems.length) {
    // Each unknown term once, with the posts that name it.
    const details = groupedLines(problems, 'post');
    throw new UsageError(
      details.length === 1
        ? `${details[0]!}; nothing was published`
        : `unknown terms in ${problems.length} posts (first: ${details[0]!}); nothing was published`,
      details.length > 1 ? { details } : undefined,
    );
  }
  return resolved;
}

async function resolveRefs(
  refs: TermRef[] | undefined,
  taxonomy: 'categories' | 'tags',
  wordpress: () => Promise<WordPressClient>,
  create: boolean,
): Promise<number[] | undefined> {
  if (refs === undefined) return undefined;
  if (!refs.length) return [];
  // Ids too: WordPress drops an unknown id silently, and "2024" may be a tag's name rather than an id.
  return resolveTermIds(await wordpress(), taxonomy, refs, { create });
}
