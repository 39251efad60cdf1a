// Stale runs change nothing. Each write records the git commit of the run's sources (SyncState.commit, with
// its committer date), so a later run can tell whether it is older than what the site holds: a CI job of an
// older commit re-run would otherwise put back old content and, with --prune, trash the posts newer commits
// made. A run whose commit is an ancestor of a commit recorded on any of its namespace's posts is stale: it
// sends nothing and trashes nothing (exit 6, naming both commits), unless --force. The whole run stops, not
// only the posts that newer commit wrote: a post a newer run left unchanged may still be older content than
// that run's, and only the namespace as a whole says how far the site has moved on.
//
// Where history cannot tell — the recorded commit is not in this clone (a shallow clone: CI fetches one
// commit by default), or gone (rewritten history) — the run says so and orders the two by their committer
// dates, recorded with the commit for that purpose. A commit on another branch (neither an ancestor nor a
// descendant) is not older: branches publishing to one namespace is the user's choice, as before. Sources
// outside git record no commit, and are never checked.
import { RejectedError } from '../../errors.js';
import type { CommitHistory } from '../../project/git-history.js';
import type { SitePost } from './plan.js';

/** The short form of a commit in messages (as git shows it). */
const shortSha = (sha: string): string => sha.slice(0, 7);

/** A recorded commit newer than the run's, and how that is known. */
interface Newer {
  sha: string;
  posts: SitePost[];
  /** Ordered by committer dates: the commit is not in this clone. */
  byDate: boolean;
}

export interface StaleCheck {
  /** Said whatever the outcome: history that cannot tell. */
  warnings: string[];
  /** The refusal: a recorded commit is newer than the run's; undefined when the run may go on. */
  refusal?: RejectedError;
}

/**
 * Whether a run at `history.head` is older than what the site's posts of its namespace record. `posts` are
 * the namespace's posts blogctl trusts (every status, the trash too).
 */
export async function staleCheck(history: CommitHistory, posts: SitePost[]): Promise<StaleCheck> {
  const head = history.head;
  const recorded = new Map<string, { posts: SitePost[]; date?: number }>();
  for (const post of posts) {
    const commit = post.marker?.commit;
    if (!commit || commit === head.sha) continue;
    const entry = recorded.get(commit) ?? { posts: [] };
    entry.posts.push(post);
    const date = post.marker?.committed;
    if (date !== undefined) entry.date = Math.max(entry.date ?? date, date);
    recorded.set(commit, entry);
  }
  if (!recorded.size) return { warnings: [] };
  const shas = [...recorded.keys()];
  const held = await history.known(shas);
  const newer: Newer[] = [];
  // Newest first by date, so the refusal names the newest commit the site records.
  const byDateDesc = (a: string, b: string): number =>
    (recorded.get(b)!.date ?? 0) - (recorded.get(a)!.date ?? 0);
  for (const sha of (await history.notBehind(shas.filter((s) => held.has(s)))).sort(byDateDesc))
    if (await history.headIsAncestorOf(sha)) {
      newer.push({ sha, posts: recorded.get(sha)!.posts, byDate: false });
      break;
    }
  const warnings: string[] = [];
  const unknown = shas.filter((s) => !held.has(s)).sort(byDateDesc);
  if (unknown.length) {
    const shallow = await history.shallow();
    const first = unknown[0]!;
    const post = recorded.get(first)!.posts[0]!;
    const undated = unknown.filter((s) => recorded.get(s)!.date === undefined);
    warnings.push(
      `commit ${shortSha(first)}${unknown.length > 1 ? ` (and ${unknown.length - 1} more)` : ''}, recorded on post ${post.id} by an earlier run, is not in this ${shallow ? 'shallow clone' : 'repository'}: history cannot tell whether this run (commit ${shortSha(head.sha)}) is older, so commit dates decide${undated.length ? ` (${undated.length} recorded without a date: not compared)` : ''}; ${shallow ? 'fetch the whole history (GitHub Actions: fetch-depth: 0; GitLab CI: GIT_DEPTH: 0; docs/ci.md)' : 'was history rewritten?'}`,
    );
    for (const sha of unknown) {
      const { date, posts: theirs } = recorded.get(sha)!;
      if (date !== undefined && date > head.date) {
        newer.push({ sha, posts: theirs, byDate: true });
        break;
      }
    }
  }
  if (!newer.length) return { warnings };
  const { sha, posts: theirs, byDate } = newer[0]!;
  const named = theirs
    .slice(0, 3)
    .map((p) => p.id)
    .join(', ');
  const more = theirs.length > 3 ? ` and ${theirs.length - 3} more` : '';
  return {
    warnings,
    refusal: new RejectedError(
      `this run is at commit ${shortSha(head.sha)}, older than commit ${shortSha(sha)}${byDate ? ' (by commit date: history cannot tell)' : ''}, which wrote post${theirs.length === 1 ? '' : 's'} ${named}${more} on the site: a run of an older commit (a CI job re-run) would put back older sources, so nothing was sent or trashed; publish from the newest commit, or with --force to publish commit ${shortSha(head.sha)}'s sources anyway`,
      {
        hints: [
          `--force publishes this commit's sources over what commit ${shortSha(sha)} wrote (and, with --prune, trashes its posts this commit has no source for)`,
        ],
      },
    ),
  };
}
