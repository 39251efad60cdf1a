// The plan of a publish run: for every source, what the run does with it, read from the site (look-up.ts)
// and worked out by plan.ts. Everything the run refuses on its input is refused here, before anything is
// sent: two sources that are one post, a slug asked for twice, a scheduled date that cannot be used.
import { groupedLines } from '../../output/group.js';
import { AuthError, NotFoundError, UsageError } from '../../errors.js';
import type { CancelPort, ServicePort, SitePort } from '../ports.js';
import type { Credentials } from '../../schemas/wordpress.js';
import type { WordPressClient } from '../../wordpress/client.js';
import type { StoredValues } from './drift.js';
import { fieldSum, keyHash, nsHash, type Marker } from '../identity.js';
import { lookUpSite, sitePost } from './look-up.js';
import { describeSource } from '../source-key.js';
import { checkTypes, isDefault } from '../post-kinds.js';
import type { PostType } from '../../wordpress/post-types.js';
import { siteFailure } from '../publish-failure.js';
import { planActions, remainingOrphans, type Action, type PlannedAction, type SitePost } from './plan.js';
import { wordpressSlug } from '../slug.js';
import { sameSourceClashes, type PublishJob } from '../sources/publish-job.js';
import type { SyncState, SyncStateStore } from '../sync-state.js';
import type { CommitHistory } from '../../project/git-history.js';
import { staleCheck } from './stale-run.js';
import { wasPruned } from './plan.js';
import { withSyncState } from '../sync-state-plugin.js';
import type { PublishOutcome } from '../publish-outcome.js';
import type { InlineImage } from '../sources/content-tokens.js';
import { planLinks } from './link-plan.js';

export interface PublishPostsOptions {
  credentials: Credentials;
  /** The site profile used, for messages. */
  siteId?: string;
  jobs: PublishJob[];
  /**
   * The namespace of the run's sources (a project's, else the git repository's; '' outside both): only its
   * posts are looked up, updated or reported; another namespace's are never touched.
   */
  namespace?: string;
  /**
   * Posts without a file run inside a project: the project's namespace, which such posts carried before.
   * A source with no post in `namespace` whose key a post of this one carries is that post: it is updated
   * into `namespace` (same id and link), and the project's runs no longer count it as theirs.
   */
  formerNamespace?: string;
  /**
   * Files outside any project in a git work tree: the namespace their posts carried before they had one of
   * their own (project/scope.ts), which projects of the work tree may carry too, and which keys those
   * projects' files name. A source with no post in `namespace` whose key a post there carries, and no
   * project file names, is that post: moved into `namespace` (same id and link).
   */
  sharedNamespace?: { namespace: string; claimed: () => Promise<(key: string) => boolean> };
  /**
   * A project whose namespace files outside it carried before (project/scope.ts): whether a key is such a
   * file's. A post carrying one is never an orphan of the project, nor pruned.
   */
  outsideProject?: () => Promise<(key: string) => boolean>;
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
  /**
   * Says one input error of several found on the site (unknown terms), one a line: the error thrown then
   * lists them as `inputs` and does not repeat them.
   */
  sayInput?: (line: string) => void;
  /** Called as each post is taken up, before anything is sent for it (what is in flight, for progress). */
  onStart?: (index: number) => void;
  /**
   * The jobs are every source of the namespace (the project published as a whole): posts no source claims
   * are orphans (reported, `--prune` trashes them), and a new source may be an orphan moved.
   */
  complete?: boolean;
  /** `--prune`: orphans go to WordPress's trash (never deleted for good). Needs `complete`. */
  prune?: boolean;
  /** `--force`: a field edited on the site and changed in the source too takes the source's value. */
  force?: boolean;
  /** Where the posts' sync state is kept: the marker (default) or the companion plugin's meta. */
  syncState?: SyncStateStore;
  /**
   * The git history of the run's sources (HEAD: the commit each write records); undefined outside git. A
   * run older than a commit its namespace's posts record changes nothing (stale-run.ts).
   */
  history?: CommitHistory;
  /** Says a warning about the run as a whole (not one post's), in a plan and a run alike. */
  warn?: (line: string) => void;
}

