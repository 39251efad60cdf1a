// The one publish pipeline, for `wp publish` (one post, a batch of files, a folder) and `blog create
// --publish`. Publishing is a sync with the WordPress site, which alone knows what was published:
//
//   look up the site (look-up.ts: every post carrying blogctl's marker, and the posts holding the slugs asked for; one
//   request for the whole batch, more only past 100 posts) → a plan per source (plan.ts): create, update
//   the fields that changed, or leave it → terms by name for what will be sent (all before any post is
//   sent) → per post, a few at a time: featured image upload when the image is new or changed → create
//   through the service's publish endpoint, or update in place on WordPress → the status read back when the
//   service's answer lacks it.
//
// Nothing is kept on this machine. A create that may have reached the service without a readable answer is
// never sent again in the same run (the service may still be relaying it); the next run, from any machine,
// finds the post on the site by its marker, or sends it again with the same Idempotency-Key (identity.ts).
//
// The seams: publish-plan.ts (the plan and the input it refuses), publish-terms.ts (terms by name),
// publish-apply.ts (one post: left alone, or sent by publish-create.ts or publish-update.ts),
// publish-failure.ts (what a failure means for the post and the run).
import { parentsFirst } from './post-kinds.js';
import { describeSource, type SourceKey } from './source-key.js';
import { AuthError, BlogctlError, InterruptedError, RejectedError, UnavailableError } from '../errors.js';
import type { WordPressClient } from '../wordpress/client.js';
import { uploadMedia } from '../wordpress/media.js';
import { lookUpSite } from './sync/look-up.js';
import { applyOne } from './apply/publish-apply.js';
import { foundWarnings } from './sync/plan-messages.js';
import type { PostContext } from './apply/publish-send.js';
import { applyOrphans } from './apply/orphans.js';
import { settleRaces } from './apply/races.js';
import { siteFailure } from './publish-failure.js';
import type { PublishJob } from './sources/publish-job.js';
import { failed, prefix, type PublishOutcome } from './publish-outcome.js';
import {
  planPublish,
  siteName,
  toSend,
  type FlowDeps,
  type PlannedPost,
  type PublishPostsOptions,
} from './sync/publish-plan.js';
import type { SyncStateStore } from './sync-state.js';
import { resolveAllTerms, type ResolvedTerms } from './apply/publish-terms.js';
import { withSyncState } from './sync-state-plugin.js';
import { LinkSend } from './apply/link-send.js';

