// Local images in a post's body (`![alt](img/cover.png)`, `<img src="img/cover.png">` in raw HTML or an HTML
// source, the image blocks of `editor: blocks`): read and hashed when the source is read, and referenced in
// the content by a token that names the image's bytes (`blogctl-image:<sha256>`). Rules that must stay true:
//
// - The token is what the content's sum covers, so a post is "changed" when an image's bytes change, never
//   because of where the site keeps them: a run with nothing new sends nothing and uploads nothing.
// - The token is replaced by the attachment's URL only in what is sent (publish-send.ts contentToSend), the
//   attachment found on the site by its slug (`blogctl-img-<hash>`, media.ts) or uploaded once.
// - Only a relative path is local: a URL with a scheme (http:, data:, …), protocol-relative (`//…`), a path
//   from the site's root (`/wp-content/…`) or a fragment is left as written.
// - An image that is missing, unreadable, not an image type, larger than MAX_IMAGE_BYTES, or outside the
//   project's root (else the source's own folder) is an input error at its file and line.
// - Markdown is read through marked's tokens (walkTokens) and raw HTML through htmlparser2's tokenizer
//   (html-images.ts, loaded only for a text holding `<img`), whose positions let the `src` value alone be
//   replaced: the rest of the HTML stays as written.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Marked, Token, Tokens } from 'marked';
import { mediaTypeFor, MEDIA_TYPES } from '../../wordpress/media-types.js';
import { imageToken, type InlineImage } from './content-tokens.js';

/** The largest image read (and uploaded): WordPress's own default upload limits are far below it. */
const MAX_IMAGE_BYTES = 32 * 1024 * 1024;

/** What to write for an image `src` at a file line; undefined: leave it as written. */
export type ResolveImage = (src: string, line: number) => string | undefined;
/** html-images.ts rewriteHtmlImages. */
export type RewriteHtml = (html: string, firstLine: number, resolveRef: ResolveImage) => string;

/** The attachment slug an image is found again by, on any machine: its hash, as WordPress keeps slugs. */
export const imageSlug = (sum: string): string => `blogctl-img-${sum.slice(0, 32)}`;

/** Whether a `src` names a file beside the source (a relative path), not something the browser fetches. */
function isLocalRef(src: string): boolean {
  const s = src.trim();
  if (!s || s.startsWith('#') || s.startsWith('/') || s.startsWith('\\')) return false;
  // A scheme (`https:`, `data:`, `mailto:`) or a Windows drive is never a path beside the source.
  return !/^[a-z][a-z0-9+.-]*:/i.test(s);
}

/** What one run has read: an image named by several sources (or twice in one) is read once. */
interface ReadImage {
  key: string;
  sum?: string;
  problem?: string;
}
const readCache = new Map<string, ReadImage>();

/**
 * One source's images: each local reference resolved against the source's folder, checked and hashed.
 * `resolve()` returns the token to write in place of the reference, or undefined to leave it as written
 * (a remote one, or one in error: the problem is kept, and the source fails with it).
 */
export class SourceImages {
  readonly images: InlineImage[] = [];
  readonly problems: string[] = [];
  private readonly root: string;

  constructor(
    /** The source as messages name it (`posts/a.md`). */
    private readonly label: string,
    /** The source's folder. */
    private readonly baseDir: string,
    /** Images must be inside it: the project's (or git work tree's) root, else the source's folder. */
    root: string | undefined,
  ) {
    this.root = realOrSame(resolve(root ?? baseDir));
  }