export type FlowDeps = ServicePort & SitePort & CancelPort;

/** One source and what the plan says to do with it. */
export interface PlannedPost {
  job: PublishJob;
  /** Undefined for a post with no source (flags alone): always created, never found again. */
  marker?: SyncState;
  action: Action;
  /** Other posts on the site carrying the same source. */
  duplicates: SitePost[];
  /** Posts carrying this source's marker that an account blogctl cannot trust wrote (never the source's). */
  untrusted?: SitePost[];
}

/** What a run does: a plan per source, and the orphans of the namespace (posts whose source is gone). */
export interface Plan {
  posts: PlannedPost[];
  /** Left and reported, or trashed with --prune. Only for a run that holds every source of the namespace. */
  orphans: SitePost[];
  /** The publishing account's user id: only its posts (and those a source names as author) are the project's. */
  account?: number;
  /** The inline images a run would upload (those of the posts it sends that the site lacks): --dry-run's. */
  uploads?: InlineImage[];
}

/** --service-only reaches no site, so a local image could not be uploaded: each is an input error at its line. */
function refuseInlineImages(jobs: PublishJob[]): void {
  const problems = jobs.flatMap((job) =>
    (job.images ?? []).map(
      (image) =>
        `${image.at}: image ${image.ref}: --service-only cannot upload images (the site is not reached)`,
    ),
  );
  if (problems.length === 1)
    throw new UsageError(`${problems[0]!}; nothing was published`, { inputs: problems });
  if (problems.length)
    throw new UsageError(
      `${problems.length} local images cannot be uploaded with --service-only (first: ${problems[0]!}); nothing was published`,
      { inputs: problems, details: problems },
    );
}

/** The site's name in messages: the profile id, else its URL. */
export const siteName = (options: Pick<PublishPostsOptions, 'siteId' | 'credentials'>): string =>
  options.siteId ?? options.credentials.websiteUrl;

/**
 * The plan for every job: read from the site (with the site's credentials), or "create" for all with
 * --service-only. Local dates are checked in the site's time zone here too. Sends nothing.
 */
