// A run's inline images on the site (sources/inline-images.ts): each found in the media library by its slug
// (the hash of its bytes), else uploaded once with that slug, so any later run, from any machine, finds it
// again and uploads nothing. One look-up for all the images of the posts a run sends (100 a request), and
// each image uploaded at most once per run however many posts use it.
import type { WordPressClient } from '../../wordpress/client.js';
import { mediaBySlugs, uploadMedia, type FoundMedia } from '../../wordpress/media.js';
import { siteFailure } from '../publish-failure.js';
import { imageSlug } from '../sources/inline-images.js';
import { withImageUrls, type InlineImage } from '../sources/content-tokens.js';

/** What a run does with images: each image's URL, and what it uploaded. */
export interface ImageUploads {
  /** The content with each image's token replaced by its URL (uploading what the site lacks). */
  rewrite(
    images: readonly InlineImage[],
    content: string,
  ): Promise<{ content: string; uploaded: InlineImage[] }>;
  /** The images this run uploaded for these (a job's `images`), each said for the first post only. */
  uploadedFor(images: readonly InlineImage[] | undefined): InlineImage[];
}

/**
 * Images already on the site, by hash: an attachment holding an image's slug, uploaded by the publishing
 * account (when known): anyone may upload a file under that slug, and another account's is never taken for
 * the project's image. When another account's holds the slug, the project's own upload got `<slug>-2` (or a
 * later number: WordPress keeps slugs unique): those are looked up too, for those images only.
 */
export async function imagesOnSite(
  client: WordPressClient,
  images: readonly InlineImage[],
  account: number | undefined,
): Promise<Map<string, FoundMedia>> {
  const found = new Map<string, FoundMedia>();
  const trusted = (media: FoundMedia): boolean =>
    account === undefined || media.author === undefined || media.author === account;
  const bySlug = new Map<string, string>();
  for (const image of images) bySlug.set(imageSlug(image.sum), image.sum);
  if (!bySlug.size) return found;
  const held = new Set<string>();
  for (const media of await mediaBySlugs(client, [...bySlug.keys()])) {
    const sum = bySlug.get(media.slug);
    if (sum === undefined || found.has(sum)) continue;
    if (trusted(media)) found.set(sum, media);
    else held.add(sum);
  }
  const squatted = [...held].filter((sum) => !found.has(sum));
  if (!squatted.length) return found;
  const next = new Map<string, string>();
  for (const sum of squatted)
    for (let n = 2; n <= SQUATTED_SLUGS + 1; n++) next.set(`${imageSlug(sum)}-${n}`, sum);
  for (const media of await mediaBySlugs(client, [...next.keys()])) {
    const sum = next.get(media.slug);
    if (sum !== undefined && !found.has(sum) && trusted(media)) found.set(sum, media);
  }
  return found;
}

/** How many numbered slugs (`-2` …) are looked up for an image whose slug another account's upload holds. */
const SQUATTED_SLUGS = 4;

/** The distinct images of these posts' jobs, in order. */
export function distinctImages(jobs: readonly { images?: InlineImage[] }[]): InlineImage[] {
  const seen = new Map<string, InlineImage>();
  for (const job of jobs)
    for (const image of job.images ?? []) if (!seen.has(image.sum)) seen.set(image.sum, image);
  return [...seen.values()];
}

export function imageUploads(
  wordpress: () => Promise<WordPressClient>,
  /** Every image the run may send: looked up together, at the first need. */
  all: readonly InlineImage[],
  account: number | undefined,
  site: string,
): ImageUploads {
  let onSite: Promise<Map<string, FoundMedia>> | undefined;
  const urls = new Map<string, Promise<{ url: string; uploaded: boolean }>>();
  const urlOf = (image: InlineImage): Promise<{ url: string; uploaded: boolean }> => {
    let url = urls.get(image.sum);
    if (!url) {
      url = (async () => {
        onSite ??= wordpress()
          .then((c) => imagesOnSite(c, all, account))
          .catch((error: unknown) => {
            throw siteFailure(error, 'looking up the images already uploaded', site);
          });
        const found = (await onSite).get(image.sum);
        if (found) return { url: found.source_url, uploaded: false };
        try {
          const made = await uploadMedia(await wordpress(), image.path, { slug: imageSlug(image.sum) });
          return { url: made.source_url, uploaded: true };
        } catch (error) {
          throw siteFailure(error, `uploading the image ${image.ref} (${image.at})`, site);
        }
      })();
      urls.set(image.sum, url);
    }
    return url;
  };
  const said = new Set<string>();
  const uploadedBy = new WeakMap<readonly InlineImage[], InlineImage[]>();
  return {
    async rewrite(images, content) {
      const resolved = new Map<string, string>();
      const uploaded: InlineImage[] = [];
      for (const image of images) {
        const { url, uploaded: fresh } = await urlOf(image);
        resolved.set(image.sum, url);
        if (fresh && !said.has(image.sum)) {
          said.add(image.sum);
          uploaded.push(image);
        }
      }
      uploadedBy.set(images, uploaded);
      return { content: withImageUrls(content, resolved), uploaded };
    },
    uploadedFor: (images) => (images && uploadedBy.get(images)) ?? [],
  };
}
