// The plan: for each source, what a publish does on the site — create it, update the fields that changed,
// move an orphan to it, or leave it — worked out from what the site holds (the posts carrying blogctl's
// marker, and the posts with the slugs the sources ask for). A field edited on the site (drift.ts) is kept
// as the editor left it; one the source changed too is a conflict, overwritten only with --force. Pure: no
// network, no clock.
import {
  editedFields,
  sourceSums,
  storedSum,
  type DriftField,
  type EditedField,
  type StoredValues,
} from './drift.js';
import { SAVED } from './saved.js';
import type { Marker } from '../identity.js';
import type { SyncState } from '../sync-state.js';
import { PRUNED, wasPruned } from './pruned.js';

export { PRUNED, PRUNED_SUM, wasPruned } from './pruned.js';

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
  marker?: SyncState;
  /** The post's author (a user id), when the look-up read it. */
  author?: number;
  /**
   * Its state is where only an account that may edit others' posts can write it (the companion plugin's
   * meta): the project's whoever its author is.
   */
  guarded?: boolean;
  /** When the post was last saved (`modified_gmt`), as the look-up read it. */
  modified?: string;
  /** The content as stored (`context=edit`): an update of other fields keeps it, only its marker replaced. */
  raw?: string;
  /** The values drift is tracked for, as stored (drift.ts); undefined when the look-up did not read them. */
  stored?: StoredValues;
  /**
   * Found under the namespace a post without a file took before (a project's): the source's post, moved
   * into the run's namespace (publish-plan.ts).
   */
  formerNamespace?: string;
}

/** One source as it would be sent. */
export interface Wanted {
  /** The marker it would carry: its key and the sums of every field it sends. */
  marker: Marker;
  /**
   * An explicit slug (front matter, --slug): a post of someone else's of the same type with that slug is a
   * conflict (WordPress keeps slugs unique within a type: a page and a post may both be `about`).
   */
  slug?: string;
  /** Its post type's slug; undefined: `post`. */
  type?: string;
  /**
   * The post password the source sets ('' to remove one), compared with the site's own value; undefined when
   * the source sets none, and the post's password is left as an editor made it.
   */
  password?: string;
  /** Its values as they would be stored (no terms or image: those are resolved on the site later). */
  stored?: StoredValues;
}

export interface PlanOptions {
  /**
   * The run holds every source of the namespace: a post of it that no source claims is an orphan, and a
   * new source whose content is exactly one orphan's is that post moved.
   */
  complete?: boolean;
  /** `--force`: a field changed both in the source and on the site takes the source's value. */
  force?: boolean;
}

export type Action =
  | { kind: 'create' }
  /**
   * `edited`: fields an editor changed on the site, kept as they are. `restore`: a post `--prune` trashed
   * whose source came back (or that an editor restored): its status is sent again, its slug given back.
   */
  | { kind: 'update'; post: SitePost; fields: string[]; edited?: EditedField[]; restore?: boolean }
  | { kind: 'unchanged'; post: SitePost; edited?: EditedField[] }
  /** An orphan of the namespace whose content is this new source's: it takes the source's identity. */
  | { kind: 'move'; post: SitePost; fields: string[]; edited?: EditedField[] }
  | { kind: 'trashed'; post: SitePost }
  /**
   * Without `fields`: the slug asked for belongs to another post (one blogctl did not make, or another
   * source's): it is never overwritten nor taken as this source's post. With `fields`: those fields were
   * edited on the site and changed in the source too; nothing is overwritten without --force.
   */
  | { kind: 'conflict'; post: SitePost; fields?: EditedField[]; lostMarker?: boolean; unfound?: boolean };

export interface PlannedAction {
  action: Action;
  /** Other posts carrying the same key (made by an older run that raced, or copied by hand). */
  duplicates: SitePost[];
}

/** The fields whose source sums differ, added or removed, in a stable order. */
export function changedFields(site: Marker, wanted: Marker): string[] {
  const [a, b] = [sourceSums(site), sourceSums(wanted)];
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  names.delete(PRUNED);
  // A source that states no status leaves the post's status as it is: never compared, never sent.
  if (b['status'] === undefined) names.delete('status');
  return [...names].filter((name) => a[name] !== b[name]).sort(fieldOrder);
}

