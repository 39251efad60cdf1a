// blogctl's state kept by the companion WordPress plugin (docs/wordpress-plugin.md) instead of in the post's
// content: the protected post meta `_blogctl_state`, which only accounts with edit_others_posts can read or
// write, written in the same request as the post; the look-up lists a namespace's posts through the plugin's
// own route, exactly, in every status, without WordPress search.
//
// What holds with the plugin (docs/wordpress-plugin.md states it for users):
//  - A post's state is its meta. A marker in its content is not read when the post has state meta: a marker
//    an editor restored with a revision, a plugin stripped, or an Author copied changes nothing.
//  - A post without state meta is read as before the plugin came: its marker (the marker store's checks
//    apply), so installing the plugin on a site blogctl already publishes to makes no duplicates; unless its
//    author lacks edit_others_posts (the plugin says so): an Author's copy of a marker names no project.
//  - blogctl still writes the marker into the content too (when it has a marker store): a site that loses
//    the plugin keeps being found through the marker; a site that keeps it never needs the marker.
//  - A post whose state meta the plugin did not see blogctl write on that very post (a copy made by a
//    duplicating plugin) is nobody's: not the project's post, and not read through its copied marker.
import * as z from 'zod/mini';
import { RejectedError } from '../errors.js';
import type { WordPressClient } from '../wordpress/client.js';
import {
  listNamespacePosts,
  STATE_META,
  syncStateSupport,
  type PluginPost,
} from '../wordpress/blogctl-plugin.js';
import type { WpPostDetail } from '../wordpress/posts.js';
import { siteFailure } from './publish-failure.js';
import type { PublishPostsOptions } from './sync/publish-plan.js';
import { markerStore, type SyncState, type SyncStateStore } from './sync-state.js';

const MAX_STATE_BYTES = 8192;

const stateJson = z.looseObject({
  v: z.number(),
  ns: z.string().check(z.regex(/^[0-9A-Za-z_-]{1,64}$/)),
  key: z.string().check(z.regex(/^[0-9A-Za-z_-]{1,64}$/)),
  sums: z.optional(z.record(z.string(), z.string())),
  commit: z.optional(z.string()),
  committed: z.optional(z.number()),
  at: z.optional(z.string()),
});

/**
 * The meta's JSON text for a state, with the format's version and the time of the write. Every member of the
 * state is kept (the plugin keeps what it does not check), so a member the marker gains travels here too.
 */
export function formatState(state: SyncState, at: Date): string {
  const text = JSON.stringify({ v: 1, ...state, at: at.toISOString() });
  if (Buffer.byteLength(text) > MAX_STATE_BYTES)
    throw new RejectedError(
      `blogctl's state for a post is ${Buffer.byteLength(text)} bytes, more than the ${MAX_STATE_BYTES} the WordPress plugin keeps`,
    );
  return text;
}

/** The state in a meta value; undefined for anything that is not a state blogctl writes. */
export function parseState(text: unknown): SyncState | undefined {
  if (typeof text !== 'string' || text === '' || text.length > MAX_STATE_BYTES) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = stateJson.safeParse(json);
  if (!parsed.success || parsed.data.v !== 1) return undefined;
  const { v: _version, at: _at, sums, ...rest } = parsed.data;
  return { ...rest, sums: sums ?? {} };
}

/** The `_blogctl_state` value of a post as WordPress answered (meta is `[]` when no key is registered). */
function stateMetaOf(post: WpPostDetail): unknown {
  const meta = post.meta;
  return meta && !Array.isArray(meta) ? meta[STATE_META] : undefined;
}

/**
 * A post's state in meta: the state; `null` when it has state meta that is not its own (a copy: the record
 * names another post), which no marker in its content can override; undefined when it has none.
 */
export function metaState(post: WpPostDetail | PluginPost): SyncState | null | undefined {
  const state = parseState(stateMetaOf(post));
  if (!state) return undefined;
  const record = 'blogctl' in post ? (post as PluginPost).blogctl : undefined;
  // The listing carries the plugin's record: a state the plugin never saw written on this post is a copy's.
  if (record !== undefined && record.written?.post !== post.id) return null;
  return state;
}

