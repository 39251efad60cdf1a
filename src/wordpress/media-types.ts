// Image types by file extension, apart from media.ts: checking a --featured-image name (wp publish, dry runs
// included) must not load the WordPress client, and the HTTP stack with it, that uploading needs.
import { extname } from 'node:path';

/** Types WordPress accepts by default, plus SVG (which needs a plugin there: WordPress refuses it otherwise). */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
};

/** The media type for a file name, from its extension (case-insensitive); undefined when not an image we know. */
export function mediaTypeFor(filePath: string): string | undefined {
  const ext = extname(filePath).slice(1).toLowerCase();
  return Object.hasOwn(MEDIA_TYPES, ext) ? MEDIA_TYPES[ext] : undefined;
}