/**
 * How much later than the time its state records for blogctl's last write (SyncState.written) WordPress may
 * say a post was last saved (`modified_gmt`) before the post counts as saved on the site since. The stamp is
 * the site's clock read from the `Date` header of the answer before the write (whole seconds: up to 1 s
 * early), and WordPress sets `modified_gmt` while it handles the write, so the gap is at most one request's
 * time (blogctl gives a request 60 s, retries included) plus the rounding of both clocks to seconds, and a
 * `Date` header written by a proxy in front of the site whose clock is a few seconds off. The run's second
 * write (settling the sums of what WordPress stored) and the SEO plugin's own write stamp the state again,
 * so a slow run adds nothing. A save on the site within this margin of blogctl's write is not caught by it
 * (only by the sums of the fields it changed); a restored revision brings back an older write's stamp, so
 * it is caught once that older write is more than the margin before the restore.
 */
export const WRITTEN_MARGIN_S = 120;

/**
 * The post was saved on the site after blogctl's last write to it: WordPress's `modified_gmt` is later than
 * the write its state records, by more than the margin. False when the state records no time (a marker
 * written before the stamp) or the look-up did not read `modified_gmt`.
 */
export function savedAfterWrite(post: SitePost): boolean {
  const written = post.marker?.written;
  if (written === undefined || post.modified === undefined) return false;
  // `modified_gmt` has no zone: it is UTC.
  const modified = Date.parse(`${post.modified.replace(/Z$/, '')}Z`);
  return Number.isFinite(modified) && modified / 1000 - written > WRITTEN_MARGIN_S;
}

/**
 * What a source does to its post: the fields it changed are sent; those an editor changed on the site are
 * kept and reported, unless the source changed them too (a conflict; --force sends the source's). A field
 * whose new value in the source is what the site holds is no conflict: the source caught up with the edit.
 */
function syncAction(
  post: SitePost,
  w: Wanted,
  options: PlanOptions,
  kind: 'update' | 'move' = 'update',
): Action {
  const fields = changedFields(post.marker!, w.marker);
  if (w.password !== undefined && post.password !== undefined && w.password !== post.password)
    fields.push('password');
  const edited = post.stored ? editedFields(post.marker!, post.stored) : [];
  const caughtUp = (f: DriftField): boolean =>
    w.stored !== undefined &&
    post.stored !== undefined &&
    storedSum(f, w.stored) !== undefined &&
    storedSum(f, w.stored) === storedSum(f, post.stored);
  const both = edited.filter((f) => fields.includes(f) && !caughtUp(f));
  if (both.length && !options.force) return { kind: 'conflict', post, fields: both };
  // Saved on the site since blogctl's last write with no field's sum telling what (a restored revision:
  // the content and marker of an older write): the whole post is the editor's; any change is a conflict.
  if (!edited.length && post.formerNamespace === undefined && !wasPruned(post) && savedAfterWrite(post)) {
    if (fields.length && !options.force) return { kind: 'conflict', post, fields: [SAVED] };
    if (!fields.length)
      return kind === 'move' ? { kind, post, fields } : { kind: 'unchanged', post, edited: [SAVED] };
  }
  const kept: EditedField[] = edited.filter((f) => !fields.includes(f));
  const extra = kept.length ? { edited: kept } : {};
  if (kind === 'move') return { kind, post, fields, ...extra };
  return fields.length ? { kind, post, fields, ...extra } : { kind: 'unchanged', post, ...extra };
}

