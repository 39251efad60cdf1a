// Pages and custom post types in a publish run: which type each source is (front matter `type:`, else its
// project source's `type:`, else `post`), checked against the types the site offers (wp/v2/types), the
// fields a type cannot take refused at their line, and the hierarchy — a source's parent from `parent:` or
// from its folder — with parents sent before their children.
//
// Hierarchy from folders (hierarchical types only, pages): `pages/about/team.md` is a child of
// `pages/about.md`, else of `pages/about/index.md`; `pages/about/index.md` itself is a child of the folder
// above's page (`pages.md` or `pages/index.md`, when it is a source of the run's folder). Never above the
// folder the run was given, nor above the project's root.
import { existsSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import type { WordPressClient } from '../wordpress/client.js';
import { coverTypes, postTypeOf, type PostType } from '../wordpress/post-types.js';
import { keySourceKey, type SourceKey } from './source-key.js';

/** A source's type as it was stated: the slug and where (`pages/a.md:2: type`, `blogctl.yml:4: sources[0].type`). */
interface TypeAsked {
  slug: string;
  at: string;
}

/**
 * A source's parent as stated: a post id on the site, another source by key, or a file (absolute path).
 * `fromFolder`: not stated but found by the folders (left out for a type without parents, never refused).
 */
export type ParentRef = { at: string; fromFolder?: boolean } & (
  { id: number } | { key: string } | { path: string }
);

/** What kind of post a source is and where it hangs, as its front matter (or project file) states it. */
export interface PostKind {
  postType?: TypeAsked;
  parent?: ParentRef;
  menuOrder?: { value: number; at: string };
  /** Terms of the type's own taxonomies by REST base (`cuisines`), resolved on the site when sent. */
  terms?: { value: Record<string, (string | number)[]>; at: string };
}

/**
 * `parent:` as written: a number is a post id on the site; a value naming a Markdown or HTML file (an
 * extension, or a `/`) is a file relative to the source's folder; anything else another source's `key`.
 */
export function parentRef(value: unknown, file: string, at: string): ParentRef {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return { at, id: value };
  if (typeof value === 'string' && value.trim() && !/[\r\n]/.test(value) && value.length <= 500) {
    const text = value.trim();
    if (/^\d{1,15}$/.test(text)) return { at, id: Number(text) };
    if (text.includes('/') || /\.(md|markdown|html?)$/i.test(text))
      return { at, path: isAbsolute(text) ? text : resolve(dirname(file), text) };
    return { at, key: text };
  }
  throw new UsageError(`${at}: expected a post id, another source's key or the path of its file`);
}

const PAGE_EXTENSIONS = ['.md', '.markdown'];

/**
 * The parent a file's folder gives it (see the header), or undefined. `top` is the folder the run was
 * given (or the project's root): no parent is looked for above it.
 */
export function folderParent(file: string, top: string): string | undefined {
  const path = resolve(file);
  const root = resolve(top);
  const dir = dirname(path);
  // The folder whose page is the parent: the file's own, or for an index page (its folder's page) the one above.
  const folder = basename(path, extname(path)) === 'index' ? dirname(dir) : dir;
  if (folder === root || !inside(folder, root)) return undefined;
  return [
    ...PAGE_EXTENSIONS.map((e) => `${folder}${e}`),
    ...PAGE_EXTENSIONS.map((e) => join(folder, `index${e}`)),
  ]
    .filter((c) => c !== path)
    .find((c) => existsSync(c));
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

/** What the plan needs of a source for its type and hierarchy. */
export interface TypedSource {
  name: string;
  postType?: TypeAsked;
  parent?: ParentRef;
  terms?: PostKind['terms'];
  sourceKey?: SourceKey;
  /** Where each field's value came from (`pages/a.md:5: tags`). */
  origin?: Record<string, string>;
  /** The fields it sends, by name (to refuse what its type cannot take). */
  fields: Record<string, unknown>;
  categories?: unknown[];
  tags?: unknown[];
}

/**
 * Every source's type as the site knows it (a type the site does not offer is an input error at the line
 * naming it), the fields each type cannot take refused at their line, and the look-ups made to cover every
 * type the run names. Returns the type of each source (posts for those that name none), and the problems
 * found, one line each: the caller reports them all together.
 */
export async function checkTypes(
  client: WordPressClient,
  sources: TypedSource[],
): Promise<{ types: PostType[]; problems: string[] }> {
  const problems: string[] = [];
  const bySlug = new Map<string, PostType | undefined>();
  const types: PostType[] = [];
  for (const source of sources) {
    const asked = source.postType ?? { slug: 'post', at: source.name };
    let type = bySlug.get(asked.slug);
    if (!bySlug.has(asked.slug)) {
      try {
        type = await postTypeOf(client, asked.slug, asked.at);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        problems.push(error.message);
      }
      bySlug.set(asked.slug, type);
    } else if (!type) {
      problems.push(`${asked.at}: the site has no post type "${asked.slug}"`);
    }
    if (!type) {
      types.push({ slug: asked.slug, route: '', hierarchical: false, taxonomies: [] });
      continue;
    }
    types.push(type);
    problems.push(...refusedFields(source, type));
  }
  coverTypes(
    client,
    types.filter((t) => t.route).map((t) => t.route),
  );
  return { types, problems };
}

/** The fields a source sets that its type cannot take, at their lines. */
function refusedFields(source: TypedSource, type: PostType): string[] {
  const at = (field: string): string => source.origin?.[field] ?? `${source.name}: ${field}`;
  // A project's defaults are for every source: a type that cannot take one leaves it out (defaultsFor).
  const stated = (field: string): boolean => !isDefault(source.origin, field);
  const problems: string[] = [];
  const has = (taxonomy: string): boolean => type.taxonomies.some((t) => t.slug === taxonomy);
  if (source.categories?.length && !has('category') && stated('categories'))
    problems.push(`${at('categories')}: the post type "${type.slug}" has no categories`);
  if (source.tags?.length && !has('post_tag') && stated('tags'))
    problems.push(`${at('tags')}: the post type "${type.slug}" has no tags`);
  if (!type.hierarchical) {
    if (source.parent)
      problems.push(
        `${source.parent.at}: the post type "${type.slug}" has no parents (it is not hierarchical)`,
      );
    if (source.fields['menu_order'] !== undefined)
      problems.push(
        `${at('menu_order')}: the post type "${type.slug}" has no order (it is not hierarchical)`,
      );
  }
  for (const base of Object.keys(source.terms?.value ?? {}))
    if (!type.taxonomies.some((t) => t.restBase === base))
      problems.push(
        `${source.terms!.at}: the post type "${type.slug}" has no taxonomy "${base}" (its taxonomies: ${type.taxonomies.map((t) => t.restBase).join(', ') || 'none'})`,
      );
  if (type.slug !== 'post') {
    for (const field of ['sticky', 'format'] as const)
      if (source.fields[field] !== undefined && stated(field))
        problems.push(`${at(field)}: only posts take ${field} (this source is a ${type.slug})`);
  }
  return problems;
}

/** Whether a field's value came from the project's `defaults` (its name ends `defaults.<field>`). */
export function isDefault(origin: Record<string, string> | undefined, field: string): boolean {
  return origin?.[field]?.endsWith(`defaults.${field}`) === true;
}

/** A source's parent as the run knows it: the post id, or the source (by key) whose post it is. */
export type ParentLink = { id: number } | { source: SourceKey };

/**
 * Each source's parent as a post id or another source's key (undefined: none). `identityOf` gives the source
 * key of a file that is not one of the run's sources (its front matter key, slug or path), or undefined
 * when it cannot be read (then the parent is an input error at the line naming it).
 */
export function linkParents(
  sources: (TypedSource & { file?: string })[],
  identityOf: (path: string) => SourceKey | undefined,
): { links: (ParentLink | undefined)[]; problems: string[] } {
  const byFile = new Map<string, TypedSource>();
  for (const s of sources) if (s.file) byFile.set(resolve(s.file), s);
  const problems: string[] = [];
  const links = sources.map((source): ParentLink | undefined => {
    const ref = source.parent;
    if (!ref) return undefined;
    if ('id' in ref) return { id: ref.id };
    if ('key' in ref) return { source: keySourceKey(ref.key) };
    const other = byFile.get(resolve(ref.path));
    const key = other ? other.sourceKey : identityOf(ref.path);
    if (!key) {
      problems.push(`${ref.at}: ${relative(process.cwd(), ref.path) || ref.path}: no such source`);
      return undefined;
    }
    return { source: key };
  });
  // A source may not be its own ancestor.
  const keyed = new Map<SourceKey, number>();
  sources.forEach((s, i) => s.sourceKey && keyed.set(s.sourceKey, i));
  sources.forEach((source, i) => {
    const seen = new Set<number>([i]);
    for (let link = links[i]; link && 'source' in link;) {
      const j = keyed.get(link.source);
      if (j === undefined) break;
      if (seen.has(j)) {
        problems.push(`${source.parent!.at}: the parents of ${source.name} go round in a circle`);
        break;
      }
      seen.add(j);
      link = links[j];
    }
  });
  return { links, problems };
}

/**
 * The order a run sends its sources in: every parent before its children (depth first by generation), the
 * given order kept otherwise. Indexes into `links`.
 */
export function parentsFirst(links: (ParentLink | undefined)[], keys: (SourceKey | undefined)[]): number[] {
  const index = new Map<SourceKey, number>();
  keys.forEach((k, i) => k && index.set(k, i));
  const depth = new Map<number, number>();
  const depthOf = (i: number, guard = 0): number => {
    const known = depth.get(i);
    if (known !== undefined) return known;
    const link = links[i];
    const parent = link && 'source' in link ? index.get(link.source) : undefined;
    const d = parent === undefined || guard > links.length ? 0 : depthOf(parent, guard + 1) + 1;
    depth.set(i, d);
    return d;
  };
  return links.map((_, i) => i).sort((a, b) => depthOf(a) - depthOf(b) || a - b);
}
