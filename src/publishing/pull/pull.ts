// The network and file part of `wp pull`: a site's posts into the project as Markdown files (pull-post.ts),
// one per post, each with a front matter `key` (`wp-<id>`) that stays its identity. Existing files are never
// overwritten without --force; a file that differs from its post is reported (the site or the file was edited
// since), not silently replaced. --adopt then makes each pulled post the file's post: its marker (what `wp
// publish` would send for the file, with the file's key) is written into the post on the site, and nothing
// else of it, so the next `wp publish` reports every pulled file unchanged.
//
// Every type the site offers through REST (posts, pages, custom types with show_in_rest), or those --type
// names. Posts that carry blogctl's marker for another source (another project's, or this project's own
// files) are left out: they have a source already.
import { dirname, join, relative } from 'node:path';
import { AuthError, UsageError, UnavailableError } from '../../errors.js';
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
import { filesByKey, freePath, readIfThere, safeName, withoutMarker } from './files.js';
import { ContentTooDeepError, fileNameFor, postToMarkdown, type PullContext } from './pull-post.js';
import { checkInside, writeInside } from '../../lib/write-inside.js';
import { categoryIds, download, listPosts, mediaUrls } from './site.js';

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
}

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
  ports: CancelPort & StdinReader,
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
  const posts = await listPosts(
    client,
    {
      status: options.statuses.join(','),
      ...(options.since !== undefined && { modified_after: options.since }),
      ...(options.author !== undefined && { author: options.author }),
      ...(categories !== undefined && { categories: categories.join(',') }),
    },
    label,
    types,
  );

  const { listTerms } = await import('../../wordpress/terms.js');
  const [cats, tags] = await Promise.all([
    posts.some((p) => p.categories?.length) ? listTerms(client, 'categories') : Promise.resolve([]),
    posts.some((p) => p.tags?.length) ? listTerms(client, 'tags') : Promise.resolve([]),
  ]);
  const termNames = (list: { id: number; name?: string; slug?: string }[]): Map<number, string> =>
    new Map(list.map((t) => [t.id, decodeEntities(t.name ?? t.slug ?? String(t.id))]));
  const catNames = termNames(cats);
  const tagNames = termNames(tags);
  // The SEO fields as the site's SEO plugin stores them, written as `seo:` (publish sends them back alike).
  const { seoOfPosts } = await import('../../wordpress/seo.js');
  const { fields: seo, unread: seoUnread } = await seoOfPosts(client, posts);
  const media = await mediaUrls(
    client,
    posts.map((p) => p.featured_media ?? 0).filter((id) => id > 0),
  );

  const ns = nsHash(project.namespace);
  const stated = new Set(Object.keys(project.defaults));
  const existing = filesByKey(project);
  const taken = new Set<string>();
  const rows: PullRow[] = [];
  const writes: { path: string; text: string; post: WpPostDetail; row: PullRow }[] = [];
  const downloads: { url: string; path: string; rows: PullRow[] }[] = [];
  const imageRows: PullRow[][] = [];
  let otherSources = 0;
  for (const post of posts) {
    const raw = post.content?.raw ?? '';
    const key = pulledKey(post.id);
    const marker = readMarker(raw);
    if (marker && (marker.ns !== ns || marker.key !== keyHash(keySourceKey(key)))) {
      otherSources++;
      continue;
    }
    const path = existing.get(key) ?? freePath(target, fileNameFor(post), post.id, taken);
    taken.add(path);
    let image: PullContext['image'];
    if (post.featured_media) {
      const url = media.get(post.featured_media);
      if (options.media && url) {
        const file = join(target, 'media', `${post.featured_media}-${safeName(url)}`);
        const rowsOfImage: PullRow[] = [];
        imageRows.push(rowsOfImage);
        downloads.push({ url, path: file, rows: rowsOfImage });
        image = { file: relative(dirname(path), file).split('\\').join('/') };
      } else image = { id: post.featured_media, ...(url !== undefined && { url }) };
    }
    let text: string;
    try {
      text = postToMarkdown(
        { ...post, content: { ...post.content, raw: withoutMarker(raw) } },
        {
          categories: catNames,
          tags: tagNames,
          key,
          stated,
          ...(image && { image }),
          ...(seo.has(post.id) && { seo: seo.get(post.id) }),
        },
      );
    } catch (error) {
      // One post the converter cannot take (nested too deep) is named and left out; the pull goes on.
      if (!(error instanceof ContentTooDeepError)) throw error;
      if (image && 'file' in image) {
        downloads.pop();
        imageRows.pop();
      }
      rows.push({
        file: relative(process.cwd(), path) || path,
        action: 'skipped',
        id: String(post.id),
        link: post.link ?? null,
        status: post.status,
        adopted: false,
        note: error.message,
      });
      continue;
    }
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
    rows.push(row);
    if (image && 'file' in image) imageRows.at(-1)!.push(row);
    if (row.action === 'created' || row.action === 'updated') writes.push({ path, text, post, row });
  }

  // Every file inside the project, through no symbolic link (lib/write-inside.ts): all checked before the
  // first is written, so a link in the way fails the pull with nothing written.
  for (const path of [...downloads.map((d) => d.path), ...writes.map((w) => w.path)])
    checkInside(project.root, path);
  for (const d of downloads) {
    const problem = await download(
      d.url,
      d.path,
      credentials.websiteUrl,
      { ...ports, env: process.env },
      project.root,
    );
    // One image that cannot be had (a malformed address, a failed or endless download) is that post's note;
    // the pull goes on.
    if (problem) for (const row of d.rows) row.note = `${row.note ? `${row.note}; ` : ''}${problem}`;
  }
  for (const w of writes) {
    try {
      // A new file only where nothing is (not one made meanwhile); --force replaces the post's own file.
      await writeInside(project.root, w.path, w.text, { exclusive: w.row.action === 'created' });
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

  if (options.adopt) {
    const adoptable = rows.filter((r) => r.action !== 'differs' && r.action !== 'skipped');
    await adopt(client, adoptable, posts, ports, seo);
  }
  return { rows, otherSources, ...(seoUnread !== undefined && { seoUnread }) };
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
