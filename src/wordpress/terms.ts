// Categories and tags by name, slug or id. People write names; WordPress wants ids and silently drops ones it
// does not know (a 201 with `"categories": []`), so names are resolved here before anything is published.
import * as z from 'zod/mini';
import { RejectedError, UsageError } from '../errors.js';
import { decodeEntities } from '../lib/html-entities.js';
import { routeEndpoint, type WordPressClient } from './client.js';

/** A taxonomy by its REST base: `categories`, `tags`, or a custom one's (`cuisines`, from post-types.ts). */
export type Taxonomy = 'categories' | 'tags' | (string & {});
export type TermRef = string | number;

export interface ResolveTermsOptions {
  /** Create the terms that do not exist yet (`--create-terms`). */
  create: boolean;
}

export const wpTerm = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  parent: z.optional(z.number()),
});
export type WpTerm = z.infer<typeof wpTerm>;

const termList = z.array(wpTerm);
const termExists = z.looseObject({
  code: z.literal('term_exists'),
  data: z.looseObject({ term_id: z.number() }),
});

const PER_PAGE = 100;
/** Pages fetched at once after the first: enough to list thousands of tags quickly, few enough for a small host. */
const PAGE_CONCURRENCY = 4;
/** 100 000 terms: past this a listing is a runaway (a server ignoring `page`), not a taxonomy. */
const MAX_PAGES = 1000;

const NAMES: Record<string, string> = { categories: 'category', tags: 'tag' };
/** How messages name one term of a taxonomy: `category`, `tag`, a custom one's `cuisines term`. */
const singular = (taxonomy: Taxonomy): string => NAMES[taxonomy] ?? `${taxonomy} term`;

/**
 * Per client (one client per site per run): the full listing of each taxonomy, fetched once; the ids already
 * looked up (`include=`), so a batch where every post names the same id asks once; and the names being
 * created, so concurrent resolutions (batch publishing) neither list twice nor create twice.
 */
interface TermCache {
  listings: Map<Taxonomy, Promise<WpTerm[]>>;
  lookups: Map<string, Promise<WpTerm | undefined>>;
  creating: Map<string, Promise<number>>;
}
const caches = new WeakMap<WordPressClient, TermCache>();

function cacheFor(client: WordPressClient): TermCache {
  let cache = caches.get(client);
  if (!cache) {
    cache = { listings: new Map(), lookups: new Map(), creating: new Map() };
    caches.set(client, cache);
  }
  return cache;
}

/** A reference as given: a number (an id, or a term literally named "2024") or any other text (a name or slug). */
type Wanted = { number: number; text: string } | { name: string };

/**
 * Turns category or tag references into ids, in the order given, without duplicates.
 *
 * - A number, or a string of digits, is first an id, and every id is checked against the site (with the
 *   listing when one is fetched anyway, else one `include=` lookup): WordPress drops an unknown id without a
 *   word (201 with `"tags": []`). A number that is no term's id is then matched like a name, so a tag
 *   literally named "2024" is found; an id wins when a term has it, whatever other terms are called.
 * - Any other string matches a term exactly, case-insensitively, on its name (HTML entities decoded: WordPress
 *   stores "Food & Drink" as `Food &amp; Drink`) or its slug (percent-decoded). Several categories may share a
 *   name under different parents: then a slug equal to the reference decides, or the reference is ambiguous.
 * - Every term of the taxonomy is listed (100 a page, all pages), once per client, when some reference is
 *   not an existing id.
 * - Missing names: with `create`, POSTed to create them (a 400 `term_exists` from a concurrent creator counts
 *   as found, with its `data.term_id`); without, a UsageError names every unknown reference. A number that
 *   matches nothing is never created, even with `create`: a mistyped or deleted id would otherwise quietly
 *   become a new term named after it.
 */
