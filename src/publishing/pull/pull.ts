// The network and file part of `wp pull`: a site's posts into the project as Markdown files (pull-post.ts),
// one per post, each with a front matter `key` (`wp-<id>`) that stays its identity. Existing files are never
// overwritten without --force; a file that differs from its post is reported (the site or the file was edited
// since), not silently replaced. --adopt then makes each pulled post the file's post: its marker (what `wp
// publish` would send for the file, with the file's key) is written into the post on the site, and nothing
// else of it, so the next `wp publish` reports every pulled file unchanged.
//
// The posts are read a page at a time (100, in id order; a few pages asked for ahead) and each page is
// converted and written before the next is taken, so memory holds a few pages whatever the site's size;
// the whole pull is bounded as a list is (BLOGCTL_MAX_LIST_ITEMS, BLOGCTL_MAX_LIST_MB).
//
// Every type the site offers through REST (posts, pages, custom types with show_in_rest), or those --type
// names. Posts that carry blogctl's marker for another source (another project's, or this project's own
// files) are left out: they have a source already.
import { dirname, join, relative } from 'node:path';
import { AuthError, BlogctlError, UsageError, UnavailableError } from '../../errors.js';
import { decodeEntities } from '../../lib/html-entities.js';
import type { StdinReader } from '../../lib/input-files.js';
import type { Project } from '../../project/project-file.js';
import type { Credentials } from '../../schemas/wordpress.js';
import type { WordPressClient } from '../../wordpress/client.js';
import type { SeoFields } from '../../wordpress/seo.js';
import { updatePost, type WpPostDetail } from '../../wordpress/posts.js';
import type { CancelPort } from '../ports.js';
import { keySourceKey } from '../source-key.js';
import { keyHash, nsHash, readMarker, replaceMarker, type Marker } from '../identity.js';
import { metaState } from '../sync-state-plugin.js';
import { filesByKey, freePath, readIfThere, safeName, withoutMarker } from './files.js';
import { fileNameFor, postToMarkdown, type PullContext } from './pull-post.js';
import { checkInside, writeInside } from '../../lib/write-inside.js';
import { listLimitsFromEnv } from '../../http/limits.js';
import { categoryIds, download, eachPageOfPosts, mediaUrls } from './site.js';

/** One post's row. */
export interface PullRow {
  /** The file, relative to where blogctl runs. */
  file: string;
  /** created (new file), updated (--force), unchanged (the file is the post already), differs (left), skipped. */
  action: 'created' | 'updated' | 'unchanged' | 'differs' | 'skipped';
  id: string;
  link: string | null;
  status: string;
  /** --adopt: the post now carries the file's identity. */
  adopted: boolean;
  note?: string;
}

/** The key a pulled post's file carries: its id on the site, which never changes. */
const pulledKey = (id: number): string => `wp-${id}`;

/** The site to pull from: its REST client and the credentials it was made with. */
export interface PullSite {
  client: WordPressClient;
  credentials: Credentials;
}

/** Where the files go: the project, and the folder inside it new files are written to. */
export interface PullFolder {
  project: Project;
  target: string;
}

/** Which posts (the filters, checked), and what to do with them. */
export interface PullOptions {
  statuses: string[];
  /** The post types to pull by WordPress's name (`page`) or REST base (`pages`); default every type. */
  types?: string[];
  /** Only posts modified after this instant (ISO 8601). */
  since?: string;
  author?: number;
  /** Category names or ids. */
  categories?: string[];
  /** --media: download featured images next to the files. */
  media: boolean;
  /** --force: overwrite a file that differs from its post. */
  force: boolean;
  /** --adopt: write the file's identity into each pulled post. */
  adopt: boolean;
  /** --media: how long one image may take in all, a trickling one included (the run's --timeout). */
  mediaTimeoutMs?: number;
}

/** What pull needs of the run: its cancellation, stdin (--adopt reads files as publish does), its environment (the limits). */
export type PullPorts = CancelPort & StdinReader & { env: NodeJS.ProcessEnv };

/** A row per post pulled, and how many posts were left out as another source's. */
export interface PullResult {
  rows: PullRow[];
  otherSources: number;
  /** Why no file has `seo:`: the site's SEO plugin keeps its fields where they cannot be read. */
  seoUnread?: string;
}

