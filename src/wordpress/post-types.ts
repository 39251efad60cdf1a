// The site's post types as its REST API shows them (`wp/v2/types`, `wp/v2/taxonomies`): which route a type's
// posts are created, updated, read and trashed at (its `rest_namespace`/`rest_base`: `wp/v2/pages`, a
// custom type's `wp/v2/recipes`), whether its posts have parents, and which taxonomies it takes, each by
// its REST base (`categories`, `tags`, a custom `cuisines`). A post's `type` is WordPress's slug for it
// (`post`, `page`, `recipe`); only the route differs between types, never how a post is published.
import * as z from 'zod/mini';
import { NotFoundError, UsageError } from '../errors.js';
import type { WordPressClient } from './client.js';

interface PostTaxonomy {
  /** WordPress's slug (`category`, `post_tag`, `cuisine`). */
  slug: string;
  /** Its REST base (`categories`, `tags`, `cuisines`): the post field holding its term ids. */
  restBase: string;
  /** The route of its terms (`wp/v2/cuisines`). */
  route: string;
}

export interface PostType {
  /** WordPress's slug (`post`, `page`, `recipe`): what front matter's `type:` names. */
  slug: string;
  /** Its route (`wp/v2/posts`, `wp/v2/pages`, `wp/v2/recipes`). */
  route: string;
  /** Posts of a hierarchical type (pages) have a parent. */
  hierarchical: boolean;
  taxonomies: PostTaxonomy[];
}

/** The route of the type every run knows without asking: posts. */
const POSTS_ROUTE = 'wp/v2/posts';

const typeList = z.record(
  z.string(),
  z.looseObject({
    slug: z.optional(z.string()),
    rest_base: z.optional(z.nullable(z.union([z.string(), z.boolean()]))),
    rest_namespace: z.optional(z.nullable(z.union([z.string(), z.boolean()]))),
    hierarchical: z.optional(z.boolean()),
    taxonomies: z.optional(z.array(z.string())),
  }),
);

/** Types blogctl never publishes to: they are WordPress's own machinery, not posts people read. */
const NOT_POSTS = new Set([
  'attachment',
  'nav_menu_item',
  'wp_block',
  'wp_template',
  'wp_template_part',
  'wp_navigation',
  'wp_global_styles',
  'wp_font_family',
  'wp_font_face',
]);

/** A REST base or namespace as WordPress may send it: a path of word characters, `-` and `/`. */
const ROUTE_PART = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

function routeOf(namespace: unknown, base: unknown, slug: string): string | undefined {
  const ns = typeof namespace === 'string' && namespace ? namespace : 'wp/v2';
  const b = typeof base === 'string' && base ? base : slug;
  return ROUTE_PART.test(ns) && ROUTE_PART.test(b) ? `${ns}/${b}` : undefined;
}

const known = new WeakMap<WordPressClient, Promise<Map<string, PostType>>>();

/**
 * Every type the site publishes through REST (`show_in_rest`), by slug, read once per client (a run's
 * look-ups and writes share it). A failed read is not kept: the next call asks again.
 */
export function siteTypes(
  client: WordPressClient,
  label = 'read the site’s post types',
): Promise<Map<string, PostType>> {
  let types = known.get(client);
  if (!types) {
    types = readTypes(client, label);
    known.set(client, types);
    types.catch(() => known.delete(client));
  }
  return types;
}

async function readTypes(client: WordPressClient, label: string): Promise<Map<string, PostType>> {
  const [types, taxonomies] = await Promise.all([
    client.route('wp/v2/types', { method: 'GET', params: { context: 'view' }, schema: typeList, label }),
    client.route('wp/v2/taxonomies', { method: 'GET', params: { context: 'view' }, schema: typeList, label }),
  ]);
  const taxonomy = new Map<string, PostTaxonomy>();
  for (const [key, t] of Object.entries(taxonomies.body)) {
    const slug = t.slug ?? key;
    const route = routeOf(t.rest_namespace, t.rest_base, slug);
    if (route) taxonomy.set(slug, { slug, restBase: route.slice(route.lastIndexOf('/') + 1), route });
  }
  const out = new Map<string, PostType>();
  for (const [key, t] of Object.entries(types.body)) {
    const slug = t.slug ?? key;
    const route = routeOf(t.rest_namespace, t.rest_base, slug);
    if (NOT_POSTS.has(slug) || !route) continue;
    out.set(slug, {
      slug,
      route,
      hierarchical: t.hierarchical === true,
      taxonomies: (t.taxonomies ?? []).flatMap((s) => {
        const found = taxonomy.get(s);
        return found ? [found] : [];
      }),
    });
  }
  return out;
}

