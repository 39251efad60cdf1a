// Uploads a file to the media library (for --featured-image / front matter `featured_image`). The raw file is
// the body and `Content-Disposition` names it: WordPress answers 400 rest_upload_no_content_disposition
// without that header, and multipart would buy nothing for one file.
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import * as z from 'zod/mini';
import { RejectedError, UnavailableError, UsageError } from '../errors.js';
import { extractPeerMessage } from '../http/message.js';
import { routeEndpoint, type WordPressClient } from './client.js';
import { MEDIA_TYPES, mediaTypeFor } from './media-types.js';

export { MEDIA_TYPES, mediaTypeFor };

export interface UploadedMedia {
  id: number;
  source_url: string;
  /** The slug WordPress gave it (absent from an answer that lacks it). */
  slug?: string;
}

const mediaResponse = z.looseObject({ id: z.number(), source_url: z.string(), slug: z.optional(z.string()) });

/**
 * `attachment; filename="…"` plus, when the name is not plain ASCII (or holds `"`, `\` or `;`), the exact name
 * as RFC 5987 `filename*=UTF-8''…`. WordPress reads only `filename` and splits the header on every `;`, even
 * inside quotes, so the quoted fallback is kept to printable ASCII without `"`, `\` or `;`: accents are dropped
 * ("café.png" → "cafe.png", what WordPress itself would make of it) and anything else becomes `_`.
 */
export function contentDisposition(fileName: string): string {
  const name = fileName.normalize('NFC');
  const fallback = asciiFallback(name);
  const header = `attachment; filename="${fallback}"`;
  return fallback === name ? header : `${header}; filename*=UTF-8''${encodeRfc5987(name)}`;
}

function asciiFallback(name: string): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const clean = (s: string): string =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]|["\\;]/g, '_');
  const asciiStem = clean(stem).replace(/^[_\s]+$/, '');
  return `${asciiStem || 'upload'}${clean(ext)}`;
}

/** RFC 5987 value-chars: attr-char stays, everything else is percent-encoded UTF-8. */
function encodeRfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Uploads one file and returns its attachment id and URL. Checked before anything is sent: the file must
 * exist, be a non-empty regular file and have a known image extension (else UsageError, exit 2).
 * WordPress's refusals come back as RejectedError (exit 6) — including the HTTP 500
 * `rest_upload_sideload_error` it uses for "not allowed to upload this file type".
 */
export async function uploadMedia(
  client: WordPressClient,
  filePath: string,
  /** The attachment's slug (WordPress makes it unique: `slug-2` when taken); default: from the file name. */
  options: { slug?: string } = {},
): Promise<UploadedMedia> {
  const contentType = mediaTypeFor(filePath);
  if (!contentType) {
    const known = Object.keys(MEDIA_TYPES).join(', ');
    throw new UsageError(`${filePath}: cannot tell the image type from the extension (known: ${known})`);
  }
  let data: Buffer;
  try {
    data = await readFile(filePath);
  } catch (error) {
    throw new UsageError(`${filePath}: ${fileProblem(error)}`);
  }
  if (!data.length) throw new UsageError(`${filePath}: the file is empty`);

  const route = 'wp/v2/media';
  const label = `upload ${basename(filePath)} to WordPress`;
  const res = await client.route(route, {
    method: 'POST',
    raw: { data, contentType },
    headers: { 'content-disposition': contentDisposition(basename(filePath)) },
    // A raw-body upload takes its other fields from the query (WP_REST_Request reads GET parameters too).
    ...(options.slug !== undefined && { params: { slug: options.slug } }),
    schema: mediaResponse,
    // WordPress answers a refused file type with 500; read it rather than call the site unavailable.
    passStatuses: [500],
    label,
  });
  if (res.status === 500) {
    const peer = extractPeerMessage(res.text, res.headers['content-type']);
    const endpoint = routeEndpoint('POST', await client.restRoot(), route);
    const context = {
      status: 500,
      endpoint,
      ...(peer.message && { serviceMessage: peer.message }),
      ...(peer.code && { peerCode: peer.code }),
    };
    const message = `${label} failed: HTTP 500 ${endpoint}${peer.message ? `: ${peer.message}` : ''}`;
    if (peer.code?.startsWith('rest_upload')) {
      const hints =
        contentType === 'image/svg+xml'
          ? ['WordPress accepts SVG files only with a plugin that allows them']
          : [];
      throw new RejectedError(message, { ...context, ...(hints.length && { hints }) });
    }
    throw new UnavailableError(message, context);
  }
  // passStatuses skips the schema for a 500 only; a 2xx has been validated.
  const body = res.body as z.infer<typeof mediaResponse>;
  return { id: body.id, source_url: body.source_url, ...(body.slug !== undefined && { slug: body.slug }) };
}

/** An attachment found by its slug. */
export interface FoundMedia {
  id: number;
  slug: string;
  source_url: string;
  author?: number;
}

const foundList = z.array(
  z.looseObject({
    id: z.number(),
    slug: z.string(),
    source_url: z.string(),
    author: z.optional(z.number()),
  }),
);

/**
 * The attachments holding these exact slugs (`GET media?slug=a,b`, 100 a request), oldest first: WordPress
 * keeps an attachment's slug unique among all posts, so a slug names at most one.
 */
export async function mediaBySlugs(client: WordPressClient, slugs: string[]): Promise<FoundMedia[]> {
  const unique = [...new Set(slugs)];
  const found: FoundMedia[] = [];
  for (let i = 0; i < unique.length; i += 100) {
    const batch = unique.slice(i, i + 100);
    const res = await client.route('wp/v2/media', {
      method: 'GET',
      params: {
        slug: batch.join(','),
        per_page: 100,
        orderby: 'id',
        order: 'asc',
        _fields: 'id,slug,source_url,author',
      },
      schema: foundList,
      label: 'look up the images already uploaded',
    });
    for (const m of res.body)
      found.push({
        id: m.id,
        slug: m.slug,
        source_url: m.source_url,
        ...(m.author !== undefined && { author: m.author }),
      });
  }
  return found;
}

function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}