export async function resolveTermIds(
  client: WordPressClient,
  taxonomy: Taxonomy,
  refs: TermRef[],
  options: ResolveTermsOptions,
): Promise<number[]> {
  const wanted = refs.map((ref) => normaliseRef(ref, taxonomy));
  if (!wanted.length) return [];
  const numbers = unique(wanted.flatMap((w) => ('number' in w ? [w.number] : [])));
  const hasNames = wanted.some((w) => 'name' in w);

  // Ids first: by the listing when names need it anyway, else by asking for just these ids.
  const byId = new Map<number, WpTerm>();
  if (hasNames) {
    for (const t of await listTerms(client, taxonomy)) if (numbers.includes(t.id)) byId.set(t.id, t);
  } else if (numbers.length) {
    for (const t of await lookupIds(client, taxonomy, numbers)) byId.set(t.id, t);
  }

  // Everything else is matched by name or slug against the whole listing.
  const byName = wanted.flatMap((w) => {
    if ('name' in w) return [w.name];
    return byId.has(w.number) ? [] : [w.text];
  });
  const found = new Map<string, number>();
  const missing: string[] = [];
  if (byName.length) {
    const terms = await listTerms(client, taxonomy);
    for (const name of byName) {
      const id = matchTerm(terms, name, taxonomy);
      if (id === undefined) missing.push(name);
      else found.set(name, id);
    }
  }
  const unknownNumbers = unique(
    wanted.flatMap((w) => ('number' in w && missing.includes(w.text) ? [w.text] : [])),
  );
  const missingNames = unique(
    wanted.flatMap((w) => ('name' in w && missing.includes(w.name) ? [w.name] : [])),
  );
  const problems: string[] = [];
  if (missingNames.length && !options.create) {
    const them = missingNames.length > 1 ? 'them' : 'it';
    problems.push(
      `unknown ${singular(taxonomy)}: ${missingNames.join(', ')} (use --create-terms to create ${them})`,
    );
  }
  if (unknownNumbers.length) {
    const several = unknownNumbers.length > 1;
    problems.push(
      `unknown ${singular(taxonomy)} id${several ? 's' : ''}: ${unknownNumbers.join(', ')} (no ${singular(taxonomy)} has ${several ? 'these ids' : 'this id'}, name${several ? 's' : ''} or slug${several ? 's' : ''}; WordPress would drop ${several ? 'them' : 'it'} silently${options.create ? ', and --create-terms does not create number-only names: create such a term in WordPress first' : ''})`,
    );
  }
  if (problems.length) throw new UsageError(problems.join('; '));

  const created = await Promise.all(missingNames.map((name) => createTerm(client, taxonomy, name)));
  missingNames.forEach((name, i) => found.set(name, created[i]!));
  return unique(
    wanted.map((w) =>
      'name' in w ? found.get(w.name)! : byId.has(w.number) ? w.number : found.get(w.text)!,
    ),
  );
}

/**
 * The terms among `ids` that exist, asked for by id (`include=`, 100 a request) rather than by listing the
 * whole taxonomy; each id is asked about once per client.
 */
async function lookupIds(client: WordPressClient, taxonomy: Taxonomy, ids: number[]): Promise<WpTerm[]> {
  const cache = cacheFor(client);
  const key = (id: number): string => `${taxonomy}\u0000${id}`;
  const fresh = ids.filter((id) => !cache.lookups.has(key(id)));
  for (let i = 0; i < fresh.length; i += PER_PAGE) {
    const chunk = fresh.slice(i, i + PER_PAGE);
    const request = client
      .route(`wp/v2/${taxonomy}`, {
        method: 'GET',
        params: { include: chunk.join(','), per_page: PER_PAGE, _fields: 'id,name,slug,parent' },
        schema: termList,
        label: `look up WordPress ${taxonomy} by id`,
      })
      .then((res) => new Map(res.body.map((t) => [t.id, t])));
    for (const id of chunk) {
      const one = request.then((found) => found.get(id));
      // A failed lookup is not cached: the next call asks again.
      one.catch(() => cache.lookups.delete(key(id)));
      cache.lookups.set(key(id), one);
    }
  }
  const results = await Promise.all(ids.map((id) => cache.lookups.get(key(id))!));
  return results.filter((t): t is WpTerm => t !== undefined);
}