  resolve(src: string, line: number): string | undefined {
    if (!isLocalRef(src)) return undefined;
    const at = `${this.label}:${line}`;
    const problem = (why: string): undefined => {
      this.problems.push(`${at}: image ${src}: ${why}`);
      return undefined;
    };
    // A query or fragment names no file; a percent-encoded name (`my%20cover.png`) is the file's name decoded.
    const bare = src.trim().replace(/[?#].*$/, '');
    const candidates = [bare];
    try {
      const decoded = decodeURIComponent(bare);
      if (decoded !== bare) candidates.push(decoded);
    } catch {
      // Not percent-encoding: the name as written.
    }
    // The real path (links resolved: one that points out of the project is outside it), else none.
    let real: string | undefined;
    for (const candidate of candidates) {
      try {
        real = realpathSync.native(resolve(this.baseDir, candidate));
        break;
      } catch {
        // Not there under this name.
      }
    }
    const path = real ?? resolve(this.baseDir, bare);
    if (!mediaTypeFor(resolve(this.baseDir, bare)))
      return problem(
        `cannot tell the image type from the extension (known: ${Object.keys(MEDIA_TYPES).join(', ')})`,
      );
    if (!inside(path, this.root))
      return problem(
        `outside ${isAbsolute(this.root) ? displayRoot(this.root) : this.root}: images must be inside the project`,
      );
    const read = readImage(path);
    if (read.problem) return problem(read.problem);
    const sum = read.sum!;
    if (!this.images.some((i) => i.sum === sum)) this.images.push({ sum, path, ref: src, at });
    return imageToken(sum);
  }
}

function readImage(path: string): ReadImage {
  let key: string;
  try {
    const info = statSync(path);
    if (!info.isFile()) return { key: path, problem: 'not a regular file' };
    if (info.size === 0) return { key: path, problem: 'the file is empty' };
    if (info.size > MAX_IMAGE_BYTES)
      return { key: path, problem: `larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB` };
    key = `${path}\0${info.size}\0${info.mtimeMs}\0${info.ctimeMs}\0${info.ino}`;
  } catch (error) {
    return { key: path, problem: fileProblem(error) };
  }
  const cached = readCache.get(key);
  if (cached) return cached;
  let result: ReadImage;
  try {
    // Synchronous, as the sources themselves are read (publish-sources.ts): nothing else runs meanwhile.
    const bytes = readFileSync(path);
    result =
      bytes.length > MAX_IMAGE_BYTES
        ? { key, problem: `larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB` }
        : { key, sum: createHash('sha256').update(bytes).digest('hex') };
  } catch (error) {
    result = { key, problem: fileProblem(error) };
  }
  // Bounded: one entry per image file (and version of it) a process reads.
  if (readCache.size > 10_000) readCache.clear();
  readCache.set(key, result);
  return result;
}

function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

function realOrSame(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function displayRoot(root: string): string {
  const rel = relative(process.cwd(), root);
  return rel === '' ? '.' : rel.startsWith('..') ? root : rel;
}

/** `first` + the line breaks in `text` before `end`. */
export function lineAt(text: string, end: number, first: number): number {
  let line = first;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * A Markdown body's local images, in its tokens: each image's `href` and each raw HTML `<img src>` replaced
 * by what `resolve` gives. `firstLine` is the file line of the body's first character. Runs before the
 * tokens are rendered (classic HTML or blocks alike read the tokens).
 */
export function rewriteMarkdownImages(
  marked: Marked,
  tokens: Token[],
  firstLine: number,
  resolveRef: ResolveImage,
  /** html-images.ts's, loaded only for a body with `<img` in it. */
  rewriteHtml?: RewriteHtml,
): void {
  let line = firstLine;
  for (const top of tokens) {
    const raw = top.raw ?? '';
    let cursor = 0;
    // The line of a token inside this one: where its raw text is found next (else the top token's line).
    const lineOf = (inner: string): number => {
      const at = inner ? raw.indexOf(inner, cursor) : -1;
      if (at < 0) return line;
      cursor = at + inner.length;
      return lineAt(raw, at, line);
    };
    marked.walkTokens([top], (token) => {
      if (token.type === 'image') {
        const image = token as Tokens.Image;
        const replaced = resolveRef(image.href, lineOf(image.raw));
        if (replaced !== undefined) image.href = replaced;
      } else if (token.type === 'html' && rewriteHtml) {
        const html = token as Tokens.HTML | Tokens.Tag;
        const start = lineOf(html.raw);
        html.text = rewriteHtml(html.text, start, resolveRef);
      }
    });
    line = lineAt(raw, raw.length, line);
  }
}
