// blogctl's companion WordPress plugin (wordpress-plugin/blogctl-sync, docs/wordpress-plugin.md): found by its
// namespace in the REST index, its version read from `blogctl/v1/info`, a namespace's posts listed exactly
// through `blogctl/v1/posts`. The state itself travels as the protected post meta `_blogctl_state` on
// wp/v2's own routes (written with the post, in the same request).
import * as z from 'zod/mini';
import type { RestIndex, WordPressClient } from './client.js';
import { wpPostDetail } from './posts.js';

/** The plugin's REST namespace: present in the REST index when the plugin is active. */
const SYNC_PLUGIN_NAMESPACE = 'blogctl/v1';
/** The post meta key holding blogctl's state (JSON text), readable and writable by edit_others_posts only. */
export const STATE_META = '_blogctl_state';
/** The state format this blogctl writes and reads; a plugin announcing a newer one is not used. */
const STATE_VERSION = 1;
/** The plugin's page size bound (`per_page` ≤ 100) and the pages blogctl reads at most. */
const PER_PAGE = 100;
const MAX_PAGES = 1000;

/** Whether the site's REST index lists the plugin's namespace. */
export function offersSyncPlugin(index: RestIndex | undefined): boolean {
  return Array.isArray(index?.namespaces) && index.namespaces.includes(SYNC_PLUGIN_NAMESPACE);
}

const info = z.looseObject({
  plugin: z.string(),
  version: z.string(),
  state_version: z.number(),
  meta_key: z.optional(z.string()),
  post_types: z.optional(z.array(z.string())),
  statuses: z.optional(z.array(z.string())),
  can_sync: z.optional(z.boolean()),
});
type SyncPluginInfo = z.infer<typeof info>;

/**
 * What the site offers for blogctl's state: `plugin` (with its info) when the plugin is active and speaks this
 * blogctl's state format, else `marker` (the state rides in the post's content). The plugin's namespace with
 * an info route this account may not read (it needs edit_posts: a Subscriber, say) is `plugin` without info.
 */
export type SyncStateSupport =
  | { kind: 'plugin'; info?: SyncPluginInfo }
  | { kind: 'marker'; reason: 'absent' | 'newer' | 'unreadable'; info?: SyncPluginInfo };

/** Reads the REST index (cached per client) and, when the plugin is there, its info route. */
export async function syncStateSupport(client: WordPressClient): Promise<SyncStateSupport> {
  if (!offersSyncPlugin(await client.index())) return { kind: 'marker', reason: 'absent' };
  const res = await client.route(`${SYNC_PLUGIN_NAMESPACE}/info`, {
    method: 'GET',
    passStatuses: [401, 403, 404],
    label: 'read the blogctl plugin version',
  });
  if (res.status !== 200) return { kind: 'plugin' };
  const parsed = info.safeParse(res.body);
  if (!parsed.success) return { kind: 'marker', reason: 'unreadable' };
  if (parsed.data.state_version > STATE_VERSION)
    return { kind: 'marker', reason: 'newer', info: parsed.data };
  return { kind: 'plugin', info: parsed.data };
}

/** What the plugin records next to the state: saves of the post, and what blogctl's last write left. */
const record = z.looseObject({
  saves: z.nullable(z.number()),
  written: z.nullable(
    z.looseObject({
      post: z.number(),
      modified_gmt: z.nullable(z.string()),
      saves: z.number(),
    }),
  ),
  /** Whether the post's author has edit_others_posts: a marker in an Author's post names no project. */
  author_can_sync: z.optional(z.boolean()),
});

/** A post as `blogctl/v1/posts` lists it: wp/v2's context=edit shape, plus the plugin's record. */
const pluginPost = z.extend(wpPostDetail, { blogctl: z.optional(record) });
export type PluginPost = z.infer<typeof pluginPost>;

const pluginPosts = z.array(pluginPost);

/**
 * Every post of a namespace (its hash), in every status the site stores, the trash and custom statuses
 * included: those whose state names it, and those whose content carries a marker naming it (published
 * before the plugin came). `ids` leaves out the title, content, excerpt and password. 100 a page in id order;
 * the pages after the first are asked for together, at most 1,000 pages.
 */
export async function listNamespacePosts(
  client: WordPressClient,
  ns: string,
  label: string,
  fields: 'all' | 'ids' = 'all',
): Promise<PluginPost[]> {
  const page = (n: number) =>
    client.route(`${SYNC_PLUGIN_NAMESPACE}/posts`, {
      method: 'GET',
      params: { ns, page: n, per_page: PER_PAGE, fields },
      schema: pluginPosts,
      label,
    });
  const first = await page(1);
  const pages = Number(first.headers['x-wp-totalpages'] ?? 1);
  const rest = await Promise.all(
    Array.from(
      { length: Number.isSafeInteger(pages) && pages > 1 ? Math.min(pages, MAX_PAGES) - 1 : 0 },
      (_, i) => page(i + 2),
    ),
  );
  return [first, ...rest].flatMap((res) => res.body);
}

/**
 * Whether the post was saved after blogctl's last write (an editor's edit, a restored revision, a quick
 * edit, the trash, a scheduled post going live), as the plugin counted. Undefined when the plugin recorded
 * no write of blogctl's on this post.
 */
export function savedSinceWrite(post: PluginPost): boolean | undefined {
  const r = post.blogctl;
  if (!r?.written || r.saves === null) return undefined;
  return r.saves !== r.written.saves;
}
