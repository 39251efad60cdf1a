// The look-up: what the site holds for a publish run, read in one go before anything is sent — every post
// carrying blogctl's marker, the posts holding the slugs the sources ask for, and the site's time zone when
// a source gives a date without an offset. One request for the whole batch, more only past 100 posts.
import { InterruptedError, UsageError } from '../../errors.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { findPostsBySlugs, type WpPostDetail } from '../../wordpress/posts.js';
import { seoOfMeta, SITE_SUM_PREFIX, type StoredValues } from './drift.js';
import type { SitePost } from './plan.js';
import { checkOnSite, type PostDraft } from '../sources/publish-draft.js';
import { siteFailure } from '../publish-failure.js';
import { markerStore, type SyncStateStore } from '../sync-state.js';
import { siteZoneOf } from '../sources/schedule.js';

export interface LookUpRequest {
  /** The drafts whose date is checked in the site's time zone (a local date is the site's local time). */
  zoned: PostDraft[];
  /** The slugs the sources ask for explicitly. */
  slugs: string[];
  /** The namespace's hash: only its posts are asked for. */
  ns: string;
  /** The site's name in messages. */
  site: string;
  /** Where the posts' state is kept (default: the marker). */
  store?: SyncStateStore;
}

export interface SiteHolds {
  /** Every post carrying a marker of the run's namespace (and no other's). */
  marked: SitePost[];
  /** The posts holding the slugs asked for. */
  bySlug: SitePost[];
}

/** Reads what the site holds; a failure says what it was for and that nothing was published. */
export async function lookUpSite(
  wordpress: () => Promise<WordPressClient>,
  request: LookUpRequest,
): Promise<SiteHolds> {
  const lookingUp = 'looking up which posts already exist';
  const store = request.store ?? markerStore;
  let marked: WpPostDetail[];
  let bySlug: WpPostDetail[] = [];
  try {
    const client = await wordpress();
    if (request.zoned.length) {
      const zone = siteZoneOf(await client.index());
      const now = new Date();
      for (const draft of request.zoned) checkOnSite(draft, zone, now);
    }
    [marked, bySlug] = await Promise.all([
      store.lookUp(client, request.ns, lookingUp),
      request.slugs.length ? findPostsBySlugs(client, request.slugs, lookingUp) : Promise.resolve([]),
    ]);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw siteFailure(error, lookingUp, request.site);
  }
  const posts = marked.map((p) => sitePost(p, store)).filter((p) => p.marker?.ns === request.ns);
  try {
    await readPluginSeo(await wordpress(), posts);
  } catch (error) {
    throw siteFailure(error, lookingUp, request.site);
  }
  return {
    // WordPress's search matches text anywhere in a post (a title quoting a marker, say): only a post whose
    // own marker names this namespace is one of its posts.
    marked: posts,
    bySlug: bySlug.map((p) => sitePost(p, store)),
  };
}

/** A post as the plan sees it: its marker read from the stored content. */
export function sitePost(p: WpPostDetail, store: SyncStateStore = markerStore): SitePost {
  const marker = store.stateOf(p);
  return {
    id: p.id,
    status: p.status,
    slug: p.slug ?? '',
    ...(p.link !== undefined && { link: p.link }),
    ...(p.type !== undefined && { type: p.type }),
    ...(p.password !== undefined && { password: p.password }),
    ...(marker && { marker }),
    ...(marker && store.guarded?.(p) && { guarded: true }),
    ...(p.author !== undefined && { author: p.author }),
    ...(typeof p.modified_gmt === 'string' && { modified: p.modified_gmt }),
    ...(p.content?.raw !== undefined && { raw: p.content.raw }),
    stored: storedValues(p),
  };
}

/** The values drift is tracked for, as WordPress stores them (drift.ts). */
export function storedValues(p: WpPostDetail): StoredValues {
  return {
    ...(p.title?.raw !== undefined && { title: p.title.raw }),
    ...(p.content?.raw !== undefined && { content: p.content.raw }),
    ...(p.excerpt?.raw !== undefined && { excerpt: p.excerpt.raw }),
    ...(p.slug !== undefined && { slug: p.slug }),
    status: p.status,
    ...(p.categories && { categories: p.categories }),
    ...(p.tags && { tags: p.tags }),
    ...(p.featured_media !== undefined && { featured_media: p.featured_media }),
    ...(typeof p.parent === 'number' && { parent: p.parent }),
    ...(typeof p.menu_order === 'number' && { menu_order: p.menu_order }),
    ...(seoOfMeta(p.meta) && { seo: seoOfMeta(p.meta) }),
  };
}

/** AIOSEO's fields are read a few posts at a time (one request each: its route takes one post). */
const SEO_READS_AT_ONCE = 4;

/**
 * The SEO fields of the posts whose marker tracks one (a `wp_seo_` sum), where the site's SEO plugin keeps them
 * outside the post's meta: AIOSEO, read through its own route (GET aioseo/v1/post?postId=). Yoast's and Rank
 * Math's registered keys came with the post (storedValues). A post whose fields cannot be read keeps none:
 * never called edited.
 */
async function readPluginSeo(client: WordPressClient, posts: SitePost[]): Promise<void> {
  const tracking = posts.filter(
    (p) => p.marker && Object.keys(p.marker.sums).some((k) => k.startsWith(`${SITE_SUM_PREFIX}seo_`)),
  );
  if (!tracking.length) return;
  const { detectSeoPlugin, readSeo } = await import('../../wordpress/seo.js');
  if (detectSeoPlugin(await client.index()) !== 'aioseo') return;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tracking.length) {
      const post = tracking[next++]!;
      const seo = await readSeo(client, 'aioseo', post.id).catch((error: unknown) => {
        if (error instanceof InterruptedError) throw error;
        return undefined;
      });
      if (seo && post.stored) post.stored.seo = seo;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEO_READS_AT_ONCE, tracking.length) }, worker));
}