export async function publishPosts(given: PublishPostsOptions, deps: FlowDeps): Promise<PublishOutcome[]> {
  const { jobs, credentials } = given;
  const site = siteName(given);
  let client: Promise<WordPressClient> | undefined;
  const wordpress =
    given.wordpress ?? ((): Promise<WordPressClient> => (client ??= deps.wordpress(credentials)));
  // Where the posts' state is kept: the companion plugin's meta when the site runs it, else the marker.
  const options = await withSyncState(given, wordpress);
  const { posts: plan, orphans, account } = await planPublish(options, wordpress);
  const several = jobs.length > 1 || orphans.length > 0;

  const sent = toSend(plan, options);
  const terms = options.serviceOnly
    ? new Map<PublishJob, ResolvedTerms>()
    : await resolveAllTerms(sent, wordpress, options, site);
  const api = sent.some((p) => p.action.kind === 'create')
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
  // Parents before their children: a child created in this run waits for its parent's id. Targets of links
  // between sources before the sources linking to them (apply/link-send.ts).
  const links = new LinkSend(plan);
  const order = links.order(
    parentsFirst(
      plan.map((p) => p.job.parent),
      plan.map((p) => p.job.sourceKey),
    ),
  );
  const posted = new Map<SourceKey, { id: Promise<number | undefined>; settle: (id?: number) => void }>();
  for (const p of plan) {
    if (p.job.sourceKey === undefined) continue;
    let settle!: (id?: number) => void;
    const id = new Promise<number | undefined>((resolve) => (settle = resolve));
    posted.set(p.job.sourceKey, { id, settle });
  }
  const parentId = async (job: PublishJob): Promise<number> => {
    if (job.parentId !== undefined) return job.parentId;
    const link = job.parent!;
    if ('id' in link) return link.id;
    const id = await posted.get(link.source)?.id;
    if (id === undefined)
      throw new RejectedError(`its parent (${describeSource(link.source)}) was not published: not sent`);
    return id;
  };
  // Inline images of the posts sent: looked up together, each uploaded once (apply/inline-uploads.ts).
  const inline = sent.some((p) => p.job.images?.length)
    ? await import('./apply/inline-uploads.js').then((m) =>
        m.imageUploads(wordpress, m.distinctImages(sent.map((p) => p.job)), account, site),
      )
    : undefined;
  const context: PostContext = {
    options,
    site,
    several,
    wordpress,
    upload,
    api,
    terms,
    parentId,
    ...(inline && { images: inline }),
  };

  const outcomes: PublishOutcome[] = new Array(jobs.length);
  let next = 0;
  let stop: BlogctlError | undefined;
  /** The look-up cannot find what this run creates: no more creates (each would be a duplicate next run). */
  let unfindable: RejectedError | undefined;
  // The first in sending order: a child page waits for its parent, so its parent goes before it.
  const first = options.serviceOnly
    ? -1
    : (order.find((i) => plan[i]!.action.kind === 'create' && plan[i]!.marker) ?? -1);
  const take = async (i: number): Promise<void> => {
    options.onStart?.(i);
    const planned = plan[i]!;
    let result: PublishOutcome;
    if (stop && ['create', 'update', 'move'].includes(planned.action.kind)) {
      // Every post after these would be refused, or wait through the same retries for the same answer.
      const reason = `not attempted: ${stop.message}`;
      result = failed(
        planned.job,
        stop instanceof AuthError ? new AuthError(reason) : new UnavailableError(reason),
      );
    } else if (unfindable && planned.action.kind === 'create') {
      result = failed(planned.job, new RejectedError(`not created: ${unfindable.message}`));
    } else {
      const blocked = await links.before(planned);
      result = blocked ? failed(planned.job, blocked) : await applyOne(planned, context, deps);
      // A loose file's key, once its post exists: the key its marker carries (loose-key.ts).
      if (planned.job.newKey)
        await (await import('./sources/loose-key.js')).writeNewKey(planned.job.newKey, result, several);
      if (result.error instanceof AuthError) stop ??= result.error;
      if (result.error && context.unreachable) stop ??= context.unreachable;
      if (i === first && result.state === 'created' && !result.error) {
        unfindable = await checkFindable(result, planned, wordpress, site, options.syncState);
        if (unfindable) result.error = unfindable;
      }
    }
    for (const image of inline?.uploadedFor(planned.job.images) ?? [])
      result.notes.push(
        `${prefix(planned.job, several)}uploaded ${image.ref} (${image.at}) to the media library`,
      );
    // The plan's warnings about the post (said by --dry-run too: plannedMessages).
    result.warnings.push(...foundWarnings(planned, several));
    outcomes[i] = result;
    links.settle(planned.job, result);
    const key = planned.job.sourceKey;
    const id = Number(result.post?.id);
    if (key !== undefined)
      posted.get(key)?.settle(result.state !== 'failed' && Number.isSafeInteger(id) ? id : undefined);
    options.onOutcome?.(result, i);
  };
  const taken = new Set<number>();
  const takeOnce = async (i: number): Promise<void> => {
    if (taken.has(i)) return;
    taken.add(i);
    await take(i);
  };
  // The run's first create goes alone: the look-up must find it before any other is made. One linking to
  // posts the run updates waits for them: those (all before it in the order, none a create) go first.
  if (first >= 0) {
    if (links.waits(plan[first]!.job))
      for (const i of order.slice(0, order.indexOf(first))) await takeOnce(i);
    await takeOnce(first);
  }
  const worker = async (): Promise<void> => {
    while (next < plan.length) await takeOnce(order[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, plan.length)) }, worker));
  await links.followUps(outcomes, context, deps);
  // --service-only never asks the site: a race cannot be seen from here.
  if (!options.serviceOnly)
    await settleRaces(plan, outcomes, wordpress, site, deps, options.syncState, account);
  return [...outcomes, ...(await applyOrphans(orphans, options, wordpress, site, stop, options.syncState))];
}

/**
 * The run's first created post, looked up again the way every later run will find it: not found, the
 * look-up cannot see what blogctl makes (a search plugin replacing WordPress's search: Relevanssi, SearchWP,
 * ElasticPress), so each later run would publish every file again. Exit 6 before anything else is created.
 * A failed look-up here is not that: it is left to the check after the run (races.ts).
 */
async function checkFindable(
  made: PublishOutcome,
  planned: PlannedPost,
  wordpress: () => Promise<WordPressClient>,
  site: string,
  store: SyncStateStore | undefined,
): Promise<RejectedError | undefined> {
  const id = Number(made.post?.id);
  if (!Number.isSafeInteger(id) || !planned.marker) return undefined;
  let found: boolean;
  try {
    const { marked } = await lookUpSite(wordpress, {
      zoned: [],
      slugs: [],
      ns: planned.marker.ns,
      site,
      ...(store && { store }),
    });
    found = marked.some((p) => p.id === id);
  } catch (error) {
    if (error instanceof BlogctlError && !(error instanceof InterruptedError)) return undefined;
    throw error;
  }
  if (found) return undefined;
  return new RejectedError(
    `post ${id}, just created, is not found by blogctl's look-up (WordPress's search for its marker does not return it): a search plugin (Relevanssi, SearchWP, ElasticPress…) likely replaces WordPress's search, and every later run would publish every file again; nothing else was created`,
    {
      hints: [
        "install blogctl's companion WordPress plugin (docs/sync-safety.md): it lists a project's posts exactly, without WordPress's search",
        `post ${id} stays: the next run with the plugin finds it`,
      ],
    },
  );
}