export async function planPublish(
  options: PublishPostsOptions,
  wordpress: () => Promise<WordPressClient>,
): Promise<Plan> {
  const { jobs } = options;
  const ns = nsHash(options.namespace ?? '');
  if (jobs.some((j) => j.kind)) await checkKinds(options, wordpress);
  const head = options.history?.head;
  // Each write records the run's commit (the plan compares it with what later runs are at).
  const markers = jobs.map((job): SyncState | undefined => {
    const marker = jobMarker(job, ns);
    return marker && head ? { ...marker, commit: head.sha, committed: head.date } : marker;
  });
  checkSameSource(jobs);
  // Posts from flags alone have nothing to be found by: the site is asked only for a local date's zone.
  const untracked = !markers.some(Boolean) && !jobs.some((j) => j.draft.schedule);
  if (options.serviceOnly) refuseInlineImages(jobs);
  if (options.serviceOnly || untracked) {
    planLinks(jobs, markers, [], options);
    const posts = checkSchedules(
      jobs.map((job, i) => ({
        job,
        ...(markers[i] && { marker: markers[i] }),
        action: { kind: 'create' },
        duplicates: [],
      })),
      options,
    );
    return { posts, orphans: [] };
  }
  // The account must see every post (other users' too) before the site is read for a sync.
  const account = markers.some(Boolean) ? await checkAccount(wordpress, siteName(options)) : undefined;
  // Where the posts' state is kept: the companion plugin's meta when the site runs it, else the marker.
  options = await withSyncState(options, wordpress);
  // A project published as a whole looks up every type the site has, not only the run's (orphans of any type).
  if (options.complete) await coverEveryType(wordpress, options);
  const slugs = jobs.flatMap((job, i) => (markers[i] && claimedSlug(job) ? [claimedSlug(job)!] : []));
  const { marked: found, bySlug } = await lookUpSite(wordpress, {
    zoned: jobs.filter((j) => j.draft.schedule).map((j) => j.draft),
    slugs,
    ns,
    site: siteName(options),
    ...(options.syncState && { store: options.syncState }),
  });
  // A post is the project's only if an account that may edit others' posts wrote it: the publishing account,
  // or the author a source names. Anyone can copy a marker (it is in the page's source) into a post of their
  // own; an Author cannot make a post under another account, nor change another's post. A state in the
  // companion plugin's meta proves it by itself: only such an account can write it, whoever the author.
  const named = new Map<string, number>();
  jobs.forEach((job, i) => {
    const author = job.draft.content.author;
    if (markers[i] && typeof author === 'number') named.set(markers[i].key, author);
  });
  const trusted = (p: SitePost): boolean =>
    account === undefined ||
    p.author === undefined ||
    p.author === account ||
    p.guarded === true ||
    (p.marker !== undefined && named.get(p.marker.key) === p.author);
  const marked = found.filter(trusted);
  const untrusted = found.filter((p) => !trusted(p));
  // Links to other sources: their permalinks as the site has them, before the content's sum is compared.
  planLinks(jobs, markers, marked, options);
  const tracked = jobs.flatMap((job, i) =>
    markers[i]
      ? [
          {
            i,
            marker: markers[i],
            // Only a password the source sets is managed: an editor's on a source without one stays.
            ...(job.draft.content.password !== undefined && { password: job.draft.content.password }),
            ...(claimedSlug(job) && { slug: claimedSlug(job) }),
            ...(job.postType && { type: job.postType.slug }),
            stored: wantedValues(job),
          },
        ]
      : [],
  );
  // Where a source's post may carry another namespace: a post without a file run inside a project took the
  // project's before; a source of a project (or git work tree) named by its own key, blog or slug may have
  // been published without a file, in the default one. Such a post is the source's, moved into this one.
  const elsewhere = options.formerNamespace ?? (options.namespace ? '' : undefined);
  if (elsewhere !== undefined) {
    // A key this run just made for a loose file (loose-key.ts) names no post anywhere yet.
    const movable = tracked.filter(
      (t) =>
        !jobs[t.i]!.newKey &&
        (options.formerNamespace !== undefined || !jobs[t.i]!.sourceKey!.startsWith('path:')),
    );
    marked.push(
      ...(await postsElsewhere(wordpress, options, elsewhere, ns, movable, marked)).filter(trusted),
    );
  }
  if (options.sharedNamespace) {
    const { namespace, claimed } = options.sharedNamespace;
    const found = (await postsElsewhere(wordpress, options, namespace, ns, tracked, marked)).filter(trusted);
    const projects = found.length ? await claimed() : undefined;
    marked.push(...found.filter((p) => !projects!(p.marker!.key)));
  }
  const sync = { complete: Boolean(options.complete), force: Boolean(options.force) };
  const planned = planActions(tracked, marked, bySlug, sync);
  checkTypeChanges(tracked, planned, jobs);
  await holdersOfLostPosts(wordpress, options, tracked, planned, jobs, trusted);
  const result: PlannedPost[] = jobs.map((job) => ({ job, action: { kind: 'create' }, duplicates: [] }));
  tracked.forEach((t, n) => {
    const theirs = untrusted.filter((p) => p.marker?.key === t.marker.key);
    result[t.i] = {
      job: jobs[t.i]!,
      marker: t.marker,
      ...planned[n]!,
      ...(theirs.length && { untrusted: theirs }),
    };
  });
  if (jobs.some((j) => j.parent)) findParents(result, marked, options);
  const orphans = sync.complete
    ? await projectOrphans(remainingOrphans(tracked, marked, planned), options)
    : [];
  if (options.history && !options.force) await refuseStale(options, options.history, marked, result, orphans);
  return {
    posts: checkSchedules(result, options),
    orphans,
    ...(account !== undefined && { account }),
  };
}

/** A project's orphans but the posts of files outside it that carry its namespace (outsideProject). */
async function projectOrphans(orphans: SitePost[], options: PublishPostsOptions): Promise<SitePost[]> {
  if (!orphans.length || !options.outsideProject) return orphans;
  const outside = await options.outsideProject();
  return orphans.filter((p) => !outside(p.marker!.key));
}