/**
 * Every term of a taxonomy (id, name, slug, parent), listed once per client: page 1 tells the page count
 * (`X-WP-TotalPages`), the rest are fetched a few at a time. Without that header, pages are read until one
 * comes back short.
 */
export function listTerms(client: WordPressClient, taxonomy: Taxonomy): Promise<WpTerm[]> {
  const cache = cacheFor(client);
  let listing = cache.listings.get(taxonomy);
  if (!listing) {
    listing = fetchAllTerms(client, taxonomy);
    // A failed listing is not cached: the next call tries again.
    listing.catch(() => cache.listings.delete(taxonomy));
    cache.listings.set(taxonomy, listing);
  }
  return listing;
}

async function fetchAllTerms(client: WordPressClient, taxonomy: Taxonomy): Promise<WpTerm[]> {
  const page = (n: number, passStatuses?: number[]) =>
    client.route(`wp/v2/${taxonomy}`, {
      method: 'GET',
      // Ordered by id: a term created while we page cannot shift others between pages.
      params: { per_page: PER_PAGE, page: n, orderby: 'id', order: 'asc', _fields: 'id,name,slug,parent' },
      schema: termList,
      label: `list WordPress ${taxonomy}`,
      ...(passStatuses && { passStatuses }),
    });
  const first = await page(1);
  const terms = [...first.body];
  const total = Number(first.headers['x-wp-totalpages']);
  if (Number.isInteger(total) && total > 1) {
    const rest = Array.from({ length: Math.min(total, MAX_PAGES) - 1 }, (_, i) => i + 2);
    for (let i = 0; i < rest.length; i += PAGE_CONCURRENCY) {
      const batch = await Promise.all(rest.slice(i, i + PAGE_CONCURRENCY).map((n) => page(n)));
      for (const res of batch) terms.push(...res.body);
    }
  } else if (!Number.isInteger(total) && first.body.length === PER_PAGE) {
    // A page past the end answers 400 rest_term_invalid_page_number: that is the end, not an error.
    for (let n = 2; n <= MAX_PAGES; n++) {
      const res = await page(n, [400]);
      if (res.status === 400) break;
      terms.push(...res.body);
      if (res.body.length < PER_PAGE) break;
    }
  }
  // Pages can overlap when terms are deleted meanwhile; keep one entry per id.
  return [...new Map(terms.map((t) => [t.id, t])).values()];
}

function matchTerm(terms: WpTerm[], ref: string, taxonomy: Taxonomy): number | undefined {
  const key = fold(ref);
  const byName = terms.filter((t) => fold(decodeEntities(t.name)) === key);
  const bySlug = terms.filter((t) => fold(decodeSlug(t.slug)) === key);
  if (byName.length === 1) return byName[0]!.id;
  if (byName.length > 1) {
    const decided = byName.find((t) => bySlug.includes(t));
    if (decided) return decided.id;
    const choices = byName.map((t) => `${t.id} (${t.slug})`).join(', ');
    throw new UsageError(
      `ambiguous ${singular(taxonomy)} "${ref}": matches ${choices}; give the id or the slug instead`,
    );
  }
  return bySlug[0]?.id;
}

function createTerm(client: WordPressClient, taxonomy: Taxonomy, name: string): Promise<number> {
  const cache = cacheFor(client);
  const key = `${taxonomy}\u0000${fold(name)}`;
  let pending = cache.creating.get(key);
  if (!pending) {
    pending = postTerm(client, taxonomy, name);
    pending.catch(() => cache.creating.delete(key));
    cache.creating.set(key, pending);
  }
  return pending;
}

