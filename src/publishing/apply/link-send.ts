// The sending side of links between sources (sources/source-links.ts, sync/link-plan.ts). A source linking to
// one whose permalink this run makes or changes waits for it: targets are sent first, and the linking post
// goes with the permalink WordPress answered. Sources that link to each other while both are new (a.md ↔
// b.md) cannot both wait: the one sent first goes with the other's link as written (a relative path), and once
// the other is published it is updated with the permalink (a second request, said in a note). A run that
// fails between the two leaves that link as written; the next run sees the content differ and sets it.
import { RejectedError, type BlogctlError } from '../../errors.js';
import { getPost } from '../../wordpress/posts.js';
import { fieldSum } from '../identity.js';
import { guarded, siteFailure } from '../publish-failure.js';
import { prefix, type PublishOutcome } from '../publish-outcome.js';
import type { CancelPort } from '../ports.js';
import type { SourceKey } from '../source-key.js';
import type { PublishJob } from '../sources/publish-job.js';
import type { JobLink } from '../sources/source-links.js';
import { withLinkTargets } from '../sources/content-tokens.js';
import { sitePost } from '../sync/look-up.js';
import type { PlannedPost } from '../sync/publish-plan.js';
import type { PostContext } from './publish-send.js';
import { updateOne } from './publish-update.js';

/** What a run sends a target's post with, once it is done: its permalink, or why there is none. */
interface TargetLink {
  href?: string;
  why?: string;
}

export class LinkSend {
  private readonly done = new Map<
    PublishJob,
    { outcome: Promise<PublishOutcome>; settle: (o: PublishOutcome) => void }
  >();
  private readonly planned = new Map<PublishJob, PlannedPost>();
  /** Per linking source, the targets it does not wait for (a circle of new sources): updated after. */
  private readonly deferred = new Map<PublishJob, Set<PublishJob>>();

  constructor(private readonly plan: PlannedPost[]) {
    for (const p of plan) {
      this.planned.set(p.job, p);
      for (const target of p.job.links?.waits ?? [])
        if (!this.done.has(target)) {
          let settle!: (o: PublishOutcome) => void;
          const outcome = new Promise<PublishOutcome>((resolve) => (settle = resolve));
          this.done.set(target, { outcome, settle });
        }
    }
  }

  /**
   * The order the run sends its sources in: `base` (parents before children) with every target before the
   * sources waiting for it. Where they wait for each other, the first of them (in `base` order) goes first
   * and does not wait (it is updated once the others are sent).
   */
  order(base: number[]): number[] {
    if (!this.done.size) return base;
    const index = new Map(this.plan.map((p, i) => [p.job, i]));
    const byKey = new Map<SourceKey, number>();
    this.plan.forEach((p, i) => p.job.sourceKey !== undefined && byKey.set(p.job.sourceKey, i));
    const parentOf = (i: number): number | undefined => {
      const link = this.plan[i]!.job.parent;
      return link && 'source' in link ? byKey.get(link.source) : undefined;
    };
    const placed = new Set<number>();
    const waits = (i: number): number[] =>
      (this.plan[i]!.job.links?.waits ?? []).map((t) => index.get(t)!).filter((t) => !placed.has(t));
    const ready = (i: number, withLinks: boolean): boolean => {
      const parent = parentOf(i);
      return (parent === undefined || placed.has(parent)) && (!withLinks || !waits(i).length);
    };
    const remaining = [...base];
    const order: number[] = [];
    while (remaining.length) {
      let pick = remaining.findIndex((i) => ready(i, true));
      if (pick < 0) {
        // A circle: the first whose parent is sent goes now; the targets it would wait for are updated after.
        pick = Math.max(
          0,
          remaining.findIndex((i) => ready(i, false)),
        );
        const i = remaining[pick]!;
        const job = this.plan[i]!.job;
        this.deferred.set(job, new Set(waits(i).map((t) => this.plan[t]!.job)));
      }
      const [i] = remaining.splice(pick, 1);
      order.push(i!);
      placed.add(i!);
    }
    return order;
  }

  /** Whether a source waits for targets this run sends before it. */
  waits(job: PublishJob): boolean {
    const deferred = this.deferred.get(job);
    return (job.links?.waits ?? []).some((t) => !deferred?.has(t));
  }

  /** A source is done (sent, left, or failed): the sources waiting for it may go. */
  settle(job: PublishJob, outcome: PublishOutcome): void {
    this.done.get(job)?.settle(outcome);
  }