/**
 * The type `slug` names on this site; an unknown one is an input error naming `where` (a file's line, a
 * project file's source) and the types the site has.
 */
export async function postTypeOf(client: WordPressClient, slug: string, where: string): Promise<PostType> {
  const types = await siteTypes(client);
  const type = types.get(slug);
  if (!type) {
    throw new UsageError(
      `${where}: the site has no post type "${slug}" (its types: ${[...types.keys()].join(', ') || 'none'}; a custom type must be registered with show_in_rest)`,
    );
  }
  return type;
}

/**
 * The types `names` asks for, each by WordPress's name (`page`) or its REST base (`pages`); every type the
 * site offers when `names` is undefined (a site that does not list its types: posts alone). An unknown name is
 * an input error naming `where` and the site's types.
 */
export async function typesNamed(
  client: WordPressClient,
  names: string[] | undefined,
  where: string,
): Promise<PostType[]> {
  let types: Map<string, PostType>;
  try {
    types = await siteTypes(client);
  } catch (error) {
    if (names === undefined && error instanceof NotFoundError)
      return [{ slug: 'post', route: POSTS_ROUTE, hierarchical: false, taxonomies: [] }];
    throw error;
  }
  if (names === undefined) return [...types.values()];
  return names.map((name) => {
    const type = types.get(name) ?? [...types.values()].find((t) => t.route.endsWith(`/${name}`));
    if (!type)
      throw new UsageError(
        `${where}: the site has no post type "${name}" (its types: ${[...types.keys()].join(', ') || 'none'}; a custom type must be registered with show_in_rest)`,
      );
    return type;
  });
}

/**
 * The route of a post of type `slug` (WordPress's `type` member): posts and pages without a request, any
 * other type from the site's list. An undefined type is a post.
 */
export async function routeOfType(client: WordPressClient, slug: string | undefined): Promise<string> {
  if (slug === undefined || slug === 'post') return POSTS_ROUTE;
  if (slug === 'page') return 'wp/v2/pages';
  const type = (await siteTypes(client)).get(slug);
  if (!type) throw new UsageError(`the site no longer offers the post type "${slug}" through its REST API`);
  return type.route;
}

const covered = new WeakMap<WordPressClient, Set<string>>();
/** Routes covered only because the site has the type (coverSiteTypes), not because the run names it. */
const optional = new WeakMap<WordPressClient, Set<string>>();

/**
 * The routes the look-ups on this client ask besides posts: every type a run's sources name is looked up,
 * so its posts are found again (identity, drift, orphans of that type). Set once per run, before the look-up.
 */
export function coverTypes(client: WordPressClient, routes: Iterable<string>): void {
  const set = covered.get(client) ?? new Set<string>();
  for (const route of routes) if (route !== POSTS_ROUTE) set.add(route);
  covered.set(client, set);
}

/** Posts' route first, then each route coverTypes added. */
export function coveredRoutes(client: WordPressClient): string[] {
  return [POSTS_ROUTE, ...(covered.get(client) ?? [])];
}

/**
 * Covers every type the site publishes through REST (wp/v2/types): a run that holds every source of its
 * project finds the posts of any type it published before, so an orphan page or a post whose type the source
 * changed is found even when no source of that type is in the run. A type the run does not name whose route
 * refuses the account (401, 403) or is gone (404) is left out of the look-up (isOptionalRoute).
 */
export async function coverSiteTypes(client: WordPressClient, label?: string): Promise<void> {
  const named = new Set(coveredRoutes(client));
  const routes = [...(await siteTypes(client, label)).values()].map((t) => t.route);
  const extra = optional.get(client) ?? new Set<string>();
  for (const route of routes) if (!named.has(route)) extra.add(route);
  optional.set(client, extra);
  coverTypes(client, routes);
}

/**
 * Whether a look-up of `route` may be left out when the site refuses it (the account may not list that type's
 * posts, or a plugin's type has no such route): it is covered only because the site has the type, and the
 * account cannot have published posts there.
 */
export function isOptionalRoute(client: WordPressClient, route: string): boolean {
  return optional.get(client)?.has(route) === true;
}