async function postTerm(client: WordPressClient, taxonomy: Taxonomy, name: string): Promise<number> {
  const res = await client.route(`wp/v2/${taxonomy}`, {
    method: 'POST',
    json: { name },
    // Repeating it is harmless: a second creation answers term_exists with the same id.
    idempotent: true,
    passStatuses: [400],
    label: `create the WordPress ${singular(taxonomy)} "${name}"`,
  });
  if (res.status === 400) {
    const exists = termExists.safeParse(res.body);
    if (exists.success) return exists.data.data.term_id;
    const body = (res.body ?? {}) as { code?: unknown; message?: unknown };
    const code = typeof body.code === 'string' ? body.code : undefined;
    const message = typeof body.message === 'string' ? decodeEntities(body.message) : undefined;
    const endpoint = routeEndpoint('POST', await client.restRoot(), `wp/v2/${taxonomy}`);
    throw new RejectedError(
      `create the WordPress ${singular(taxonomy)} "${name}" failed: HTTP 400${message ? `: ${message}` : ''}`,
      { status: 400, endpoint, ...(code && { peerCode: code }), ...(message && { serviceMessage: message }) },
    );
  }
  const created = wpTerm.safeParse(res.body);
  if (!created.success) {
    throw new RejectedError(`create the WordPress ${singular(taxonomy)} "${name}": unexpected answer`, {
      status: res.status,
    });
  }
  return oldestTwin(client, taxonomy, name, created.data.id);
}

/**
 * Two runs creating one name at the same moment can both succeed: WordPress checks that the name is free, then
 * inserts, with nothing in between. So after a creation the name is looked up again: the oldest term of that
 * name (lowest id) is the one, and a run whose own term is a later twin deletes it (seconds old, no post
 * carries it yet). Concurrent runs then end with one term, and every run uses its id.
 */
async function oldestTwin(
  client: WordPressClient,
  taxonomy: Taxonomy,
  name: string,
  id: number,
): Promise<number> {
  const res = await client.route(`wp/v2/${taxonomy}`, {
    method: 'GET',
    params: { search: name, per_page: PER_PAGE, orderby: 'id', order: 'asc', _fields: 'id,name,slug,parent' },
    schema: termList,
    label: `look up the WordPress ${singular(taxonomy)} "${name}" just created`,
  });
  const key = fold(name);
  const twins = res.body.filter((t) => fold(decodeEntities(t.name)) === key && (t.parent ?? 0) === 0);
  const oldest = Math.min(id, ...twins.map((t) => t.id));
  if (oldest === id) return id;
  await client.route(`wp/v2/${taxonomy}/${id}`, {
    method: 'DELETE',
    // Terms have no trash; a retry after a lost answer finds it gone (404).
    params: { force: 'true' },
    passStatuses: [404],
    label: `delete the WordPress ${singular(taxonomy)} ${id}, a twin of ${oldest} made at the same moment`,
  });
  return oldest;
}

function normaliseRef(ref: TermRef, taxonomy: Taxonomy): Wanted {
  if (typeof ref === 'number') {
    if (!Number.isSafeInteger(ref) || ref <= 0)
      throw new UsageError(`invalid ${singular(taxonomy)} id: ${ref}`);
    return { number: ref, text: String(ref) };
  }
  const text = ref.trim();
  if (!text) throw new UsageError(`empty ${singular(taxonomy)} name`);
  if (/^\d{1,15}$/.test(text)) {
    if (Number(text) === 0) throw new UsageError(`invalid ${singular(taxonomy)} id: ${text}`);
    return { number: Number(text), text };
  }
  return { name: text };
}

function fold(text: string): string {
  return text.normalize('NFC').trim().toLocaleLowerCase('en-US');
}

/** Slugs of non-ASCII names are stored percent-encoded (`caf%c3%a9`). */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
