// The plan's side of links between sources (sources/source-links.ts): each linking source's content with its
// targets' permalinks as the site has them, and its sum taken from that content, so a run with nothing new
// sends nothing and a target whose permalink changed changes the posts linking to it.
//
// A target whose permalink this run may change — a source to be created, or one whose slug, status, date or
// parent changes (WordPress's `link` follows them) — is known only once it is sent: the source linking to it
// waits for it (publish-flow.ts sends targets first), and is planned as changed (its content's sum unknown
// here, taken from what is sent).
import { UsageError } from '../../errors.js';
import { fieldSum, keyHash, type Marker } from '../identity.js';
import { describeSource } from '../source-key.js';
import type { PublishJob } from '../sources/publish-job.js';
import type { JobLink } from '../sources/source-links.js';
import { withLinkTargets } from '../sources/content-tokens.js';
import { changedFields, wasPruned, type SitePost } from './plan.js';

/** The fields whose change may give a post another permalink. */
const LINK_FIELDS = new Set(['slug', 'status', 'date', 'date_gmt', 'parent']);

/** The content sum of a source whose targets' permalinks are known only once they are sent: never written. */
const UNKNOWN_SUM = 'unknown';

/**
 * Each linking job's content made from the site's permalinks, its marker's content sum with it, and the
 * targets it must wait for (`job.links.waits`). A target outside the run (a source of the project) must have
 * a post on the site: else an input error at the link's line (exit 2, nothing sent), as is any link with
 * --service-only (no site to read permalinks from).
 */
export function planLinks(
  jobs: PublishJob[],
  markers: (Marker | undefined)[],
  marked: SitePost[],
  options: { serviceOnly: boolean; sayInput?: (line: string) => void },
): void {
  if (!jobs.some((j) => j.links?.links.length)) return;
  const problems: string[] = [];
  if (options.serviceOnly) {
    for (const job of jobs)
      for (const link of job.links?.links ?? [])
        problems.push(
          `${link.at}: the link to ${link.href} becomes its post's permalink, which --service-only cannot read from the site`,
        );
    refuse(problems, options);
    return;
  }
  // A key's post as the plan takes it (planActions): outside the trash first, then the oldest.
  const postOfKey = new Map<string, SitePost>();
  for (const post of [...marked].sort(
    (a, b) => Number(a.status === 'trash') - Number(b.status === 'trash') || a.id - b.id,
  ))
    if (post.marker && !postOfKey.has(post.marker.key)) postOfKey.set(post.marker.key, post);
  const index = new Map(jobs.map((job, i) => [job, i]));
  /** A source of the run's permalink when this run leaves it as it is; undefined: known once it is sent. */
  const steady = (target: PublishJob): string | undefined => {
    const marker = markers[index.get(target)!];
    const post = marker && postOfKey.get(marker.key);
    if (!marker || !post?.marker || post.link === undefined || post.status === 'trash' || wasPruned(post))
      return undefined;
    if (changedFields(post.marker, marker).some((f) => LINK_FIELDS.has(f))) return undefined;
    return post.link;
  };
  jobs.forEach((job, i) => {
    // Links not tied to their targets (a job not read by readSources) stay as written.
    if (!job.links?.links.length) return;
    const waits = new Set<PublishJob>();
    const known: Record<string, string> = {};
    const hrefOf = (link: JobLink): string | undefined => {
      const href = linkOf(link);
      if (href !== undefined) known[link.id] = href;
      return href;
    };
    const linkOf = (link: JobLink): string | undefined => {
      if ('job' in link.to) {
        const href = steady(link.to.job);
        if (href === undefined) waits.add(link.to.job);
        return href;
      }
      const post = postOfKey.get(keyHash(link.to.source));
      if (!post || post.status === 'trash' || post.link === undefined) {
        problems.push(
          `${link.at}: the link to ${link.href}: its post (${describeSource(link.to.source)}) is ${post ? "in WordPress's trash" : 'not on the site'}: publish it first, or with this source`,
        );
        return undefined;
      }
      return post.link;
    };
    const content = withLinkTargets(job.links.template, job.links.links, hrefOf);
    job.draft.content.content = content;
    job.links.known = known;
    if (waits.size) job.links.waits = [...waits];
    else delete job.links.waits;
    const marker = markers[i];
    if (marker)
      markers[i] = {
        ...marker,
        sums: { ...marker.sums, content: waits.size ? UNKNOWN_SUM : fieldSum(content) },
      };
  });
  refuse(problems, options);
}

function refuse(problems: string[], options: { sayInput?: (line: string) => void }): void {
  if (problems.length === 1)
    throw new UsageError(`${problems[0]!}; nothing was published`, { inputs: problems });
  if (problems.length) {
    for (const line of problems) options.sayInput?.(line);
    throw new UsageError(
      `${problems.length} links to other sources cannot be made (${options.sayInput ? 'each named above' : `first: ${problems[0]!}`}); nothing was published`,
      { inputs: problems, ...(!options.sayInput && { details: problems }) },
    );
  }
}
