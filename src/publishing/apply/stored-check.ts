// What WordPress stored, checked against what blogctl sent: the marker (without it the post cannot be found
// again, and every later run would publish it anew), and the meta keys (WordPress drops, without a word,
// every key no plugin registered for the REST API). Pure: the post as WordPress answered is passed in.
import { RejectedError } from '../../errors.js';
import type { WpPostDetail } from '../../wordpress/posts.js';
import { readMarker, type Marker } from '../identity.js';

/**
 * The post as stored lost blogctl's marker (or carries another source's): exit 6 naming the likely cause.
 * Undefined when the marker is there, or when WordPress's answer did not show the raw content.
 */
export function lostMarker(stored: WpPostDetail, marker: Marker): RejectedError | undefined {
  const raw = stored.content?.raw;
  if (raw === undefined) return undefined;
  if (readMarker(raw)?.key === marker.key) return undefined;
  return new RejectedError(
    `WordPress stored post ${stored.id} without blogctl's marker (an HTML comment at the end of its content): a plugin that filters post content on save, stripping HTML comments, is the likely cause; without the marker the next run cannot find this post and would publish it again`,
    {
      hints: [
        'let HTML comments through for the account blogctl publishes with (the plugin that strips them, or its settings), then delete this post in WordPress and publish again',
      ],
    },
  );
}

/** The meta keys sent that WordPress did not keep (it answers `meta: []` when no key is registered). */
export function droppedMeta(sent: Record<string, unknown> | undefined, stored: WpPostDetail): string[] {
  const keys = Object.keys(sent ?? {});
  if (!keys.length || stored.meta === undefined) return [];
  const kept = Array.isArray(stored.meta) ? {} : stored.meta;
  return keys.filter((k) => !(k in kept)).sort();
}

export const droppedMetaWarning = (keys: string[]): string =>
  `WordPress dropped the meta key${keys.length === 1 ? '' : 's'} ${keys.join(', ')}: only meta a plugin registers for the REST API (register_post_meta with show_in_rest) is stored; said once: the next runs send ${keys.length === 1 ? 'it' : 'them'} again only when the source's meta changes`;

/** What WordPress made of the content sent, for a person: elements and attributes it dropped or added. */
export interface ContentChange {
  /** Something sent is not stored (an element, an attribute, text): a warning. */
  lost: boolean;
  /** One line: `removed <iframe>; added rel on <a>`. */
  summary: string;
}

const TAG_RE = /<([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTR_RE = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*(?:=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

/** Counts of elements (`iframe`) and of attributes on them (`a rel`), from opening tags. */
function shapeOf(html: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (k: string): void => void counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const m of html.matchAll(TAG_RE)) {
    const tag = m[1]!.toLowerCase();
    add(`<${tag}>`);
    for (const a of (m[2] ?? '').replace(/\/\s*$/, '').matchAll(ATTR_RE))
      add(`${a[1]!.toLowerCase()} on <${tag}>`);
  }
  return counts;
}

const MAX_NAMED = 5;
function listed(items: string[]): string {
  const shown = items.slice(0, MAX_NAMED).join(', ');
  return items.length > MAX_NAMED ? `${shown} and ${items.length - MAX_NAMED} more` : shown;
}

/**
 * How the content WordPress stored differs from the content sent (both without blogctl's marker), or
 * undefined when they are the same but for whitespace at either end. Bounded: names at most a few elements.
 */
export function contentChange(sent: string, stored: string): ContentChange | undefined {
  const [a, b] = [sent.trim(), stored.trim()];
  if (a === b) return undefined;
  const [before, after] = [shapeOf(a), shapeOf(b)];
  const removed: string[] = [];
  const added: string[] = [];
  for (const [k, n] of before) if ((after.get(k) ?? 0) < n) removed.push(k);
  for (const [k, n] of after) if ((before.get(k) ?? 0) < n) added.push(k);
  const parts = [
    ...(removed.length ? [`removed ${listed(removed)}`] : []),
    ...(added.length ? [`added ${listed(added)}`] : []),
  ];
  const text = (html: string): string =>
    html
      .replace(TAG_RE, '')
      .replace(/<\/[^>]*>/g, '')
      .replace(/\s+/g, ' ');
  const textChanged = text(a).trim() !== text(b).trim();
  if (textChanged) parts.push('changed its text');
  if (!parts.length) parts.push('rewrote its markup');
  return { lost: removed.length > 0 || textChanged, summary: parts.join('; ') };
}