/** The site's posts written into the folder (--force, --media, --adopt as asked); nothing is printed. */
export async function pull(
  { client, credentials }: PullSite,
  { project, target }: PullFolder,
  options: PullOptions,
  ports: PullPorts,
): Promise<PullResult> {
  // An account that cannot see other users' posts would pull only its own: refused before anything is written.
  const { checkCanSync, SYNC_CAPABILITY, SYNC_ROLES } = await import('../../wordpress/verify.js');
  const refused = await checkCanSync(client);
  if (refused)
    throw new AuthError(
      `the account "${credentials.username}" cannot see other users' posts on ${client.siteUrl}: pulling every post needs WordPress's ${SYNC_CAPABILITY} capability (${SYNC_ROLES}); nothing was written`,
      refused.context,
    );
  const label = 'read the posts to pull';
  const categories =
    options.categories !== undefined ? await categoryIds(client, options.categories) : undefined;
  // Every type the site offers unless --type names some; an unknown one is an input error before anything
  // is read or written.
  const { typesNamed, coverTypes } = await import('../../wordpress/post-types.js');
  let pulled = await typesNamed(client, options.types, '--type');
  // --category filters the types that have categories (another type's route would ignore the filter).
  if (categories !== undefined) {
    const without = pulled.filter((t) => !t.taxonomies.some((x) => x.slug === 'category'));
    if (options.types !== undefined && without.length)
      throw new UsageError(
        `--category: the post type "${without[0]!.slug}" has no categories (leave it out of --type)`,
      );
    pulled = pulled.filter((t) => !without.includes(t));
  }
  const types = pulled.map((t) => t.slug);
  coverTypes(
    client,
    pulled.map((t) => t.route),
  );
  const filters = {
    status: options.statuses.join(','),
    ...(options.since !== undefined && { modified_after: options.since }),
    ...(options.author !== undefined && { author: options.author }),
    ...(categories !== undefined && { categories: categories.join(',') }),
  };

  // The site's term names, read once, when a page first needs them.
  const { listTerms } = await import('../../wordpress/terms.js');
  const termNames = (list: { id: number; name?: string; slug?: string }[]): Map<number, string> =>
    new Map(list.map((t) => [t.id, decodeEntities(t.name ?? t.slug ?? String(t.id))]));
  let catNames: Promise<Map<number, string>> | undefined;
  let tagNames: Promise<Map<number, string>> | undefined;
  const noNames = Promise.resolve(new Map<number, string>());
  // The SEO fields as the site's SEO plugin stores them, written as `seo:` (publish sends them back alike).
  const { seoOfPosts } = await import('../../wordpress/seo.js');
  let seoUnread: string | undefined;

  const run: PullRun = {
    ns: nsHash(project.namespace),
    stated: new Set(Object.keys(project.defaults)),
    existing: filesByKey(project),
    taken: new Set<string>(),
    rows: [],
    otherSources: 0,
  };
  // Posts are read, converted and written a page at a time (a few pages in memory, whatever the site's
  // size). A post's file name is taken when its page comes, in id order, so names are the same from pull to
  // pull. Each page's files are checked (inside the project, through no link) before the first of them is
  // written; a page that fails (a link in the way, a limit passed, the site gone) stops the pull there, with
  // the pages before it written: the error says how many files, and pulling again goes on from them (each
  // is found by its key).
  try {
    await eachPageOfPosts(client, filters, label, types, listLimitsFromEnv(ports.env), async (posts) => {
      if (posts.some((p) => p.categories?.length))
        catNames ??= listTerms(client, 'categories').then(termNames);
      if (posts.some((p) => p.tags?.length)) tagNames ??= listTerms(client, 'tags').then(termNames);
      const names = { categories: await (catNames ?? noNames), tags: await (tagNames ?? noNames) };
      const media = await mediaUrls(
        client,
        posts.map((p) => p.featured_media ?? 0).filter((id) => id > 0),
      );
      const { fields: seo, unread } = await seoOfPosts(client, posts);
      seoUnread ??= unread;
      const page = pullPage(posts, run, { ...names, seo }, media, target, options);
      await writePage(page, project.root, credentials.websiteUrl, ports, options.mediaTimeoutMs);
      if (options.adopt) {
        const adoptable = page.rows.filter((r) => r.action !== 'differs' && r.action !== 'skipped');
        await adopt(client, adoptable, posts, ports, seo);
      }
    });
  } catch (error) {
    throw stoppedAfter(error, run.rows, target);
  }
  return { rows: run.rows, otherSources: run.otherSources, ...(seoUnread !== undefined && { seoUnread }) };
}

