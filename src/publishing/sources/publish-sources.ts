// Where a `wp publish` post comes from, read into content layers: a Markdown or HTML file (a positional
// file, a folder of them, or --content-file), a `-f` payload, a generated blog, flags. Also decides each
// post's source — what names it on the site (publishing/identity.ts):
//
//   front matter `key` or --key → front matter `blog_id` or --from-blog → the slug (front matter or --slug)
//   → the file's path relative to its project's root, else its git work tree's root (never to where blogctl
//   runs) → for a Markdown file outside both, the front matter key it is given (loose-key.ts) → none (flags
//   alone, stdin, or a file blogctl may not write: always a new post, and blogctl says so).
import { readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { NotFoundError, UsageError } from '../../errors.js';
import type { IO } from '../../output/io.js';
import type { ServicePort } from '../ports.js';
import {
  blogSourceKey,
  checkKey,
  fileSourceKey,
  keySourceKey,
  slugSourceKey,
  type SourceKey,
} from '../source-key.js';
import { isMarkdownPath } from './markdown-path.js';
import { contentFromObject, type ContentLayer } from './post-payload.js';
import { titleTextToHtml } from '../title-text.js';
import { frontMatterLayer } from './publish-draft.js';
import type { BlogContent } from './blog-source.js';
import { problemLines, type JobSpec } from './publish-job.js';
import { frontMatterName } from './front-matter-lines.js';
import type { Scope } from '../../project/scope.js';
import type { PostContent } from '../../schemas/wordpress.js';
import { decodeEntities } from '../../lib/html-entities.js';
import { decodeUtf8 } from '../../lib/utf8.js';
import { readText, sourceName, type StdinReader } from '../../lib/input-files.js';
import { projectLayer } from './project-defaults.js';
import type { MarkdownPost } from './markdown.js';
import { folderParent, parentRef, type PostKind } from '../post-kinds.js';
import type { NewKey } from './loose-key.js';
import type { SourceImages } from './inline-images.js';
import type { SourceLinks } from './source-links.js';
import type { InlineImage, SourceLink } from './content-tokens.js';

// The Markdown and YAML parsers load only for a Markdown file, once per run (each import() of a bundled chunk
// copies its exports anew).
let markdown: Promise<typeof import('./markdown.js')> | undefined;
const markdownModule = (): Promise<typeof import('./markdown.js')> => (markdown ??= import('./markdown.js'));

/** What a file names itself as, in its front matter. */
interface FileIdentity {
  key?: string;
  blogId?: string;
  /** Where the front matter `key` (else `blog_id`) is written: `posts/a.md:2`. */
  at?: string;
}

/** A file read as a post: its layer, a front matter image, warnings, and what it says its source is. */
interface FileLayer {
  layer: ContentLayer;
  featuredImage?: { path: string; name: string };
  warnings: string[];
  identity: FileIdentity;
  /** Its front matter `type`, `parent` and `menu_order` (post-kinds.ts). */
  kind?: PostKind;
  /** The local images its body uses (inline-images.ts). */
  images?: InlineImage[];
  /** The links of its body to other source files (source-links.ts). */
  links?: SourceLink[];
}

/**
 * A Markdown file (front matter + body converted to HTML) or anything else as HTML: a whole document gives
 * its `<body>`, and its title comes from `<title>`, else its first `<h1>` (which then leaves the body, as a
 * Markdown `# heading` does). `-` is stdin, taken as HTML.
 */
async function readPostFile(
  path: string,
  flag: string,
  deps: StdinReader,
  /** The project's `defaults.editor`: how a Markdown body whose front matter names no editor is sent. */
  editor?: 'classic' | 'blocks',
  /**
   * Read the body's local images (inline-images.ts), which must be inside `root` (the project's or git work
   * tree's, else the file's folder); undefined: left as written.
   */
  images?: { root: string | undefined },
): Promise<{ file: FileLayer; text: string }> {
  if (path === '-') {
    const text = await readText(path, flag, deps);
    return {
      text,
      file: { layer: { values: { content: text }, names: { content: flag } }, warnings: [], identity: {} },
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
  const text = decodeUtf8(bytes, `${flag === 'FILE' ? '' : `${flag} `}${path}`);
  // Loaded with the first file (they hash with node:crypto, which a post from flags alone never needs).
  const [{ SourceImages }, { SourceLinks, rewriteHtmlLinks }] = await Promise.all([
    import('./inline-images.js'),
    import('./source-links.js'),
  ]);
  const found = new SourceImages(path, dirname(resolve(path)), images?.root);
  const resolveImage = images && ((src: string, line: number) => found.resolve(src, line));
  const rewriteHtml =
    resolveImage && /<img/i.test(text) ? (await import('./html-images.js')).rewriteHtmlImages : undefined;
  const links = new SourceLinks(path, dirname(resolve(path)));
  if (!isMarkdownPath(path)) {
    const withLinks = rewriteHtmlLinks(text, 1, links.resolve);
    const file = htmlFile(
      rewriteHtml && resolveImage ? rewriteHtml(withLinks, 1, resolveImage) : withLinks,
      path,
    );
    return { text, file: withLinksOf(withImages(file, found), links) };
  }
  const { parseMarkdownPost } = await markdownModule();
  const post = parseMarkdownPost(text, {
    path,
    ...(editor && { editor }),
    ...(resolveImage && { images: resolveImage }),
    ...(rewriteHtml && { rewriteHtml }),
    links: links.resolve,
  });
  const warnings = post.ignoredKeys.length ? [unusedKeys(path, post.ignoredKeys, post.lines)] : [];
  const idLine = post.lines[post.fields.key !== undefined ? 'key' : 'blog_id'];
  const image = post.fields.featured_image;
  const kind = postKind(post, path);
  return {
    text,
    file: withLinksOf(
      withImages(
        {
          layer: frontMatterLayer(post, path),
          ...(image && {
            featuredImage: {
              path: image,
              name: frontMatterName(path, 'featured_image', post.lines['featured_image']),
            },
          }),
          warnings,
          ...(kind && { kind }),
          identity: {
            ...(post.fields.key !== undefined && { key: post.fields.key }),
            ...(post.fields.blog_id !== undefined && { blogId: post.fields.blog_id }),
            ...(idLine !== undefined && { at: `${path}:${idLine}` }),
          },
        },
        found,
      ),
      links,
    ),
  };
}

/** A file with its links to other source files (source-links.ts). */
function withLinksOf(file: FileLayer, links: SourceLinks): FileLayer {
  return links.links.length ? { ...file, links: links.links } : file;
}

/** A file with its images, or its image problems as its input errors (each at its line). */
function withImages(file: FileLayer, images: SourceImages): FileLayer {
  if (images.problems.length) throw new UsageError(images.problems.join('; '), { inputs: images.problems });
  return images.images.length ? { ...file, images: images.images } : file;
}

/** A file's front matter `type`, `parent` and `menu_order`, each with its line; undefined when it has none. */
function postKind(post: MarkdownPost, path: string): PostKind | undefined {
  const at = (field: string): string => frontMatterName(path, field, post.lines[field]);
  const { type, parent, menu_order: menuOrder, terms } = post.fields;
  if (type === undefined && parent === undefined && menuOrder === undefined && terms === undefined)
    return undefined;
  return {
    ...(terms !== undefined && { terms: { value: terms, at: at('terms') } }),
    ...(type !== undefined && { postType: { slug: type, at: at('type') } }),
    ...(parent !== undefined && { parent: parentRef(parent, path, at('parent')) }),
    ...(menuOrder !== undefined && { menuOrder: { value: menuOrder, at: at('menu_order') } }),
  };
}

/**
 * The front matter keys blogctl does not use, at the line of the first: `posts/a.md:2: front matter not
 * used: layout` (several: `layout, draft (line 5)`).
 */
function unusedKeys(path: string, keys: string[], lines: Record<string, number>): string {
  const first = lines[keys[0]!];
  const named = keys.map((k, i) => (i > 0 && lines[k] !== undefined ? `${k} (line ${lines[k]})` : k));
  return `${path}${first === undefined ? '' : `:${first}`}: front matter not used: ${named.join(', ')}`;
}

/** An HTML file as a layer: the body of a whole document, and a title from `<title>` or the first `<h1>`. */
function htmlFile(text: string, path: string): FileLayer {
  let body = text;
  const inBody = /<body\b[^>]*>([\s\S]*?)(?:<\/body>|$)/i.exec(text);
  if (inBody) body = inBody[1]!;
  const plain = (html: string): string =>
    decodeEntities(html.replace(/<[^>]*>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim();
  let title = plain(/<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1] ?? '');
  let titleFrom = `${path}: <title>`;
  if (!title) {
    const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(body);
    if (h1 && plain(h1[1]!)) {
      title = plain(h1[1]!);
      titleFrom = `${path}: <h1>`;
      body = body.slice(0, h1.index) + body.slice(h1.index + h1[0].length);
    }
  }
  const values: Record<string, unknown> = { content: body.trim() };
  const names: Record<string, string> = { content: path };
  if (title) {
    // The title is the text the element shows: sent escaped, so `&lt;b&gt;` stays text (title-text.ts).
    values['title'] = titleTextToHtml(title);
    names['title'] = titleFrom;
  }
  return { layer: { values, names }, warnings: [], identity: {} };
}

/** The flag image wins over the front matter one; a --featured-media id drops the front matter image. */
function pickImage(
  flags: { featuredImage?: string; featuredMedia?: string },
  fromFile: FileLayer['featuredImage'],
): JobSpec['featuredImage'] {
  if (flags.featuredImage !== undefined) return { path: flags.featuredImage, name: '--featured-image' };
  if (flags.featuredMedia !== undefined) return undefined;
  return fromFile;
}

/** The source of a post, in the order of the file's header: key, blog, slug, then the fallback. */
function sourceOf(
  identity: FileIdentity,
  key: string | undefined,
  fallback: SourceKey | undefined,
): (content: PostContent) => SourceKey | undefined {
  return (content) => {
    if (key !== undefined) return keySourceKey(key);
    if (identity.key !== undefined) return keySourceKey(identity.key);
    if (identity.blogId !== undefined) return blogSourceKey(identity.blogId);
    if (content.slug?.trim()) return slugSourceKey(content.slug.trim());
    return fallback;
  };
}

/**
 * A source's kind: its front matter's, else the type its project gives the folder it is in
 * (`sources: [{path: pages, type: page}]`); a typed source's parent from its folders (post-kinds.ts
 * folderParent) when its front matter states none, never above that project folder (else the project's or
 * git work tree's root).
 */
function withFolderParent(kind: PostKind | undefined, path: string, scope: Scope): PostKind | undefined {
  const abs = resolve(path);
  const given = scope.project?.sourceTypes
    ?.filter((t) => abs.startsWith(t.path + sep))
    .sort((a, b) => b.path.length - a.path.length)[0];
  const typed: PostKind | undefined =
    kind?.postType || !given ? kind : { ...kind, postType: { slug: given.type, at: given.at } };
  if (!typed?.postType || typed.postType.slug === 'post' || typed.parent) return typed;
  const top = given?.path ?? scope.root;
  if (top === undefined) return typed;
  const parent = folderParent(path, top);
  return parent === undefined
    ? typed
    : { ...typed, parent: { at: `${path}: its folder`, path: parent, fromFolder: true } };
}

/** The source key a file names its post by (front matter key, blog, slug, else its path): for a parent. */
export async function fileIdentityKey(
  path: string,
  scope: Scope,
  stdin: StdinReader,
): Promise<SourceKey | undefined> {
  try {
    const { file } = await readPostFile(path, 'FILE', stdin);
    const slug = file.layer.values['slug'];
    return sourceOf(
      file.identity,
      undefined,
      fileFallback(path, scope).fallback,
    )({
      slug: typeof slug === 'string' ? slug : undefined,
    } as PostContent);
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}

/**
 * A file's fallback source: its path from the scope's root; outside a project and git, none. The advice
 * names what the file can carry: a Markdown file a front matter "key", anything else (a -f payload, HTML)
 * only --key.
 */
function fileFallback(
  path: string,
  scope: Scope,
  markdown = /\.(md|markdown)$/i.test(path),
): { fallback?: SourceKey; untracked?: string } {
  if (scope.root !== undefined) return { fallback: fileSourceKey(path, scope.root) };
  return {
    untracked: `${path} is in no project and no git work tree: its post cannot be found again, so publishing it again makes another post (run \`blogctl wp init\` in its folder, or ${markdown ? 'give it a front matter "key"' : 'give it a --key'})`,
  };
}

/**
 * The front matter key a file outside any project and git work tree gets (loose-key.ts), when it names no
 * post itself (no front matter key or blog) and blogctl may write it; stdin never gets one.
 */
async function keyFor(path: string, text: string, file: FileLayer): Promise<NewKey | undefined> {
  if (path === '-' || file.identity.key !== undefined || file.identity.blogId !== undefined) return undefined;
  const { plannedKey } = await import('./loose-key.js');
  return plannedKey(path, text);
}

export interface SingleInput {
  file?: { content?: Record<string, unknown>; name: string; path?: string };
  fromBlog?: string;
  contentFile?: string;
  content?: string;
  key?: string;
  featuredImage?: string;
  featuredMedia?: string;
}

/**
 * One post from -f, --from-blog, --content-file, --content and the flags (later wins). Its source: --key;
 * else the blog (--from-blog); else the slug sent; else the content file, or the -f file, by its path; else
 * none (a post from flags alone is always a new post).
 */
export async function singleSpec(
  input: SingleInput,
  flagLayer: ContentLayer,
  deps: StdinReader & ServicePort,
  scope: Scope,
): Promise<{ spec: JobSpec; warnings: string[] }> {
  const layers: ContentLayer[] = [...projectLayer(scope)];
  const warnings: string[] = [];
  let identity: FileIdentity = {};
  let fallback: SourceKey | undefined;
  let untracked: string | undefined;
  if (input.file?.content) layers.push(contentFromObject(input.file.content, input.file.name));
  if (input.file?.path !== undefined) ({ fallback, untracked } = fileFallback(input.file.path, scope, false));
  let image: JobSpec['featuredImage'];
  let blog: JobSpec['blog'];
  let kind: PostKind | undefined;
  let images: InlineImage[] | undefined;
  let links: SourceLink[] | undefined;
  if (input.fromBlog !== undefined) {
    const fromBlog = await blogLayer(input.fromBlog, deps);
    layers.push(fromBlog.layer);
    blog = fromBlog.blog;
    identity = { blogId: input.fromBlog };
  }
  let newKey: NewKey | undefined;
  if (input.contentFile !== undefined) {
    const { file, text } = await readPostFile(
      input.contentFile,
      '--content-file',
      deps,
      scope.project?.defaults.editor,
      { root: scope.root },
    );
    layers.push(file.layer);
    warnings.push(...file.warnings);
    image = file.featuredImage;
    images = file.images;
    kind = file.kind;
    links = file.links;
    if (input.fromBlog === undefined) identity = file.identity;
    if (input.contentFile !== '-') ({ fallback, untracked } = fileFallback(input.contentFile, scope));
    if (untracked !== undefined && input.key === undefined && input.fromBlog === undefined)
      newKey = await keyFor(input.contentFile, text, file);
  }
  if (input.content !== undefined)
    layers.push({ values: { content: input.content }, names: { content: '--content' } });
  layers.push(flagLayer);
  const key = input.key === undefined ? undefined : checkKey(input.key);
  const name =
    input.fromBlog !== undefined
      ? `blog ${input.fromBlog}`
      : input.contentFile !== undefined
        ? sourceName(input.contentFile)
        : (input.file?.name ?? 'flags');
  return {
    spec: {
      name,
      layers,
      featuredImage: pickImage(input, image),
      source: sourceOf(identity, key, fallback),
      ...(untracked !== undefined && { untracked }),
      ...(newKey && { newKey }),
      ...(blog && { blog }),
      ...(kind && { kind }),
      ...(images && { images }),
      ...(links && { links }),
    },
    warnings,
  };
}

/**
 * One post per file, the shared flags over each file's own fields over the project's defaults. Every file is
 * read, and the files that cannot be are returned as `problems` (the caller reports them with the rest): all
 * of a folder's input errors come together, each naming its file.
 */
export async function fileSpecs(
  paths: string[],
  flagLayer: ContentLayer,
  flags: {
    key?: string;
    featuredImage?: string;
    featuredMedia?: string;
    /** A run that publishes (wp publish): a file outside any project and git work tree gets a key. */
    newKeys?: boolean;
  },
  deps: StdinReader,
  scope: Scope,
): Promise<{ specs: JobSpec[]; warnings: string[]; problems: string[] }> {
  const specs: JobSpec[] = [];
  const warnings: string[] = [];
  const problems: string[] = [];
  const key = flags.key === undefined ? undefined : checkKey(flags.key);
  const defaults = projectLayer(scope);
  for (const path of paths) {
    if (path === '-') throw new UsageError('FILE "-": read a post from stdin with --content-file - instead');
    let file: FileLayer;
    let text: string;
    try {
      ({ file, text } = await readPostFile(path, 'FILE', deps, scope.project?.defaults.editor, {
        root: scope.root,
      }));
    } catch (error) {
      if (!(error instanceof UsageError) || paths.length === 1) throw error;
      problems.push(...problemLines(error, path));
      continue;
    }
    warnings.push(...file.warnings);
    const { fallback, untracked } = fileFallback(path, scope);
    const newKey =
      flags.newKeys && untracked !== undefined && key === undefined
        ? await keyFor(path, text, file)
        : undefined;
    const kind = withFolderParent(file.kind, path, scope);
    specs.push({
      name: path,
      ...(kind && { kind }),
      layers: [...defaults, file.layer, flagLayer],
      featuredImage: pickImage(flags, file.featuredImage),
      source: sourceOf(file.identity, key, fallback),
      ...(untracked !== undefined && { untracked }),
      ...(newKey && { newKey }),
      ...(key === undefined && file.identity.at !== undefined && { keyAt: file.identity.at }),
      ...(file.images && { images: file.images }),
      ...(file.links && { links: file.links }),
    });
  }
  return { specs, warnings, problems };
}

/**
 * Every input error of a batch: each on a line of its own (`error: posts/a.md: …`, a CI log keeps them all),
 * then one line saying nothing was published, whose exit code (2) ends the run.
 */
export function inputErrors(problems: string[], io: Pick<IO, 'error'>, sources: string[] = []): UsageError {
  // `inputs`: each problem for the GitHub annotations and the Markdown plan (cli/run.ts, publish/markdown-report.ts).
  if (problems.length === 1)
    return new UsageError(`${problems[0]!}; nothing was published`, { inputs: problems });
  for (const problem of problems) io.error(problem);
  // A source may have several errors (two bad fields): the line counts both.
  const failed = sources.filter((s) => problems.some((p) => p.startsWith(`${s}:`))).length;
  const counted =
    failed && failed < problems.length
      ? `${problems.length} errors in ${failed} source${failed === 1 ? '' : 's'}`
      : `${problems.length} sources have errors`;
  return new UsageError(`${counted} (each named above); nothing was published`, { inputs: problems });
}

/**
 * `--from-blog <id>`: the title, content, excerpt and slug of a generated blog (the service has no get-one
 * endpoint), compared as its Markdown file would be (blog-source.ts).
 */
async function blogLayer(blogId: string, deps: ServicePort): Promise<BlogContent> {
  const { blog } = await (await deps.blogApi()).findBlog(blogId);
  if (!blog)
    throw new NotFoundError(`--from-blog: no blog with id "${blogId}"`, {
      hints: ['list them with `blogctl blog list`'],
    });
  const content = blog['content'];
  if (typeof content !== 'string' || !content)
    throw new UsageError(`--from-blog: blog "${blogId}" has no content to publish`);
  // Loaded only for a blog: the HTML-to-Markdown converter and the Markdown parser.
  const { blogContent } = await import('./blog-source.js');
  return blogContent(blog, '--from-blog');
}
