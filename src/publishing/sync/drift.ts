// Drift: a field of a post changed on the site (an editor in WordPress) since blogctl last sent it. Besides
// the sums of the source's fields, the marker keeps, for each field it sent, the sum of that value as
// WordPress stored it after that write (`wp_title`, `wp_content`, …: read from its answer, publish-send.ts
// settleStored); the look-up reads the stored values again, and a sum
// that no longer matches is an edit made on the site. A field blogctl never sent is never called edited.
//
// Values are compared as WordPress keeps them: text trimmed (WordPress trims a title on save), the content
// without blogctl's marker, term ids in any order, a `future` post that went live on its date still the
// status sent, a page's parent by its post id (0: none) and its menu_order as a number (a type without them
// shows neither: never called edited there). The slug is not tracked (WordPress rewrites the one sent: lower
// case, accents and punctuation dropped), nor an empty term list (WordPress fills in the default category).
// Pure: no network.
import type { SAVED } from './saved.js';
import { fieldSum, type Marker } from '../identity.js';
import { seoFromMeta, type SeoFields } from '../../wordpress/seo.js';

/**
 * The fields whose edits on the site are tracked, by their names in the plan (the image is featured_media;
 * `seo_title` … the SEO fields where they ride in the post's meta: Yoast's or Rank Math's registered keys).
 */
export const DRIFT_FIELDS = [
  'title',
  'content',
  'excerpt',
  'status',
  'categories',
  'tags',
  'image',
  'parent',
  'menu_order',
  'seo_title',
  'seo_description',
  'seo_focus_keyword',
  'seo_canonical',
  'seo_noindex',
] as const;
export type DriftField = (typeof DRIFT_FIELDS)[number];

/** What the plan reports as edited on the site: fields, or that the post was saved since blogctl's write. */
export type EditedField = DriftField | typeof SAVED;

/** A sum's name in the marker for a field's value as WordPress stores it. */
export const SITE_SUM_PREFIX = 'wp_';

/** A post's values as WordPress stores them (`context=edit`), those drift is tracked for. */
export interface StoredValues {
  title?: string;
  /** The raw content, blogctl's marker included or not. */
  content?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  categories?: number[];
  tags?: number[];
  featured_media?: number;
  /** A page's (a hierarchical type's) parent post id, 0 for none, and its order: absent on other types. */
  parent?: number;
  menu_order?: number;
  /** The SEO fields the post's meta holds (seoOfMeta). */
  seo?: SeoFields;
}

/**
 * The SEO fields a post's meta holds: Yoast's keys, else Rank Math's (blogctl writes one plugin's; the
 * companion plugin registers both, the other's left empty). Undefined when the meta shows neither.
 */
export function seoOfMeta(meta: unknown): SeoFields | undefined {
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  const yoast = seoFromMeta('yoast', meta);
  if (Object.keys(yoast).length) return yoast;
  const rankmath = seoFromMeta('rankmath', meta);
  return Object.keys(rankmath).length ? rankmath : undefined;
}

// Only the comment: a line break before it is the content's own (a code block's last line, a raw HTML block's
// closing tag on its own line), and stays part of what is compared.
const ANY_MARKER = /<!-- blogctl:v1 [^>]*-->/g;

/** The value compared for a field, or undefined when the post does not show it. */
function normalized(field: DriftField, values: StoredValues): unknown {
  switch (field) {
    case 'title':
    case 'excerpt':
      return values[field]?.trim();
    case 'content':
      return values.content?.replace(ANY_MARKER, '').trim();
    case 'status':
      // WordPress turns `future` into `publish` when the date comes, and `publish` with a date ahead into
      // `future`: neither is an edit.
      return values.status === 'future' ? 'publish' : values.status;
    case 'categories':
    case 'tags':
      // None sent: WordPress gives the default category, so an empty list is not tracked.
      return values[field]?.length ? [...values[field]].sort((a, b) => a - b) : undefined;
    case 'image':
      return values.featured_media;
    case 'parent':
    case 'menu_order':
      return values[field];
    default:
      return values.seo?.[field.slice('seo_'.length) as keyof SeoFields];
  }
}

/** The `wp_` sums of the fields present in `values` (as sent, or as stored). */
export function storedSums(values: StoredValues): Record<string, string> {
  const sums: Record<string, string> = {};
  for (const field of DRIFT_FIELDS) {
    const value = normalized(field, values);
    if (value !== undefined) sums[`${SITE_SUM_PREFIX}${field}`] = fieldSum(value);
  }
  return sums;
}

/** The sum of one field's value as stored, or undefined when the post does not show it. */
export function storedSum(field: DriftField, values: StoredValues): string | undefined {
  const value = normalized(field, values);
  return value === undefined ? undefined : fieldSum(value);
}

/**
 * The fields edited on the site: those blogctl sent (a `wp_` sum in the marker) whose stored value differs
 * now. A field the look-up did not read is not called edited.
 */
export function editedFields(marker: Marker, stored: StoredValues): DriftField[] {
  return DRIFT_FIELDS.filter((field) => {
    const sent = marker.sums[`${SITE_SUM_PREFIX}${field}`];
    if (sent === undefined) return false;
    const now = storedSum(field, stored);
    return now !== undefined && now !== sent;
  });
}

/** The marker's source sums alone (what the plan compares with the source). */
export function sourceSums(marker: Marker): Record<string, string> {
  return Object.fromEntries(
    Object.entries(marker.sums).filter(([name]) => !name.startsWith(SITE_SUM_PREFIX)),
  );
}

/** The marker's `wp_` sums alone. */
export function siteSums(marker: Marker): Record<string, string> {
  return Object.fromEntries(Object.entries(marker.sums).filter(([name]) => name.startsWith(SITE_SUM_PREFIX)));
}
