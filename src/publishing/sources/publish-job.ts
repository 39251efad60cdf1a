// One post to publish, checked as far as it can be without the network: the draft (publish-draft.ts), the
// featured image file (present, a regular file, an image type WordPress takes), and the source that names
// the post on the site (identity.ts). Everything here fails with exit 2 before anything is sent.
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import type { PostContent } from '../../schemas/wordpress.js';
import { mediaTypeFor, MEDIA_TYPES } from '../../wordpress/media-types.js';
import { describeSource, keySourceKey, type SourceKey } from '../source-key.js';
import type { NewKey } from './loose-key.js';
import { fieldPlace } from './front-matter-lines.js';
import type { ContentLayer } from './post-payload.js';
import type { ParentLink, PostKind } from '../post-kinds.js';
import type { PostType } from '../../wordpress/post-types.js';
import { buildPostDraft, type PostDraft } from './publish-draft.js';
import type { JobLinks } from './source-links.js';
import { imagesIn, linksIn, withLinkTargets, type InlineImage, type SourceLink } from './content-tokens.js';

export interface PublishJob {
  /** How the post is named in summaries and messages: a file path, `blog <id>`, `flags`. */
  name: string;
  draft: PostDraft;
  /** Absolute path of an image to upload as the featured image, and the hash of its bytes. */
  featuredImage?: { path: string; sum: string };
  /**
   * What names the post on the site: a file's path, a key, a slug, a generated blog. Undefined for a post
   * from flags alone (no --slug or --key): it cannot be found again, so it is always created.
   */
  sourceKey?: SourceKey;
  /** Why a file has no source key (outside any project and git work tree): said when it is created. */
  untracked?: string;
  /** The front matter key given to a file outside any project and git work tree, written once its post exists. */
  newKey?: NewKey;
  /** Where the source's `key` or `blog_id` is written (`posts/a.md:2`), when it came from a file's front matter. */
  keyAt?: string;
  /** The content's sum in the marker, when not the sum of the content sent (a blog's: blog-source.ts). */
  contentSum?: string;
  /**
   * A slug sent but not asked for by a person (the generated blog's): a post holding it is no conflict,
   * WordPress gives this one another.
   */
  looseSlug?: string;
  /** Its type (`page`, a custom type), parent and order as stated (post-kinds.ts); none: a post. */
  kind?: PostKind;
  /** Its parent once linked (post-kinds.ts linkParents); left out by the plan for a type without parents. */
  parent?: ParentLink;
  /** Its parent's post id, when the plan found it on the site (else the run creates the parent first). */
  parentId?: number;
  /** Its type as the site offers it, once the plan checked it; undefined: a post. */
  postType?: PostType;
  /** The local images its content names by token (inline-images.ts): uploaded once, then their URLs sent. */
  images?: InlineImage[];
  /** Its links to other sources (source-links.ts): each becomes the target's permalink as the run sends it. */
  links?: JobLinks;
}

export interface JobSpec {
  name: string;
  /** Lowest precedence first; the flags last. */
  layers: ContentLayer[];
  featuredImage?: { path: string; name: string };
  /** Or, for a source named by the content itself (the slug given), made from the validated content. */
  source?: SourceKey | ((content: PostContent) => SourceKey | undefined);
  /** Said of a file whose post cannot be found again (no key, slug, project or git work tree). */
  untracked?: string;
  /** The key such a file gets instead (loose-key.ts), when blogctl may write it: it then names the source. */
  newKey?: NewKey;
  /** Where the file's front matter `key` or `blog_id` is written (`posts/a.md:2`), when it names the source. */
  keyAt?: string;
  /** The generated blog the content came from (blog-source.ts): its HTML, the sum its file reads back to, its slug. */
  blog?: { html: string; contentSum: string; slug?: string };
  kind?: PostKind;
  /** The local images of its file's body (inline-images.ts). */
  images?: InlineImage[];
  /** The links to source files its file's body holds (source-links.ts). */
  links?: SourceLink[];
}

export interface JobOptions {
  now: Date;
  allowImmediate?: boolean;
}

