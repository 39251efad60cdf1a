// What `wp pull` reads from the site: the posts matching its filters, their featured images' addresses,
// and the images themselves (--media).
import * as z from 'zod/mini';
import type { ListLimits } from '../../http/json-array.js';
import { maxResponseBytesFromEnv } from '../../http/limits.js';
import { writeInside } from '../../lib/write-inside.js';
import type { CancelPort } from '../ports.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { forEachPostPage, type WpPostDetail } from '../../wordpress/posts.js';
import { readIfThereBytes } from './files.js';

const FIELDS =
  'id,date,date_gmt,modified,modified_gmt,slug,status,type,link,title,content,excerpt,author,featured_media,sticky,template,format,comment_status,ping_status,categories,tags,password,parent,menu_order,meta';

export async function categoryIds(client: WordPressClient, refs: string[]): Promise<number[]> {
  const { resolveTermIds } = await import('../../wordpress/terms.js');
  return resolveTermIds(client, 'categories', refs, { create: false });
}

/**
 * Every post of these types (default: posts) matching the filters, a page at a time in id order
 * (wordpress/posts.ts forEachPostPage: a few pages in memory, the whole bounded by BLOGCTL_MAX_LIST_ITEMS and
 * BLOGCTL_MAX_LIST_MB); the types' routes are the client's covered ones. `meta` comes too: the SEO plugins'
 * registered keys (pull.ts writes them as `seo:`).
 */
export async function eachPageOfPosts(
  client: WordPressClient,
  filters: Record<string, string | number>,
  label: string,
  types: string[],
  limits: ListLimits,
  onPage: (posts: WpPostDetail[]) => Promise<void>,
): Promise<void> {
  await forEachPostPage(
    client,
    filters,
    FIELDS,
    label,
    (posts) => onPage(posts.filter((p) => types.includes(p.type ?? 'post'))),
    limits,
  );
}

const mediaList = z.array(z.looseObject({ id: z.number(), source_url: z.optional(z.string()) }));

/** The address of each featured image, 100 a request. */
export async function mediaUrls(client: WordPressClient, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, string>();
  for (let i = 0; i < unique.length; i += 100) {
    const batch = unique.slice(i, i + 100);
    const res = await client.route('wp/v2/media', {
      method: 'GET',
      params: { include: batch.join(','), per_page: 100, context: 'edit', _fields: 'id,source_url' },
      schema: mediaList,
      label: 'read the featured images',
    });
    for (const m of res.body) if (m.source_url) out.set(m.id, m.source_url);
  }
  return out;
}

/** A featured image is read for at most this long in all (a trickling server included), unless the run says (--timeout). */
const MEDIA_DEADLINE_MS = 60_000;

/**
 * The site's own image, fetched without credentials (it is public); only from the site's address, at most
 * BLOGCTL_MAX_RESPONSE_MB and `deadlineMs` (the run's --timeout, 60 s by default) in all, counted from the request (a server trickling bytes cannot keep it
 * going), and written inside `root` (lib/write-inside.ts). An image that cannot be had is a problem of its
 * post, returned as one line; the pull goes on. A link in the way stops the pull (exit 2).
 */
export async function download(
  url: string,
  path: string,
  siteUrl: string,
  deps: CancelPort & { env: NodeJS.ProcessEnv },
  root: string,
  deadlineMs: number = MEDIA_DEADLINE_MS,
): Promise<string | undefined> {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return `--media: ${url} is not a valid address; the image was not downloaded`;
  }
  if (address.origin !== new URL(siteUrl).origin)
    return `--media: ${url} is not on the site (${new URL(siteUrl).origin}); not downloaded`;
  const maxBytes = maxResponseBytesFromEnv(deps.env);
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error(`took more than ${deadlineMs / 1000} s`)),
    deadlineMs,
  );
  const stop = (): void => deadline.abort(deps.signal.reason);
  deps.signal.addEventListener('abort', stop, { once: true });
  let bytes: Buffer;
  try {
    const res = await fetch(address, { signal: deadline.signal });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    const announced = Number(res.headers.get('content-length'));
    if (announced > maxBytes) throw new Error(tooLarge(maxBytes));
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        deadline.abort(new Error(tooLarge(maxBytes)));
        throw new Error(tooLarge(maxBytes));
      }
      chunks.push(Buffer.from(chunk));
    }
    bytes = Buffer.concat(chunks);
  } catch (error) {
    if (deps.signal.aborted) throw error;
    const reason = deadline.signal.aborted ? (deadline.signal.reason as Error) : (error as Error);
    return `--media: downloading ${url} failed: ${reason.message}; the image was not written`;
  } finally {
    clearTimeout(timer);
    deps.signal.removeEventListener('abort', stop);
  }
  if (readIfThereBytes(path)?.equals(bytes)) return undefined;
  await writeInside(root, path, bytes);
  return undefined;
}

const tooLarge = (max: number): string =>
  `larger than ${Math.round((max / 1024 / 1024) * 10) / 10} MiB (BLOGCTL_MAX_RESPONSE_MB raises the limit)`;
