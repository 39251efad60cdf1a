// The tokens a source's content carries in place of its local images (inline-images.ts) and its links to other
// sources (source-links.ts) until a run knows their URLs, and what reads and replaces them. Kept apart from
// those two (which read files and hash with node:crypto) so a job built from flags alone loads neither.

const IMAGE_TOKEN_PREFIX = 'blogctl-image:';
const IMAGE_TOKEN_RE = /blogctl-image:([0-9a-f]{64})/g;

/** An image a source uses: its bytes' hash, where it is, and where the source first names it. */
export interface InlineImage {
  /** sha256 of the bytes, 64 hex digits. */
  sum: string;
  /** Absolute path. */
  path: string;
  /** The reference as written (`img/cover.png`). */
  ref: string;
  /** `posts/a.md:7`. */
  at: string;
}

/** The token a content carries for an image. */
export const imageToken = (sum: string): string => `${IMAGE_TOKEN_PREFIX}${sum}`;

/** The images of a content, by hash, among `images` (those whose token the content still carries). */
export function imagesIn(content: string, images: readonly InlineImage[]): InlineImage[] {
  const used = new Set([...content.matchAll(IMAGE_TOKEN_RE)].map((m) => m[1]!));
  return images.filter((i) => used.has(i.sum));
}

/** The content with each image token replaced by its URL (tokens of unknown images are left). */
export function withImageUrls(content: string, urls: ReadonlyMap<string, string>): string {
  return content.replace(IMAGE_TOKEN_RE, (token, sum: string) => urls.get(sum) ?? token);
}

export const LINK_TOKEN_PREFIX = 'blogctl-link:';
const LINK_TOKEN_RE = /blogctl-link:([0-9a-f]{16})/g;

/** One link of a source to another source's file, as read. */
export interface SourceLink {
  /** Names the target in the content's token: 16 hex digits of the hash of its absolute path. */
  id: string;
  /** The target file's absolute path (its real path when it exists). */
  target: string;
  /** Where the link is written: `posts/a.md:7`. */
  at: string;
  /** The href as written (`other.md#part`): sent while the target's permalink is not known yet. */
  href: string;
}

/** The links whose token a content still carries (flags may have replaced the file's body). */
export function linksIn(content: string, links: readonly SourceLink[]): SourceLink[] {
  const used = new Set([...content.matchAll(LINK_TOKEN_RE)].map((m) => m[1]!));
  return links.filter((l) => used.has(l.id));
}

/**
 * The content with each link token replaced by what `hrefOf` gives for its target (escaped for an HTML
 * attribute), or by the href as written when it gives nothing.
 */
export function withLinkTargets<L extends SourceLink>(
  content: string,
  links: readonly L[],
  hrefOf: (link: L) => string | undefined,
): string {
  const byId = new Map<string, L>();
  for (const link of links) if (!byId.has(link.id)) byId.set(link.id, link);
  // Asked once per target, however many times the content links to it.
  const hrefs = new Map<string, string | undefined>();
  return content.replace(LINK_TOKEN_RE, (token, id: string) => {
    const link = byId.get(id);
    if (!link) return token;
    if (!hrefs.has(id)) hrefs.set(id, hrefOf(link));
    const href = hrefs.get(id);
    // The href as written had its fragment after it; the token keeps it in the content.
    return escapeAttribute(href ?? link.href.replace(/#.*$/, ''));
  });
}

/** `&`, `"`, `<`, `>` as an attribute value must write them (WordPress's own `esc_url` does the same to `&`). */
const escapeAttribute = (text: string): string =>
  text.replace(/[&"<>]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : c === '<' ? '&lt;' : '&gt;'));
