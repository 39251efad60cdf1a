// Where the sync keeps what it knows about each post it wrote (its namespace, key, and the sums of the
// fields): the seam between the sync (plan, drift, orphans) and the site. Two stores answer it: the marker
// (an HTML comment inside the post's content, identity.ts: works on any WordPress) and the companion
// plugin's protected post meta (sync-state-plugin.ts: exact look-up, state no editor or Author can reach).
// The plan sees only a post's SyncState (SitePost.marker); it never cares which store read it.
import type { BlogctlError } from '../errors.js';
import type { WordPressClient } from '../wordpress/client.js';
import { searchPosts, siteStatuses, type WpPostDetail } from '../wordpress/posts.js';
import { markerSearch, readMarker, replaceMarker, type Marker } from './identity.js';
import { lostMarker } from './apply/stored-check.js';

/** What blogctl records about its write on a post. */
export interface SyncState extends Marker {
  /** The git commit (40 hex) of the run's sources at the write, when they are in git (sync/stale-run.ts). */
  commit?: string;
  /**
   * The commit's committer date, in seconds: orders a later run's commit against this one where history
   * cannot (the commit is not in that run's clone: a shallow clone).
   */
  committed?: number;
  /**
   * When blogctl wrote the post, in seconds on the site's clock (WordPressClient.serverNow, taken right
   * before the write): a post WordPress saved later than this (its `modified_gmt`, by more than
   * sync/plan.ts WRITTEN_MARGIN_S) was saved on the site after blogctl's last write, whatever changed (a
   * restored revision brings back an older write's marker, whose sums match the content it restores).
   */
  written?: number;
}

export interface SyncStateStore {
  readonly kind: 'marker' | 'plugin';
  /**
   * Every post of namespace `ns` (its hash) the store can find, in every status (trash included), each as
   * WordPress's edit context shows it (the look-up's fields).
   */
  lookUp(client: WordPressClient, ns: string, label: string): Promise<WpPostDetail[]>;
  /** The state a post carries as WordPress answered (undefined: none, or none blogctl can trust). */
  stateOf(post: WpPostDetail): SyncState | undefined;
  /**
   * The request fields that record `state` with a write whose content is `content` (the body sent, or the
   * stored raw content when the body is kept as the site has it).
   */
  fieldsFor(content: string, state: SyncState): { content: string; meta?: Record<string, unknown> };
  /** The post as WordPress stored a write lost the state sent: exit 6 naming the likely cause. */
  lost(post: WpPostDetail, state: SyncState): BlogctlError | undefined;
  /**
   * Whether the post's state is where only an account that may edit others' posts can have written it (the
   * plugin's protected meta): such a post is the project's whoever its author is (two CI accounts, a byline
   * an editor changed). Never for a marker, which anyone who can write the content can copy.
   */
  guarded?(post: WpPostDetail): boolean;
}

/** The marker in the content: every WordPress, no plugin; found through WordPress's search. */
export const markerStore: SyncStateStore = {
  kind: 'marker',
  // Every status the site registers (custom ones too), else a post an editor moved to one is not found.
  lookUp: async (client, ns, label) =>
    searchPosts(client, markerSearch(ns), label, await siteStatuses(client, label)),
  stateOf: (post) => stateOfMarker(readMarker(post.content?.raw ?? '')),
  fieldsFor: (content, state) => ({ content: replaceMarker(content, markerOfState(state)) }),
  lost: (post, state) => lostMarker(post, state),
};

// The commit rides in the marker as two more entries of its `sums=` list (`commit.<40 hex>`,
// `committed.<seconds in hex>`), not as a new part of the comment: a blogctl that does not know them still
// reads the marker (its pattern takes any hex after a name), so the post is never taken for one it did not
// make. They are never sums: read out of the list here, put back when the marker is written.
const COMMIT = 'commit';
const COMMITTED = 'committed';
// The time of the write rides the same way: `written.<seconds in hex>`.
const WRITTEN = 'written';

/** A marker's state: the commit entries out of its sums. */
function stateOfMarker(marker: Marker | undefined): SyncState | undefined {
  if (!marker) return undefined;
  const { [COMMIT]: commit, [COMMITTED]: committed, [WRITTEN]: written, ...sums } = marker.sums;
  const state: SyncState = { ns: marker.ns, key: marker.key, sums };
  if (commit !== undefined && /^[0-9a-f]{40}$/.test(commit)) state.commit = commit;
  if (committed !== undefined && /^[0-9a-f]{1,12}$/.test(committed))
    state.committed = parseInt(committed, 16);
  if (written !== undefined && /^[0-9a-f]{1,12}$/.test(written)) state.written = parseInt(written, 16);
  return state;
}

/** The marker that records a state: its commit among the entries of `sums=`. */
function markerOfState(state: SyncState): Marker {
  const sums = { ...state.sums };
  if (state.commit !== undefined) sums[COMMIT] = state.commit;
  if (state.committed !== undefined) sums[COMMITTED] = Math.trunc(state.committed).toString(16);
  if (state.written !== undefined) sums[WRITTEN] = Math.trunc(state.written).toString(16);
  return { ns: state.ns, key: state.key, sums };
}

/**
 * `state` stamped with the time of a write about to be sent, on the site's clock (undefined when no answer of
 * the site told its time yet: the state then records none, and the post is checked as before the stamp).
 */
export function stampWritten<S extends SyncState>(state: S, client: WordPressClient): S {
  const now = client.serverNow();
  const { written: _before, ...rest } = state;
  return (now ? { ...rest, written: Math.floor(now.getTime() / 1000) } : rest) as S;
}