const ORDER = [
  'title',
  'content',
  'excerpt',
  'status',
  'date',
  'slug',
  'parent',
  'menu_order',
  'categories',
  'tags',
  'image',
];
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
export function planActions(
  wanted: Wanted[],
  marked: SitePost[],
  bySlug: SitePost[],
  options: PlanOptions = {},
): PlannedAction[] {
  const byKey = new Map<string, SitePost[]>();
  for (const post of marked) {
    if (!post.marker) continue;
    const list = byKey.get(post.marker.key) ?? [];
    list.push(post);
    byKey.set(post.marker.key, list);
  }
  const planned = wanted.map((w): PlannedAction => {
    const found = [...(byKey.get(w.marker.key) ?? [])].sort(
      (a, b) => Number(a.status === 'trash') - Number(b.status === 'trash') || a.id - b.id,
    );
    const [post, ...duplicates] = found;
    // Trashed by --prune (its marker says so), its source back: the same post restored, same id and link.
    if (post && wasPruned(post)) return { action: restoreAction(post, w, options), duplicates };
    if (post?.status === 'trash') return { action: { kind: 'trashed', post }, duplicates };
    // A post found under the former namespace is moved into this one, even with no field changed.
    if (post)
      return {
        action: syncAction(post, w, options, post.formerNamespace !== undefined ? 'move' : 'update'),
        duplicates,
      };
    // Another source's post holding the slug is a conflict too: WordPress would give this one `slug-2`.
    const taken =
      w.slug === undefined
        ? undefined
        : bySlug.find(
            (p) =>
              p.slug === w.slug &&
              (p.type ?? 'post') === (w.type ?? 'post') &&
              p.status !== 'trash' &&
              !(p.marker?.key === w.marker.key && p.marker.ns === w.marker.ns),
          );
    if (taken) return { action: { kind: 'conflict', post: taken }, duplicates: [] };
    return { action: { kind: 'create' }, duplicates: [] };
  });
  return options.complete ? withMoves(wanted, planned, orphansOf(wanted, marked), options) : planned;
}

/**
 * A pruned post whose source is back: updated like any other, with its status always sent (WordPress
 * restores a trashed post as a draft; out of the trash it must come) and its marker rewritten without the
 * pruned sum.
 */
function restoreAction(post: SitePost, w: Wanted, options: PlanOptions): Action {
  const action = syncAction(post, w, options);
  if (action.kind === 'conflict') return action;
  const fields = action.kind === 'update' ? action.fields : [];
  return {
    kind: 'update',
    post,
    fields: fields.includes('status') ? fields : [...fields, 'status'],
    restore: true,
    ...('edited' in action && action.edited && { edited: action.edited }),
  };
}

/** The posts of the namespace outside the trash that no source claims. */
export function orphansOf(wanted: Wanted[], marked: SitePost[]): SitePost[] {
  const keys = new Set(wanted.map((w) => w.marker.key));
  return marked.filter((p) => p.marker && p.status !== 'trash' && !keys.has(p.marker.key));
}

/**
 * A source to be created whose content is exactly one orphan's, and that orphan no other new source's: the
 * orphan is that source moved or renamed (a new path, a changed key). It keeps its id and link.
 */
function withMoves(
  wanted: Wanted[],
  planned: PlannedAction[],
  orphans: SitePost[],
  options: PlanOptions,
): PlannedAction[] {
  const content = (m: Marker): string | undefined => m.sums['content'];
  const matches = planned.map((p, i) =>
    p.action.kind === 'create' && content(wanted[i]!.marker) !== undefined
      ? orphans.filter(
          // A post's type cannot change (publish-plan.ts checkTypeChanges): only an orphan of its type is moved.
          (o) =>
            content(o.marker!) === content(wanted[i]!.marker) &&
            (o.type ?? 'post') === (wanted[i]!.type ?? 'post'),
        )
      : [],
  );
  const claims = new Map<number, number>();
  for (const m of matches) if (m.length === 1) claims.set(m[0]!.id, (claims.get(m[0]!.id) ?? 0) + 1);
  return planned.map((p, i) => {
    const m = matches[i]!;
    if (m.length !== 1 || claims.get(m[0]!.id) !== 1) return p;
    return { action: syncAction(m[0]!, wanted[i]!, options, 'move'), duplicates: [] };
  });
}

/** The orphans the plan leaves as orphans (the moved ones are a source's now). */
export function remainingOrphans(wanted: Wanted[], marked: SitePost[], planned: PlannedAction[]): SitePost[] {
  const moved = new Set(planned.flatMap((p) => (p.action.kind === 'move' ? [p.action.post.id] : [])));
  return orphansOf(wanted, marked).filter((o) => !moved.has(o.id));
}