/** What one run keeps from page to page: small things only (names, rows), never a post's content. */
interface PullRun {
  ns: string;
  stated: ReadonlySet<string>;
  /** The project's files by their key (posts pulled before). */
  existing: Map<string, string>;
  /** The paths this run gave out (case-folded), so no two posts get one name. */
  taken: Set<string>;
  rows: PullRow[];
  otherSources: number;
}

/** One page's files to write and images to fetch, and its rows. */
interface PulledPage {
  rows: PullRow[];
  writes: { path: string; text: string; row: PullRow }[];
  downloads: { url: string; path: string; rows: PullRow[] }[];
}

/** A page's posts as files (nothing written yet): each post's row is added to the run's. */
function pullPage(
  posts: WpPostDetail[],
  run: PullRun,
  names: {
    categories: Map<number, string>;
    tags: Map<number, string>;
    /** The SEO fields of the page's posts as the site's SEO plugin stores them. */
    seo: ReadonlyMap<number, SeoFields>;
  },
  media: Map<number, string>,
  target: string,
  options: PullOptions,
): PulledPage {
  const page: PulledPage = { rows: [], writes: [], downloads: [] };
  const push = (row: PullRow): void => {
    run.rows.push(row);
    page.rows.push(row);
  };
  for (const post of posts) {
    const raw = post.content?.raw ?? '';
    const key = pulledKey(post.id);
    // The companion plugin's state in meta names the source as the marker does, and stays where a plugin
    // stripped the marker from the content: a post with another source's state is that source's.
    const marker = readMarker(raw) ?? metaState(post) ?? undefined;
    if (marker && (marker.ns !== run.ns || marker.key !== keyHash(keySourceKey(key)))) {
      run.otherSources++;
      continue;
    }
    const path = run.existing.get(key) ?? freePath(target, fileNameFor(post), post.id, run.taken);
    run.taken.add(path);
    let image: PullContext['image'];
    let download: PulledPage['downloads'][number] | undefined;
    if (post.featured_media) {
      const url = media.get(post.featured_media);
      if (options.media && url) {
        const file = join(target, 'media', `${post.featured_media}-${safeName(url)}`);
        download = { url, path: file, rows: [] };
        image = { file: relative(dirname(path), file).split('\\').join('/') };
      } else image = { id: post.featured_media, ...(url !== undefined && { url }) };
    }
    const text = postToMarkdown(
      { ...post, content: { ...post.content, raw: withoutMarker(raw) } },
      {
        categories: names.categories,
        tags: names.tags,
        key,
        stated: run.stated,
        ...(image && { image }),
        ...(names.seo.has(post.id) && { seo: names.seo.get(post.id) }),
      },
    );
    const before = readIfThere(path);
    const row: PullRow = {
      file: relative(process.cwd(), path) || path,
      action:
        before === undefined
          ? 'created'
          : before === text
            ? 'unchanged'
            : options.force
              ? 'updated'
              : 'differs',
      id: String(post.id),
      link: post.link ?? null,
      status: post.status,
      adopted: false,
      ...(post.password ? { note: 'password-protected: its password is not written to the file' } : {}),
    };
    if (row.action === 'differs')
      row.note =
        "the file and the post differ (edited on the site or in the file since): left as it is; --force takes the site's version";
    push(row);
    if (download) {
      download.rows.push(row);
      page.downloads.push(download);
    }
    if (row.action === 'created' || row.action === 'updated') page.writes.push({ path, text, row });
  }
  return page;
}

/**
 * A page's images and files written. Every file inside the project, through no symbolic link
 * (lib/write-inside.ts): all of the page's checked before the first is written, so a link in the way
 * stops the pull with nothing of that page written.
 */
async function writePage(
  page: PulledPage,
  root: string,
  siteUrl: string,
  ports: PullPorts,
  mediaTimeoutMs: number | undefined,
): Promise<void> {
  for (const path of [...page.downloads.map((d) => d.path), ...page.writes.map((w) => w.path)])
    checkInside(root, path);
  for (const d of page.downloads) {
    const problem = await download(d.url, d.path, siteUrl, ports, root, mediaTimeoutMs);
    // One image that cannot be had (a malformed address, a failed or endless download) is that post's note;
    // the pull goes on.
    if (problem) for (const row of d.rows) row.note = `${row.note ? `${row.note}; ` : ''}${problem}`;
  }
  for (const w of page.writes) {
    try {
      // A new file only where nothing is (not one made meanwhile); --force replaces the post's own file.
      await writeInside(root, w.path, w.text, { exclusive: w.row.action === 'created' });
    } catch (error) {
      if (error instanceof UsageError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        w.row.action = 'skipped';
        w.row.note = 'a file appeared under this name while pulling: left as it is';
        continue;
      }
      const { writeFailure } = await import('../../lib/write-failure.js');
      throw writeFailure(error, w.path, 'the files before it were written') ?? error;
    }
  }
}

