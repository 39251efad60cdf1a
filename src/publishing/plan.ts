// The plan: for each source, what a publish does on the site — create it, update the fields that changed,
// or leave it — worked out from what the site holds (the posts carrying blogctl's marker, and the posts with
// the slugs the sources ask for). Pure: no network, no clock.
import type { Marker } from './identity.js';

/** A post as the look-up found it on the site. */
export interface SitePost {
  id: number;
  status: string;
  slug: string;
  link?: string;
  type?: string;
  /** The post's password as stored (`context=edit`); compared directly, never hashed into the marker. */
  password?: string;
  /** Undefined for a post blogctl did not make (or whose marker an editor removed). */
  marker?: Marker;
  /** The content as stored (`context=edit`): an update of other fields keeps it, only its marker replaced. */
  raw?: string;
}

/** One source as it would be sent. */
export interface Wanted {
  /** The marker it would carry: its key and the sums of every field it sends. */
  marker: Marker;
  /** An explicit slug (front matter, --slug): a post of someone else's with that slug is a conflict. */
  slug?: string;
  /**
   * The post password the source sets ('' to remove one), compared with the site's own value; undefined when
   * the source sets none, and the post's password is left as an editor made it.
   */
  password?: string;
}

export type Action =
  | { kind: 'create' }
  | { kind: 'update'; post: SitePost; fields: string[] }
  | { kind: 'unchanged'; post: SitePost }
  | { kind: 'trashed'; post: SitePost }
  /**
   * The slug asked for belongs to another post (one blogctl did not make, or another source's): it is never
   * overwritten nor taken as this source's post.
   */
  | { kind: 'conflict'; post: SitePost };

export interface PlannedAction {
  action: Action;
  /** Other posts carrying the same key (made by an older run that raced, or copied by hand). */
  duplicates: SitePost[];
}

/** The fields whose sums differ, added or removed, in a stable order. */
export function changedFields(site: Marker, wanted: Marker): string[] {
  const names = new Set([...Object.keys(site.sums), ...Object.keys(wanted.sums)]);
  // A source that states no status leaves the post's status as it is: never compared, never sent.
  if (wanted.sums['status'] === undefined) names.delete('status');
  return [...names].filter((name) => site.sums[name] !== wanted.sums[name]).sort(fieldOrder);
}

const ORDER = ['title', 'content', 'excerpt', 'status', 'date', 'slug', 'categories', 'tags', 'image'];
function fieldOrder(a: string, b: string): number {
  const [ia, ib] = [ORDER.indexOf(a), ORDER.indexOf(b)];
  if (ia !== ib) return (ia < 0 ? ORDER.length : ia) - (ib < 0 ? ORDER.length : ib);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What to do with each source. A source's post is the one carrying its key; outside the trash first, then
 * the oldest (lowest id). In the trash only: left there (someone deleted it on purpose; blogctl never brings
 * it back, nor makes a second one). Not found: created, unless its explicit slug is held by a post blogctl
 * did not make (WordPress would quietly give the new post `slug-2`; more likely that post is this source
 * published by hand or by an older tool, and a second copy is what nobody wants).
 */
export function planActions(wanted: Wanted[], marked: SitePost[], bySlug: SitePost[]): PlannedAction[] {
  const byKey = new Map<string, SitePost[]>();
  for (const post of marked) {
    if (!post.marker) continue;
    const list = byKey.get(post.marker.key) ?? [];
    list.push(post);
    byKey.set(post.marker.key, list);
  }
  return wanted.map((w) => {
    const found = [...(byKey.get(w.marker.key) ?? [])].sort(
      (a, b) => Number(a.status === 'trash') - Number(b.status === 'trash') || a.id - b.id,
    );
    const [post, ...duplicates] = found;
    if (post?.status === 'trash') return { action: { kind: 'trashed', post }, duplicates };
    if (post) {
      const fields = changedFields(post.marker!, w.marker);
      if (w.password !== undefined && post.password !== undefined && w.password !== post.password)
        fields.push('password');
      return {
        action: fields.length ? { kind: 'update', post, fields } : { kind: 'unchanged', post },
        duplicates,
      };
    }
    // Another source's post holding the slug is a conflict too: WordPress would give this one `slug-2`.
    const taken =
      w.slug === undefined
        ? undefined
        : bySlug.find(
            (p) =>
              p.slug === w.slug &&
              p.status !== 'trash' &&
              !(p.marker?.key === w.marker.key && p.marker.ns === w.marker.ns),
          );
    if (taken) return { action: { kind: 'conflict', post: taken }, duplicates: [] };
    return { action: { kind: 'create' }, duplicates: [] };
  });
}
