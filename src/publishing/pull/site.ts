// What `wp pull` reads from the site: the posts matching its filters, their featured images' addresses,
// and the images themselves (--media).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import { UsageError, UnavailableError } from '../../errors.js';
import type { CancelPort } from '../ports.js';
import type { WordPressClient } from '../../wordpress/client.js';
import { everyPost, type WpPostDetail } from '../../wordpress/posts.js';
import { readIfThereBytes } from './files.js';

const FIELDS =
  'id,date,date_gmt,modified,modified_gmt,slug,status,type,link,title,content,excerpt,author,featured_media,sticky,template,format,comment_status,ping_status,categories,tags,password,parent,menu_order';

export async function categoryIds(client: WordPressClient, refs: string[]): Promise<number[]> {
  const { resolveTermIds } = await import('../../wordpress/terms.js');
  return resolveTermIds(client, 'categories', refs, { create: false });
}

/** Every post of these types (default: posts) matching the filters; the types' routes are the client's covered ones. */
export async function listPosts(
  client: WordPressClient,
  filters: Record<string, string | number>,
  label: string,
  types: string[] = ['post'],
): Promise<WpPostDetail[]> {
  const posts = await everyPost(client, filters, FIELDS, label);
  return posts.filter((p) => types.includes(p.type ?? 'post'));
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

/** The site's own image, fetched without credentials (it is public); only from the site's address. */
export async function download(url: string, path: string, siteUrl: string, deps: CancelPort): Promise<void> {
  if (new URL(url).origin !== new URL(siteUrl).origin)
    throw new UsageError(`--media: ${url} is not on the site (${new URL(siteUrl).origin}); not downloaded`);
  let bytes: Buffer;
  try {
    const res = await fetch(url, { signal: AbortSignal.any([deps.signal, AbortSignal.timeout(60_000)]) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    bytes = Buffer.from(await res.arrayBuffer());
  } catch (error) {
    throw new UnavailableError(
      `--media: downloading ${url} failed: ${(error as Error).message}; nothing written`,
    );
  }
  if (readIfThereBytes(path)?.equals(bytes)) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}