  /**
   * Right before a linking source is sent: its targets' permalinks as the run left them, in its content and
   * its marker's sum. Returns why it cannot be sent (a target not published), else undefined.
   */
  async before(planned: PlannedPost): Promise<BlogctlError | undefined> {
    const { job, action } = planned;
    const links = job.links;
    // A post left alone (unchanged, in the trash, a conflict) is reported as it is, its targets whatever.
    if (!links?.waits?.length || !['create', 'update', 'move'].includes(action.kind)) return undefined;
    const deferred = this.deferred.get(job);
    const targets = new Map<PublishJob, TargetLink>();
    for (const target of links.waits) {
      if (deferred?.has(target)) continue;
      targets.set(target, this.linkAfter(target, await this.done.get(target)!.outcome));
    }
    for (const link of links.links) {
      const got = 'job' in link.to ? targets.get(link.to.job) : undefined;
      if (got && got.href === undefined)
        return new RejectedError(`its link to ${link.href} (${link.at}): that source ${got.why}: not sent`);
    }
    this.write(planned, (link) => ('job' in link.to ? targets.get(link.to.job)?.href : undefined));
    return undefined;
  }

  /**
   * After every source is sent: those that went before targets they link to (a circle) are updated with the
   * permalinks the run made, their outcomes saying so; one that cannot be fails (the next run sets it).
   */
  async followUps(outcomes: PublishOutcome[], ctx: PostContext, deps: CancelPort): Promise<void> {
    for (const [job, deferred] of this.deferred) {
      const i = this.plan.findIndex((p) => p.job === job);
      const done = outcomes[i];
      if (!done || !['created', 'updated', 'moved'].includes(done.state) || done.error) continue;
      const id = Number(done.post?.id);
      if (!Number.isSafeInteger(id)) continue;
      const planned = this.planned.get(job)!;
      const by = prefix(job, ctx.several);
      const waits = job.links!.waits ?? [];
      const targets = new Map(waits.map((t) => [t, this.linkAfter(t, undefined, outcomes)]));
      const missing = job.links!.links.find(
        (l) => 'job' in l.to && targets.get(l.to.job)?.href === undefined,
      );
      if (missing) {
        done.error = new RejectedError(
          `its link to ${missing.href} (${missing.at}) is sent as written: that source ${targets.get((missing.to as { job: PublishJob }).job)!.why}; the next run sets it`,
        );
        continue;
      }
      const before = job.draft.content.content;
      this.write(planned, (link) => ('job' in link.to ? targets.get(link.to.job)?.href : undefined));
      if (job.draft.content.content === before) continue;
      const again = await guarded(job, deps, async () => {
        let fresh;
        try {
          fresh = await getPost(await ctx.wordpress(), id, {
            context: 'edit',
            ...(done.post?.type && { type: done.post.type }),
          });
        } catch (error) {
          throw siteFailure(error, `reading post ${id} again to set its links`, ctx.site);
        }
        const post = sitePost(fresh, ctx.options.syncState);
        return updateOne(planned, { kind: 'update', post, fields: ['content'] }, ctx);
      });
      if (again.error) {
        done.error = new RejectedError(
          `its links to sources published after it could not be set (${again.error.message}); the next run sets them`,
        );
        continue;
      }
      if (again.post) done.post = again.post;
      done.warnings.push(...again.warnings);
      done.notes.push(
        ...again.notes,
        `${by}its links to ${[...deferred].map((t) => t.name).join(', ')} set once ${deferred.size === 1 ? 'that source was' : 'those sources were'} published (a second request: they link to each other)`,
      );
    }
  }

  /** The content with the permalinks known, and the marker's content sum taken from it. */
  private write(planned: PlannedPost, sent: (link: JobLink) => string | undefined): void {
    const { job } = planned;
    const links = job.links!;
    const known = links.known ?? {};
    const content = withLinkTargets(links.template, links.links, (link) => known[link.id] ?? sent(link));
    job.draft.content.content = content;
    if (planned.marker)
      planned.marker = { ...planned.marker, sums: { ...planned.marker.sums, content: fieldSum(content) } };
  }

  /** A target's permalink once it is done: as WordPress answered, else its post's as the look-up found it. */
  private linkAfter(
    target: PublishJob,
    outcome: PublishOutcome | undefined,
    all?: PublishOutcome[],
  ): TargetLink {
    const done = outcome ?? all?.[this.plan.findIndex((p) => p.job === target)];
    if (done?.state === 'trashed') return { why: "has its post in WordPress's trash" };
    if (done && done.state !== 'failed' && done.post?.link) return { href: done.post.link };
    const action = this.planned.get(target)?.action;
    const own =
      action &&
      (action.kind === 'update' ||
        action.kind === 'unchanged' ||
        action.kind === 'move' ||
        (action.kind === 'conflict' && action.fields))
        ? action.post
        : undefined;
    if (own?.link) return { href: own.link };
    return { why: 'was not published' };
  }
}