/**
 * An error that stopped the pull after some pages were written: the same error (same exit code), saying
 * how many files were written and that pulling again goes on from them.
 */
function stoppedAfter(error: unknown, rows: PullRow[], target: string): unknown {
  const written = rows.filter((r) => r.action === 'created' || r.action === 'updated').length;
  if (!written || !(error instanceof BlogctlError)) return error;
  const folder = relative(process.cwd(), target) || '.';
  error.message = `${error.message}; the pull stopped there: ${written} file${written === 1 ? ' was' : 's were'} written into ${folder} before it (pulling again goes on from them: each is found by its key)`;
  return error;
}

/**
 * --adopt: each post gets the marker `wp publish` would send for its file (same key, same sums), and
 * nothing else changes on it. Posts carrying that marker already are left alone.
 */
async function adopt(
  client: WordPressClient,
  rows: PullRow[],
  posts: WpPostDetail[],
  deps: StdinReader,
  seo: ReadonlyMap<number, SeoFields>,
): Promise<void> {
  if (!rows.length) return;
  const { fileSpecs } = await import('../sources/publish-sources.js');
  const { makeJob } = await import('../sources/publish-job.js');
  const { jobMarker } = await import('../sync/publish-plan.js');
  const { formatMarker } = await import('../identity.js');
  const { storedValues } = await import('../sync/look-up.js');
  const { storedSums } = await import('../sync/drift.js');
  const { scopeOf } = await import('../../project/scope.js');
  const byId = new Map(posts.map((p) => [String(p.id), p]));
  // The files as `wp publish` reads them: the project's defaults under each file's front matter.
  const files = rows.map((r) => r.file);
  const scope = scopeOf(files);
  const { specs, problems } = await fileSpecs(files, { values: {}, names: {} }, {}, deps, scope);
  if (problems.length) throw new UsageError(`${problems[0]!}; nothing adopted`, { inputs: problems });
  const ns = nsHash(scope.namespace);
  const now = new Date();
  // The marker: the file's sums (what publish compares the file with) and the post's fields as stored now
  // (what publish tells an editor's later change by).
  const markerFor = (source: Marker, stored: WpPostDetail): Marker => ({
    ...source,
    sums: {
      ...source.sums,
      ...storedSums({ ...storedValues(stored), ...(seo.has(stored.id) && { seo: seo.get(stored.id) }) }),
    },
  });
  for (const [i, spec] of specs.entries()) {
    const row = rows[i]!;
    const post = byId.get(row.id)!;
    const job = await makeJob(spec, { now, allowImmediate: true });
    // A pulled page names its parent by id (pull-post.ts): linked as publish links it (read-sources.ts).
    const parent = job.kind?.parent;
    if (parent && 'id' in parent) job.parent = { id: parent.id };
    const source = jobMarker(job, ns);
    if (!source) continue;
    let marker = markerFor(source, post);
    const raw = post.content?.raw ?? '';
    const current = readMarker(raw);
    if (current && formatMarker(current) === formatMarker(marker)) {
      row.adopted = true;
      continue;
    }
    let stored = await updatePost(client, post.id, { content: replaceMarker(raw, marker) }, post.type);
    // WordPress may store the content otherwise than sent: the sums are of what it stored.
    const again = markerFor(source, stored);
    if (formatMarker(again) !== formatMarker(marker)) {
      marker = again;
      stored = await updatePost(
        client,
        post.id,
        { content: replaceMarker(stored.content?.raw ?? raw, marker) },
        post.type,
      );
    }
    const back = readMarker(stored.content?.raw ?? '');
    if (!back || back.key !== marker.key)
      throw new UnavailableError(
        `post ${post.id}: WordPress did not keep blogctl's marker (a plugin filtering content on save?); ${row.file} is not adopted`,
      );
    row.adopted = true;
  }
}