/**
 * A run older than a commit its namespace's posts record (stale-run.ts) is refused before anything is sent,
 * if it would change anything: a create, an update or move it would send, an orphan it would trash.
 */
async function refuseStale(
  options: PublishPostsOptions,
  history: CommitHistory,
  marked: SitePost[],
  posts: PlannedPost[],
  orphans: SitePost[],
): Promise<void> {
  const { warnings, refusal } = await staleCheck(history, marked);
  for (const line of warnings) options.warn?.(line);
  if (!refusal) return;
  const changes =
    toSend(posts, options).length > 0 ||
    (options.prune === true && orphans.some((o) => !(wasPruned(o) && o.status !== 'trash')));
  if (changes) throw refusal;
}

/**
 * The posts of namespace `elsewhere` carrying a key that no post of this namespace carries, as posts of this
 * one marked `formerNamespace` (the plan moves them into it). Asked only when such a key is left.
 */
async function postsElsewhere(
  wordpress: () => Promise<WordPressClient>,
  options: PublishPostsOptions,
  elsewhere: string,
  ns: string,
  tracked: { marker: Marker }[],
  marked: SitePost[],
): Promise<SitePost[]> {
  const former = nsHash(elsewhere);
  if (former === ns) return [];
  const held = new Set(marked.map((p) => p.marker?.key));
  const left = new Set(tracked.map((t) => t.marker.key).filter((key) => !held.has(key)));
  if (!left.size) return [];
  const { marked: old } = await lookUpSite(wordpress, {
    zoned: [],
    slugs: [],
    ns: former,
    site: siteName(options),
    ...(options.syncState && { store: options.syncState }),
  });
  return old
    .filter((p) => left.has(p.marker!.key))
    .map((p) => ({ ...p, marker: { ...p.marker!, ns }, formerNamespace: elsewhere }));
}

/**
 * A source about to be created whose title gives a slug a post outside the trash holds, and that post carries
 * no state of blogctl's: most likely this source's own post, whose marker an edit in WordPress removed (an
 * editor rewrote the paragraph it rode in). Creating would make a second live copy (`slug-2`) and leave the
 * original untracked for ever, so it is a conflict naming the post. Asked only for the sources to be created
 * (a run with nothing new pays nothing); a draft has no slug yet, so a draft that lost its marker is not seen.
 */
async function holdersOfLostPosts(
  wordpress: () => Promise<WordPressClient>,
  options: PublishPostsOptions,
  tracked: { i: number; slug?: string; marker?: Marker; type?: string }[],
  planned: PlannedAction[],
  jobs: PublishJob[],
  trusted: (p: SitePost) => boolean,
): Promise<void> {
  const wouldGet = new Map<number, string>();
  tracked.forEach((t, n) => {
    if (planned[n]!.action.kind !== 'create' || t.slug !== undefined) return;
    const slug = wordpressSlug(jobs[t.i]!.draft.content.title);
    if (slug) wouldGet.set(n, slug);
  });
  if (!wouldGet.size) return;
  let holders: SitePost[];
  try {
    const { findPostsBySlugs, siteStatuses } = await import('../../wordpress/posts.js');
    const client = await wordpress();
    const label = 'looking up which posts already exist';
    const statuses = await siteStatuses(client, label);
    holders = (await findPostsBySlugs(client, [...wouldGet.values()], label, statuses)).map((p) =>
      sitePost(p, options.syncState),
    );
  } catch (error) {
    throw siteFailure(error, 'looking up which posts already exist', siteName(options));
  }
  for (const [n, slug] of wouldGet) {
    const own = tracked[n]!;
    // Slugs are unique within a type: a page `about` holds no post's slug.
    const holder = holders.find(
      (p) => p.slug === slug && p.status !== 'trash' && (p.type ?? 'post') === (own.type ?? 'post'),
    );
    if (!holder) continue;
    if (!holder.marker)
      planned[n] = { action: { kind: 'conflict', post: holder, lostMarker: true }, duplicates: [] };
    // The source's own post, which the look-up did not return: WordPress's search is not to be trusted.
    else if (
      own.marker &&
      trusted(holder) &&
      holder.marker.ns === own.marker.ns &&
      holder.marker.key === own.marker.key
    )
      planned[n] = { action: { kind: 'conflict', post: holder, unfound: true }, duplicates: [] };
  }
}