/** The store used when the site runs the companion plugin. */
export class PluginStore implements SyncStateStore {
  readonly kind = 'plugin';

  /**
   * @param markers the marker store: posts from before the plugin are read through it, and the marker is
   *   still written into the content (for a site that later loses the plugin). Without it, only meta.
   */
  constructor(
    private readonly markers?: SyncStateStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  lookUp(client: WordPressClient, ns: string, label: string): Promise<WpPostDetail[]> {
    return listNamespacePosts(client, ns, label);
  }

  stateOf(post: WpPostDetail): SyncState | undefined {
    const state = metaState(post);
    if (state !== undefined) return state ?? undefined;
    // A marker only counts in a post whose author may write the state: an Author's copy names no project.
    if ('blogctl' in post && (post as PluginPost).blogctl?.author_can_sync === false) return undefined;
    return this.markers?.stateOf(post);
  }

  /** A state in meta, the post's own (not a copy's): the plugin lets only edit_others_posts write it. */
  guarded(post: WpPostDetail): boolean {
    return Boolean(metaState(post));
  }

  fieldsFor(content: string, state: SyncState): { content: string; meta?: Record<string, unknown> } {
    const base = this.markers ? this.markers.fieldsFor(content, state) : { content };
    return { ...base, meta: { ...base.meta, [STATE_META]: formatState(state, this.now()) } };
  }

  /** The state must be stored in meta; the marker in the content may be gone (a plugin strips comments). */
  lost(stored: WpPostDetail, state: SyncState): RejectedError | undefined {
    return lostState(stored, state);
  }
}

/**
 * The answer to a write carries no state meta, or another source's: exit 6. Undefined when the answer shows
 * no meta at all (WordPress answered without it: nothing can be told).
 */
export function lostState(
  stored: WpPostDetail,
  state: Pick<SyncState, 'ns' | 'key'>,
): RejectedError | undefined {
  if (stored.meta === undefined) return undefined;
  const kept = parseState(stateMetaOf(stored));
  if (kept?.key === state.key && kept.ns === state.ns) return undefined;
  return new RejectedError(
    `WordPress stored post ${stored.id} without blogctl's state (the protected meta ${STATE_META} of the blogctl-sync plugin): the account may lack edit_others_posts, or a plugin removed the key from the REST API; without it the next run may not find this post`,
    {
      hints: [
        'publish with an Editor or Administrator account (`blogctl wp sites verify <site>` shows "can sync" and "sync state")',
      ],
    },
  );
}

/**
 * The store for a site: the plugin's when the site runs it (and it speaks this blogctl's state format), else
 * `markers`. One look at the REST index (cached per client) and, when the plugin is listed, its info route.
 */
export async function storeFor(
  client: WordPressClient,
  markers: SyncStateStore = markerStore,
): Promise<SyncStateStore> {
  const support = await syncStateSupport(client);
  return support.kind === 'plugin' ? new PluginStore(markers) : markers;
}

const detected = new WeakMap<WordPressClient, Promise<SyncStateStore>>();

/**
 * The run's options with the store the site calls for (`syncState`), found once per client: unchanged when
 * they name one already, or when the run does not read the site (--service-only, posts from flags alone).
 */
export async function withSyncState(
  options: PublishPostsOptions,
  wordpress: () => Promise<WordPressClient>,
): Promise<PublishPostsOptions> {
  if (options.syncState || options.serviceOnly || options.jobs.every((j) => j.sourceKey === undefined))
    return options;
  try {
    const client = await wordpress();
    let store = detected.get(client);
    if (!store) {
      store = storeFor(client);
      detected.set(client, store);
      store.catch(() => detected.delete(client));
    }
    return { ...options, syncState: await store };
  } catch (error) {
    throw siteFailure(
      error,
      'looking up which posts already exist',
      options.siteId ?? options.credentials.websiteUrl,
    );
  }
}