export async function makeJob(spec: JobSpec, options: JobOptions): Promise<PublishJob> {
  // A source that may be on the site already: a `future` date that has passed fails only a run that would
  // send it (the plan knows). A post from flags alone is always created: it fails here.
  const draft = buildPostDraft(spec.layers, { ...options, deferTiming: spec.source !== undefined });
  if (spec.featuredImage && draft.content.featured_media !== undefined) {
    throw new UsageError(
      `${spec.featuredImage.name} and --featured-media: give the featured image as a file or as a media id, not both`,
    );
  }
  const featuredImage =
    spec.featuredImage && (await checkImage(spec.featuredImage.path, spec.featuredImage.name));
  const named = typeof spec.source === 'function' ? spec.source(draft.content) : spec.source;
  // A file with no other name (no key, slug, project or git work tree) is named by the key it will get.
  const newKey = named === undefined ? spec.newKey : undefined;
  const sourceKey = newKey ? keySourceKey(newKey.key) : named;
  if (sourceKey === undefined && draft.scheduleProblem) throw new UsageError(draft.scheduleProblem);
  const { blog } = spec;
  // Only the images and links the content sent still names (flags may replace the file's body).
  const content = draft.content.content;
  const images = spec.images && typeof content === 'string' ? imagesIn(content, spec.images) : [];
  const links = spec.links && typeof content === 'string' ? linksIn(content, spec.links) : [];
  const job: PublishJob = {
    name: spec.name,
    draft,
    ...(featuredImage && { featuredImage }),
    ...(sourceKey !== undefined && { sourceKey }),
    ...(sourceKey === undefined && spec.untracked !== undefined && { untracked: spec.untracked }),
    ...(newKey && { newKey }),
    ...(spec.keyAt !== undefined &&
      (sourceKey?.startsWith('key:') || sourceKey?.startsWith('blog:')) && { keyAt: spec.keyAt }),
    // Only while the blog's own HTML and slug are what is sent (flags may replace either).
    ...(blog && draft.content.content === blog.html && { contentSum: blog.contentSum }),
    ...(blog?.slug !== undefined && draft.content.slug === blog.slug && { looseSlug: blog.slug }),
    ...(spec.kind && { kind: spec.kind }),
    ...(images.length && { images }),
    ...(links.length &&
      typeof content === 'string' && { links: { template: content, read: links, links: [] } }),
  };
  // Until a run puts the targets' permalinks in (sync/link-plan.ts), the content holds the links as written:
  // what reads a job without publishing it (wp pull's adoption) sums the file's own text.
  if (job.links) draft.content.content = withLinkTargets(job.links.template, links, () => undefined);
  return job;
}

/**
 * Checks an image before anything is sent (uploadMedia checks again, but only once the terms are resolved
 * and, in a batch, other posts may already be out), and hashes its bytes: the image is uploaded again only
 * when they change.
 */
export async function checkImage(path: string, name: string): Promise<{ path: string; sum: string }> {
  const absolute = resolve(path);
  if (!mediaTypeFor(absolute)) {
    throw new UsageError(
      `${name}: ${path}: cannot tell the image type from the extension (known: ${Object.keys(MEDIA_TYPES).join(', ')})`,
    );
  }
  let bytes: Buffer;
  try {
    // Imported here: node:fs/promises loads only when there is an image to read.
    const { readFile, stat } = await import('node:fs/promises');
    const info = await stat(absolute);
    if (!info.isFile()) throw new UsageError(`${name}: ${path}: not a regular file`);
    bytes = await readFile(absolute);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${name}: ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  if (!bytes.length) throw new UsageError(`${name}: ${path}: the file is empty`);
  const { bytesSum } = await import('../identity.js');
  return { path: absolute, sum: bytesSum(bytes) };
}

/**
 * A batch's lines for one source's input error: each problem it lists (`inputs`), else its message, each
 * starting with the source's name (or its name and line, `posts/a.md:3: status: …`).
 */
export function problemLines(error: UsageError, name: string): string[] {
  const lines = error.context.inputs?.length ? error.context.inputs : [error.message];
  return lines.map((line) =>
    line.startsWith(`${name}: `) ||
    (line.startsWith(`${name}:`) && /^\d+: /.test(line.slice(name.length + 1)))
      ? line
      : `${name}: ${line}`,
  );
}

/**
 * Two sources that would be the same post on the site, or that ask for the same slug (WordPress would give
 * the second `slug-2`, and the next run would find it in conflict): one line each, naming both sources where
 * they say it (`posts/a.md:2 and posts/b.md:2 are the same post (key "x")`).
 */
export function sameSourceClashes(jobs: PublishJob[]): string[] {
  const seen = new Map<string, PublishJob>();
  const slugs = new Map<string, PublishJob>();
  const clashes: string[] = [];
  const slugAt = (job: PublishJob): string => fieldPlace(job.draft.origin?.['slug'], 'slug') ?? job.name;
  const keyAt = (job: PublishJob): string =>
    job.sourceKey?.startsWith('slug:') ? slugAt(job) : (job.keyAt ?? job.name);
  for (const job of jobs) {
    if (job.sourceKey === undefined) continue;
    const first = seen.get(job.sourceKey);
    if (first) {
      clashes.push(`${keyAt(first)} and ${keyAt(job)} are the same post (${describeSource(job.sourceKey)})`);
      continue;
    }
    seen.set(job.sourceKey, job);
    const slug = job.draft.content.slug;
    if (!slug || slug === job.looseSlug) continue;
    const holder = slugs.get(slug);
    if (holder) clashes.push(`${slugAt(holder)} and ${slugAt(job)} ask for the same slug "${slug}"`);
    else slugs.set(slug, job);
  }
  return clashes;
}