/** Every type the site offers, covered by the look-up (post-types.ts coverSiteTypes). */
async function coverEveryType(
  wordpress: () => Promise<WordPressClient>,
  options: PublishPostsOptions,
): Promise<void> {
  const label = "reading the site's post types";
  try {
    const { coverSiteTypes } = await import('../../wordpress/post-types.js');
    await coverSiteTypes(await wordpress(), label);
  } catch (error) {
    // A site that hides its types (a security plugin, a server rule) still publishes what the run names:
    // only the orphans of the types it never named go unseen, and the run says so.
    if (error instanceof AuthError || error instanceof NotFoundError) {
      options.warn?.(
        `${siteName(options)} does not list its post types (${error.message}): orphans are looked for among posts and the types the sources name only`,
      );
      return;
    }
    throw siteFailure(error, label, siteName(options));
  }
}

/**
 * A source whose post on the site is of another type than the source states: refused at the `type` line
 * (exit 2, nothing sent). WordPress's REST API cannot change a post's type (`type` is read-only in its posts
 * controller's schema: wp-includes/rest-api/endpoints/class-wp-rest-posts-controller.php), and making a new post under the same key would leave two posts with one identity.
 */
function checkTypeChanges(
  tracked: { i: number; type?: string }[],
  planned: PlannedAction[],
  jobs: PublishJob[],
): void {
  const problems: string[] = [];
  tracked.forEach((t, n) => {
    const action = planned[n]!.action;
    if (!('post' in action) || action.kind === 'conflict' || action.kind === 'trashed') return;
    const [was, now] = [action.post.type ?? 'post', t.type ?? 'post'];
    if (was === now) return;
    const job = jobs[t.i]!;
    const at = job.kind?.postType?.at ?? `${job.name}: type`;
    problems.push(
      `${at}: its post on the site (${action.post.id}) is a ${was}, and WordPress cannot change a post's type through its REST API: set \`type: ${was}\` back, or give the source a new \`key\` to publish it as a new ${now} (the ${was} is then an orphan: --prune trashes it)`,
    );
  });
  if (problems.length)
    throw new UsageError(`${problems[0]!}; nothing was published`, {
      inputs: problems,
      ...(problems.length > 1 && { details: problems }),
    });
}

/**
 * Pages and custom post types: each source's type as the site offers it (an unknown one is an input error at
 * its line, exit 2), the fields its type cannot take refused at theirs, and the look-ups made to cover every
 * type named. All of a batch's problems are reported together; nothing is sent.
 */
async function checkKinds(
  options: PublishPostsOptions,
  wordpress: () => Promise<WordPressClient>,
): Promise<void> {
  const { jobs } = options;
  if (options.serviceOnly) {
    const typed = jobs.find((j) => j.kind?.postType && j.kind.postType.slug !== 'post');
    if (typed)
      throw new UsageError(
        `${typed.kind!.postType!.at}: --service-only publishes posts only (the service creates no ${typed.kind!.postType!.slug}); nothing was published`,
      );
    return;
  }
  let checked: Awaited<ReturnType<typeof checkTypes>>;
  try {
    checked = await checkTypes(await wordpress(), typeRequests(jobs));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw siteFailure(error, "reading the site's post types", siteName(options));
  }
  const { types, problems } = checked;
  if (problems.length === 1)
    throw new UsageError(`${problems[0]!}; nothing was published`, { inputs: problems });
  if (problems.length) {
    for (const line of problems) options.sayInput?.(line);
    throw new UsageError(
      `${problems.length} problems with post types (${options.sayInput ? 'each named above' : `first: ${problems[0]!}`}); nothing was published`,
      { inputs: problems, ...(!options.sayInput && { details: problems }) },
    );
  }
  jobs.forEach((job, i) => {
    const type = types[i]!;
    if (type.slug !== 'post') job.postType = type;
    dropDefaults(job, type);
    // A parent found by the folders means nothing to a type without parents.
    if (!type.hierarchical) delete job.parent;
  });
}

