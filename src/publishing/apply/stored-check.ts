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
  `WordPress dropped the meta key${keys.length === 1 ? '' : 's'} ${keys.join(', ')}: only meta a plugin registers for the REST API (register_post_meta with show_in_rest) is stored; not recorded as sent, so the next run sends ${keys.length === 1 ? 'it' : 'them'} again`;
