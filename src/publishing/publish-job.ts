// One post to publish, checked as far as it can be without the network: the draft (publish-draft.ts), the
// featured image file (present, a regular file, an image type WordPress takes), and the journal identity of
// its source. Everything here fails with exit 2 before anything is sent.
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { PostContent } from '../schemas/wordpress.js';
import { mediaTypeFor, MEDIA_TYPES } from '../wordpress/media-types.js';
import { journalKey, legacyJournalKey, sha256, type JournalSource } from './journal.js';
import type { ContentLayer } from './post-payload.js';
import { buildPostDraft, type PostDraft } from './publish-draft.js';
import { canonicalJson } from '../lib/canonical-json.js';

export interface PublishJob {
  /** How the post is named in summaries and messages: a file path, `blog <id>`, `flags`. */
  name: string;
  draft: PostDraft;
  /** Absolute path of an image to upload as the featured image. */
  featuredImage?: string;
  /** The source, with the fingerprint of the post (postFingerprint) unless it is an explicit --key. */
  source: JournalSource;
  /** journalKey(source). */
  sourceKey: string;
  /** The key an older blogctl recorded this source under (without the fingerprint), when it differs. */
  legacySourceKey?: string;
}

export interface JobSpec {
  name: string;
  /** Lowest precedence first; the flags last. */
  layers: ContentLayer[];
  featuredImage?: { path: string; name: string };
  /** Or, for content given inline, made from the validated content (title and body). */
  source: JournalSource | ((content: PostContent) => JournalSource);
}

export interface JobOptions {
  now: Date;
  force?: boolean;
}

export async function makeJob(spec: JobSpec, options: JobOptions): Promise<PublishJob> {
  const draft = buildPostDraft(spec.layers, options);
  if (spec.featuredImage && draft.content.featured_media !== undefined) {
    throw new UsageError(
      `${spec.featuredImage.name} and --featured-media: give the featured image as a file or as a media id, not both`,
    );
  }
  const featuredImage =
    spec.featuredImage && (await checkImage(spec.featuredImage.path, spec.featuredImage.name));
  // The journal identity is worked out when first asked for: its hashes need node:crypto, which costs a
  // dry run (which never asks) about 10 ms to load.
  let identity: Pick<PublishJob, 'source' | 'sourceKey' | 'legacySourceKey'> | undefined;
  const identify = (): NonNullable<typeof identity> => {
    if (identity) return identity;
    const given = typeof spec.source === 'function' ? spec.source(draft.content) : spec.source;
    // An explicit --key is the whole identity by design; any other source is this post only as sent.
    const source: JournalSource =
      given.kind === 'key' ? given : { ...given, post: postFingerprint(draft, featuredImage) };
    const sourceKey = journalKey(source);
    const legacy = legacyJournalKey(source);
    return (identity = { source, sourceKey, ...(legacy !== sourceKey && { legacySourceKey: legacy }) });
  };
  const job = { name: spec.name, draft, ...(featuredImage && { featuredImage }) } as PublishJob;
  return Object.defineProperties(job, {
    source: { enumerable: true, get: () => identify().source },
    sourceKey: { enumerable: true, get: () => identify().sourceKey },
    legacySourceKey: { enumerable: true, get: () => identify().legacySourceKey },
  });
}

/**
 * A hash of the post as it would be sent: every content field (the date as the planned `date_gmt`), the
 * categories and tags as given, and the featured image file. Object keys are sorted, so the order fields
 * were given in does not matter; the values do.
 */
export function postFingerprint(draft: PostDraft, featuredImage?: string): string {
  return sha256(
    canonicalJson({
      content: draft.content,
      categories: draft.categories ?? null,
      tags: draft.tags ?? null,
      featuredImage: featuredImage ?? null,
    }),
  );
}

/**
 * Checks an image before anything is sent (uploadMedia checks again, but only once the terms are resolved
 * and, in a batch, other posts may already be out).
 */
export async function checkImage(path: string, name: string): Promise<string> {
  const absolute = resolve(path);
  if (!mediaTypeFor(absolute)) {
    throw new UsageError(
      `${name}: ${path}: cannot tell the image type from the extension (known: ${Object.keys(MEDIA_TYPES).join(', ')})`,
    );
  }
  let info;
  try {
    // Imported here: node:fs/promises (with Node's file streams and readline) loads only when a file is read.
    const { stat } = await import('node:fs/promises');
    info = await stat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${name}: ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  if (!info.isFile()) throw new UsageError(`${name}: ${path}: not a regular file`);
  if (!info.size) throw new UsageError(`${name}: ${path}: the file is empty`);
  return absolute;
}

/** A batch names the post each problem belongs to; a single publish does not need to. */
export function inPost(error: unknown, name: string, several: boolean): unknown {
  if (!several || !(error instanceof UsageError)) return error;
  return new UsageError(`${name}: ${error.message}`, error.context);
}