/** What the site's post types are checked against, per job (post-kinds.ts checkTypes). */
const typeRequests = (jobs: PublishJob[]): Parameters<typeof checkTypes>[1] =>
  jobs.map((job) => ({
    name: job.name,
    ...(job.kind?.postType && { postType: job.kind.postType }),
    ...(job.kind?.parent && { parent: job.kind.parent }),
    ...(job.kind?.terms && { terms: job.kind.terms }),
    ...(job.draft.origin && {
      origin: { ...job.draft.origin, ...(job.kind?.menuOrder && { menu_order: job.kind.menuOrder.at }) },
    }),
    fields: {
      ...job.draft.content,
      ...(job.kind?.menuOrder && { menu_order: job.kind.menuOrder.value }),
    },
    ...(job.draft.categories && { categories: job.draft.categories }),
    ...(job.draft.tags && { tags: job.draft.tags }),
  }));

/**
 * The input errors only the site can tell, as lines (`posts/a.md:3: …`), none thrown: unknown post types and
 * the fields a type cannot take, then unknown categories and tags. For a report of a folder's input errors
 * that holds the files' own too (one report, not one round per kind of error).
 */
export async function siteInputProblems(
  jobs: PublishJob[],
  wordpress: () => Promise<WordPressClient>,
  site: string,
  check: { terms: boolean },
): Promise<string[]> {
  const lines: string[] = [];
  if (jobs.some((j) => j.kind)) {
    try {
      lines.push(...(await checkTypes(await wordpress(), typeRequests(jobs))).problems);
    } catch (error) {
      // The site's types could not be read: the run that follows the fix says so; the terms still count.
      if (error instanceof UsageError) lines.push(error.message);
    }
  }
  if (!check.terms) return lines;
  const { termsOf } = await import('../apply/publish-terms.js');
  const { problems } = await termsOf(jobs, wordpress, false, site);
  return [...lines, ...problems.map(([at, message]) => `${at}: ${message}`)];
}

/**
 * Each parent's post id where the site has it: a source of the run whose post exists, or a post of the
 * namespace carrying the parent's key. A parent the run creates is waited for (publish-flow.ts); one that is
 * neither is an input error at the line naming it (nothing is sent).
 */
function findParents(posts: PlannedPost[], marked: SitePost[], options: PublishPostsOptions): void {
  const inRun = new Map<string, PlannedPost>();
  for (const p of posts) if (p.job.sourceKey !== undefined) inRun.set(p.job.sourceKey, p);
  const onSite = new Map<string, number>();
  for (const p of [...marked].sort((a, b) => a.id - b.id))
    if (p.marker && p.status !== 'trash' && !onSite.has(p.marker.key)) onSite.set(p.marker.key, p.id);
  const problems: string[] = [];
  for (const { job } of posts) {
    const link = job.parent;
    if (!link || 'id' in link) continue;
    const at = job.kind?.parent?.at ?? job.name;
    const mate = inRun.get(link.source);
    if (mate) {
      const { action } = mate;
      if (action.kind === 'update' || action.kind === 'unchanged' || action.kind === 'move')
        job.parentId = action.post.id;
      else if (action.kind !== 'create')
        problems.push(`${at}: its parent ${mate.job.name} cannot be published (${action.kind})`);
      continue;
    }
    const id = onSite.get(keyHash(link.source));
    if (id === undefined)
      problems.push(
        `${at}: its parent (${describeSource(link.source)}) is not on the site: publish it first, or with this source`,
      );
    else job.parentId = id;
  }
  if (problems.length === 1)
    throw new UsageError(`${problems[0]!}; nothing was published`, { inputs: problems });
  if (problems.length) {
    for (const line of problems) options.sayInput?.(line);
    throw new UsageError(
      `${problems.length} parents cannot be found (first: ${problems[0]!}); nothing was published`,
      {
        inputs: problems,
      },
    );
  }
}

