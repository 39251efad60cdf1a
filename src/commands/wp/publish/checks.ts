// `wp publish`'s flags and file arguments checked before any file is read or anything sent: what may be
// combined, what --service-only can do, and the files the global `--json [fields]` took.
import { existsSync, statSync } from 'node:fs';
import { UsageError } from '../../../errors.js';
import { isMarkdownPath } from '../../../publishing/sources/markdown-path.js';
import { OUTPUT_FIELDS } from '../../common/publish-rows.js';
import type { Flags } from './command.js';

/** Flags that describe one post: refused with several files (each file has its own). */
const PER_POST_FLAGS = [
  ['title', '--title'],
  ['slug', '--slug'],
  ['excerpt', '--excerpt'],
  ['key', '--key'],
] as const;

/** With --service-only nothing is asked of the site: term names and image files cannot be used. */
export function checkServiceOnly(opts: Flags): void {
  const names = [...(opts.category ?? []), ...(opts.tag ?? [])]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim());
  if (names.some((n) => n && !/^\d+$/.test(n)))
    throw new UsageError(
      '--service-only: categories and tags must be given by id (names are looked up on the site)',
    );
  if (opts.featuredImage !== undefined)
    throw new UsageError(
      '--service-only: --featured-image uploads to the site; give --featured-media <id> instead',
    );
  if (opts.createTerms)
    throw new UsageError(
      '--service-only and --create-terms cannot go together: terms are created on the site',
    );
}

/** Flags that make `wp publish` without files one post of its own, not the project's sources. */
export function singlePostAsked(opts: Flags): boolean {
  return [opts.file, opts.fromBlog, opts.content, opts.contentFile, opts.title, opts.key].some(
    (v) => v !== undefined,
  );
}

export function checkCombinations(opts: Flags, files: string[]): void {
  if (opts.content !== undefined && opts.contentFile !== undefined)
    throw new UsageError('give either --content or --content-file, not both');
  // A file's namespace is its project's (or git work tree's): only a post without a file takes one.
  if (
    opts.namespace !== undefined &&
    (files.length || [opts.contentFile, opts.file].some((f) => f !== undefined && f !== '-'))
  )
    throw new UsageError(
      "--namespace is for a post without a file: a file's namespace is its project's (blogctl.yml)",
    );
  if (!files.length) return;
  const single = (
    [
      ['--content', opts.content],
      ['--content-file', opts.contentFile],
      ['-f', opts.file],
      ['--from-blog', opts.fromBlog],
    ] as const
  ).filter(([, v]) => v !== undefined);
  if (single.length) {
    throw new UsageError(
      `${single.map(([n]) => n).join(', ')} cannot be combined with FILE arguments: each file is a post of its own`,
    );
  }
  const perPost = PER_POST_FLAGS.filter(([k]) => opts[k] !== undefined).map(([, flag]) => flag);
  const several = files.length > 1 || files.some((f) => existsSync(f) && statSync(f).isDirectory());
  if (several && perPost.length) {
    throw new UsageError(
      `${perPost.join(', ')} describe${perPost.length === 1 ? 's' : ''} one post, but several files were given: set ${perPost.length === 1 ? 'it' : 'them'} in each file's front matter`,
    );
  }
}

/**
 * The global `--json [fields]` takes an optional value, so in `wp publish --json a.md b.md` commander hands
 * "a.md" to --json. A value that is not a list of output field names but names a post file (an existing
 * path, or a .md/.html name) goes back in front of the files.
 */
export function recoverFiles(
  files: string[],
  json: boolean | string | undefined,
): { files: string[]; json: boolean | string | undefined } {
  if (typeof json !== 'string' || json === '') return { files, json };
  const fields = json.split(',').map((f) => f.trim());
  if (fields.every((f) => (OUTPUT_FIELDS as readonly string[]).includes(f))) return { files, json };
  if (existsSync(json) || isMarkdownPath(json) || /\.html?$/i.test(json))
    return { files: [json, ...files], json: true };
  return { files, json };
}
