// Where a `wp publish` post comes from, read into content layers: a Markdown or HTML file (a positional
// file, or --content-file), a `-f` payload, a generated blog, flags. Also decides each post's journal identity.
import { readFileSync } from 'node:fs';
import { NotFoundError, UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import {
  blogSource,
  fileSource,
  flagsSource,
  keySource,
  type JournalSource,
} from '../../publishing/journal.js';
import { isMarkdownPath } from '../../publishing/markdown-path.js';
import { contentFromObject, type ContentLayer } from '../../publishing/post-payload.js';
import { frontMatterLayer } from '../../publishing/publish-draft.js';
import type { JobSpec } from '../../publishing/publish-job.js';
import type { PostContent } from '../../schemas/wordpress.js';
import { readText, sourceName } from './input.js';

// The Markdown and YAML parsers load only for a Markdown file, once per run (each import() of a bundled chunk
// copies its exports anew).
let markdown: Promise<typeof import('../../publishing/markdown.js')> | undefined;
const markdownModule = (): Promise<typeof import('../../publishing/markdown.js')> =>
  (markdown ??= import('../../publishing/markdown.js'));

/** A file read as a post: its layer, a front matter image, warnings, and the bytes for the journal. */
export interface FileLayer {
  layer: ContentLayer;
  featuredImage?: { path: string; name: string };
  warnings: string[];
  /** The file's path and content hash; none for stdin (the post's title and content identify it then). */
  source?: JournalSource;
}

/**
 * A Markdown file (front matter + body converted to HTML) or anything else as HTML, as-is. `-` is stdin,
 * taken as HTML.
 */
export async function readPostFile(
  path: string,
  flag: string,
  deps: Pick<Deps, 'readStdin'>,
): Promise<{ file: FileLayer; text: string }> {
  if (path === '-') {
    const text = await readText(path, flag, deps);
    return {
      text,
      file: {
        layer: { values: { content: text }, names: { content: flag } },
        warnings: [],
      },
    };
  }
  let bytes: Buffer;
  try {
    // Synchronous on purpose: nothing else runs while posts are read, and a batch of 500 small files read
    // one by one through the thread pool (open, stat, read, close: four hops each) spent most of its time
    // waiting between them.
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new UsageError(`${flag === 'FILE' ? '' : `${flag}: `}cannot read ${path}: ${why}`);
  }
  const text = bytes.toString('utf8');
  const source = fileSource(path, bytes);
  if (!isMarkdownPath(path)) {
    return {
      text,
      file: { layer: { values: { content: text }, names: { content: path } }, warnings: [], source },
    };
  }
  const { parseMarkdownPost } = await markdownModule();
  const post = parseMarkdownPost(text, { path });
  const warnings = post.ignoredKeys.length
    ? [`${path}: front matter not used: ${post.ignoredKeys.join(', ')}`]
    : [];
  const image = post.fields.featured_image;
  return {
    text,
    file: {
      layer: frontMatterLayer(post, path),
      ...(image && { featuredImage: { path: image, name: `${path}: front matter "featured_image"` } }),
      warnings,
      source,
    },
  };
}

/** The flag image wins over the front matter one; a --featured-media id drops the front matter image. */
export function pickImage(
  flags: { featuredImage?: string; featuredMedia?: string },
  fromFile: FileLayer['featuredImage'],
): JobSpec['featuredImage'] {
  if (flags.featuredImage !== undefined) return { path: flags.featuredImage, name: '--featured-image' };
  if (flags.featuredMedia !== undefined) return undefined;
  return fromFile;
}

export interface SingleInput {
  file?: { content?: Record<string, unknown>; name: string; bytes?: string };
  fromBlog?: string;
  contentFile?: string;
  content?: string;
  key?: string;
  featuredImage?: string;
  featuredMedia?: string;
}

/**
 * One post from -f, --from-blog, --content-file, --content and the flags (later wins). Its journal identity:
 * --key, which is the whole identity (the same key is one publish whatever the post's fields); else the blog
 * (--from-blog); else the content file, or the -f file, by path and content; else the title and content as
 * sent. makeJob adds the fingerprint of the post as sent to all but --key, so a flag that changes the post
 * (another --title, --status, --category…) makes it another publish rather than "already published".
 */
export async function singleSpec(
  input: SingleInput,
  flagLayer: ContentLayer,
  deps: Pick<Deps, 'readStdin' | 'blogApi'>,
): Promise<{ spec: JobSpec; warnings: string[] }> {
  const layers: ContentLayer[] = [];
  const warnings: string[] = [];
  let source: JournalSource | ((c: PostContent) => JournalSource) = (c) => flagsSource(c.title, c.content);
  if (input.file?.content) layers.push(contentFromObject(input.file.content, input.file.name));
  if (input.file?.bytes !== undefined) source = fileSource(input.file.name, input.file.bytes);
  let image: JobSpec['featuredImage'];
  if (input.fromBlog !== undefined) {
    layers.push(await blogLayer(input.fromBlog, deps));
    source = blogSource(input.fromBlog);
  }
  if (input.contentFile !== undefined) {
    const { file } = await readPostFile(input.contentFile, '--content-file', deps);
    layers.push(file.layer);
    warnings.push(...file.warnings);
    image = file.featuredImage;
    if (file.source && input.fromBlog === undefined) source = file.source;
  }
  if (input.content !== undefined)
    layers.push({ values: { content: input.content }, names: { content: '--content' } });
  layers.push(flagLayer);
  if (input.key !== undefined) source = keySource(checkKey(input.key));
  const name =
    input.fromBlog !== undefined
      ? `blog ${input.fromBlog}`
      : input.contentFile !== undefined
        ? sourceName(input.contentFile)
        : (input.file?.name ?? 'flags');
  return { spec: { name, layers, featuredImage: pickImage(input, image), source }, warnings };
}

/** One post per positional file, the shared flags over each file's own fields. */
export async function fileSpecs(
  paths: string[],
  flagLayer: ContentLayer,
  flags: { key?: string; featuredImage?: string; featuredMedia?: string },
  deps: Pick<Deps, 'readStdin'>,
): Promise<{ specs: JobSpec[]; warnings: string[] }> {
  const specs: JobSpec[] = [];
  const warnings: string[] = [];
  for (const path of paths) {
    if (path === '-') throw new UsageError('FILE "-": read a post from stdin with --content-file - instead');
    const { file } = await readPostFile(path, 'FILE', deps);
    warnings.push(...file.warnings);
    specs.push({
      name: path,
      layers: [file.layer, flagLayer],
      featuredImage: pickImage(flags, file.featuredImage),
      source: flags.key !== undefined ? keySource(checkKey(flags.key)) : file.source!,
    });
  }
  return { specs, warnings };
}

export function checkKey(key: string): string {
  const k = key.trim();
  if (!k || k.length > 500 || /[\r\n]/.test(k))
    throw new UsageError('--key: give a non-empty key on one line (at most 500 characters)');
  return k;
}

/** `--from-blog <id>`: the title and content of a generated blog (the service has no get-one endpoint). */
export async function blogLayer(blogId: string, deps: Pick<Deps, 'blogApi'>): Promise<ContentLayer> {
  const { blog } = await (await deps.blogApi()).findBlog(blogId);
  if (!blog)
    throw new NotFoundError(`--from-blog: no blog with id "${blogId}"`, {
      hints: ['list them with `blogctl blog list`'],
    });
  const content = blog['content'];
  if (typeof content !== 'string' || !content)
    throw new UsageError(`--from-blog: blog "${blogId}" has no content to publish`);
  return {
    values: { title: blog.title, content },
    names: { title: '--from-blog (title)', content: '--from-blog (content)' },
  };
}