/** The project defaults a type cannot take (categories on pages, a post format): left out, not refused. */
function dropDefaults(job: PublishJob, type: PostType): void {
  const { draft } = job;
  const has = (taxonomy: string): boolean => type.taxonomies.some((t) => t.slug === taxonomy);
  if (!has('category') && isDefault(draft.origin, 'categories')) delete draft.categories;
  if (!has('post_tag') && isDefault(draft.origin, 'tags')) delete draft.tags;
  if (type.slug !== 'post')
    for (const field of ['sticky', 'format'] as const)
      if (isDefault(draft.origin, field)) delete draft.content[field];
}

/** The account's user id, once it is known to see every post (else exit 4). */
async function checkAccount(
  wordpress: () => Promise<WordPressClient>,
  site: string,
): Promise<number | undefined> {
  const { syncAccount } = await import('../../wordpress/verify.js');
  let answer: { refused: AuthError | undefined; id: number | undefined };
  try {
    answer = await syncAccount(await wordpress());
  } catch (error) {
    throw siteFailure(error, 'looking up which posts already exist', site);
  }
  if (answer.refused) throw answer.refused;
  return answer.id;
}

/** A source's values as WordPress would store them, for the fields known before terms and images are. */
export function wantedValues(job: PublishJob): StoredValues {
  const c = job.draft.content;
  return {
    title: c.title,
    content: c.content,
    ...(c.excerpt !== undefined && { excerpt: c.excerpt }),
    ...(c.slug !== undefined && { slug: c.slug }),
    status: c.status,
    ...(job.draft.seo && { seo: job.draft.seo }),
  };
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
 * change of the post), the featured image by its bytes, the SEO fields one by one.
 */
export function jobMarker(job: PublishJob, ns: string): Marker | undefined {
  if (job.sourceKey === undefined) return undefined;
  const sums: Record<string, string> = {};
  for (const [field, value] of Object.entries(job.draft.content)) {
    // Not the post's password: the marker is in the page's source, and a short hash of a password can be
    // guessed back. The plan compares it with the site's own value instead (planActions).
    if (value === undefined || field === 'password') continue;
    // A status nobody stated is not the source's: the post keeps whatever status it has on the site.
    if (field === 'status' && !job.draft.statusStated) continue;
    sums[field] = fieldSum(value);
  }
  if (job.contentSum !== undefined) sums['content'] = job.contentSum;
  if (job.draft.categories) sums['categories'] = fieldSum(job.draft.categories);
  if (job.draft.tags) sums['tags'] = fieldSum(job.draft.tags);
  if (job.featuredImage) sums['image'] = job.featuredImage.sum;
  // The parent by its source (or id), as categories are by name: a parent re-published under a new id is
  // no change of the child.
  if (job.parent) sums['parent'] = fieldSum('id' in job.parent ? `id:${job.parent.id}` : job.parent.source);
  if (job.kind?.menuOrder) sums['menu_order'] = fieldSum(job.kind.menuOrder.value);
  // A custom taxonomy's terms as given (names stay names), like categories and tags.
  if (job.kind?.terms) sums['terms'] = fieldSum(job.kind.terms.value);
  // Each SEO field on its own (`seo_title`): the plan names which of them changed.
  for (const [field, value] of Object.entries(job.draft.seo ?? {}))
    if (value !== undefined) sums[`seo_${field}`] = fieldSum(value);
  return { ns, key: keyHash(job.sourceKey), sums };
}

/** Two sources that are one post, or a slug asked for twice: refused before anything is sent. */
function checkSameSource(jobs: PublishJob[]): void {
  const clashes = sameSourceClashes(jobs);
  if (clashes.length) {
    throw new UsageError(
      `${clashes[0]!}: give each its own front matter "key" or "slug"; nothing was published`,
      { details: clashes },
    );
  }
}

/** The planned posts a run sends: every create, and the updates and moves unless --no-update. */
export function toSend(plan: PlannedPost[], options: Pick<PublishPostsOptions, 'update'>): PlannedPost[] {
  return plan.filter(
    (p) =>
      p.action.kind === 'create' ||
      ((p.action.kind === 'update' || p.action.kind === 'move') && options.update),
  );
}
