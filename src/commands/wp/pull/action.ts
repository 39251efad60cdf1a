// `wp pull`: a site's posts into the project as Markdown files (publishing/pull-post.ts), one per post, each
// with a front matter `key` (`wp-<id>`) that stays its identity. Existing files are never overwritten without
// --force; a file that differs from its post is reported (the site or the file was edited since), not
// silently replaced. --adopt then makes each pulled post the file's post: its marker (what `wp publish`
// would send for the file, with the file's key) is written into the post on the site, and nothing else of
// it, so the next `wp publish` reports every pulled file unchanged.
//
// Only posts (type `post`): pages and custom post types are not published by `wp publish` either. Posts that
// carry blogctl's marker for another source (another project's, or this project's own files) are left out:
// they have a source already.
import { dirname, join, relative, resolve } from 'node:path';
import { AuthError, UsageError, UnavailableError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { checkInside, writeInside } from '../../../lib/write-inside.js';
import { fieldsOf, jsonOutput } from '../../../output/json.js';
import type { Column } from '../../../output/table.js';
import { findProject } from '../../../project/project-file.js';
import { keyHash, nsHash, readMarker, replaceMarker, type Marker } from '../../../publishing/identity.js';
import {
  ContentTooDeepError,
  fileNameFor,
  postToMarkdown,
  type PullContext,
} from '../../../publishing/pull-post.js';
import { keySourceKey } from '../../../publishing/source-key.js';
import { resolveCredentials } from '../../../sites/profiles.js';
import type { WordPressClient } from '../../../wordpress/client.js';
import { updatePost, type WpPostDetail } from '../../../wordpress/posts.js';
import { decodeEntities } from '../../../wordpress/text.js';
import type { Input } from './command.js';
import { filesByKey, freePath, outputFolder, readIfThere, safeName, withoutMarker } from './files.js';
import { parseAuthor, parseSince, parseStatuses, siteOf } from './flags.js';
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

export const PULL_FIELDS = fieldsOf<PullRow>({
  file: true,
  action: true,
  id: true,
  link: true,
  status: true,
  adopted: true,
  note: true,
});

/** The key a pulled post's file carries: its id on the site, which never changes. */
export const pulledKey = (id: number): string => `wp-${id}`;

export async function action({ args, opts, globals, deps }: Input): Promise<void> {
  const json = jsonOutput(globals.json, PULL_FIELDS);
  // The project around the folder the files go to (as `wp publish` finds it around its sources), else
  // around the folder blogctl runs in.
  const given = args[0];
  const project = findProject(given === undefined ? process.cwd() : resolve(given));
  if (!project)
    throw new UsageError('wp pull works inside a project: no blogctl.yml there or in any folder above', {
      hints: ['create one with `blogctl wp init --site <profile or URL>`'],
    });
  const target = outputFolder(project, args[0]);
  const statuses = parseStatuses(opts.status);
  const since = opts.since === undefined ? undefined : parseSince(opts.since);
  const author = opts.author === undefined ? undefined : parseAuthor(opts.author);

  const site = siteOf(project, opts);
  const { credentials } = await resolveCredentials(
    { ...site, passwordStdin: Boolean(opts.passwordStdin) },
    deps,
  );
  const client = await deps.wordpress(credentials);
  // An account that cannot see other users' posts would pull only its own: refused before anything is written.
  const { checkCanSync, SYNC_CAPABILITY, SYNC_ROLES } = await import('../../../wordpress/verify.js');
  const refused = await checkCanSync(client);
  if (refused)
    throw new AuthError(
      `the account "${credentials.username}" cannot see other users' posts on ${client.siteUrl}: pulling every post needs WordPress's ${SYNC_CAPABILITY} capability (${SYNC_ROLES}); nothing was written`,
      refused.context,
    );
  const label = 'read the posts to pull';
  const categories = opts.category?.length
    ? await categoryIds(
        client,
        opts.category
          .flatMap((c) => c.split(','))
          .map((c) => c.trim())
          .filter(Boolean),
      )
    : undefined;
  const posts = await listPosts(
    client,
    {
      status: statuses.join(','),
      ...(since !== undefined && { modified_after: since }),
      ...(author !== undefined && { author }),
      ...(categories !== undefined && { categories: categories.join(',') }),
    },
    label,
  );

  const { listTerms } = await import('../../../wordpress/terms.js');
  const [cats, tags] = await Promise.all([
    posts.some((p) => p.categories?.length) ? listTerms(client, 'categories') : Promise.resolve([]),
    posts.some((p) => p.tags?.length) ? listTerms(client, 'tags') : Promise.resolve([]),
  ]);
  const termNames = (list: { id: number; name?: string; slug?: string }[]): Map<number, string> =>
    new Map(list.map((t) => [t.id, decodeEntities(t.name ?? t.slug ?? String(t.id))]));
  const catNames = termNames(cats);
  const tagNames = termNames(tags);
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
      if (opts.media && url) {
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
        { categories: catNames, tags: tagNames, key, stated, ...(image && { image }) },
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
        before === undefined ? 'created' : before === text ? 'unchanged' : opts.force ? 'updated' : 'differs',
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
    const problem = await download(d.url, d.path, credentials.websiteUrl, deps, project.root);
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
      const { writeFailure } = await import('../../../lib/write-failure.js');
      throw writeFailure(error, w.path, 'the files before it were written') ?? error;
    }
  }

  if (opts.adopt) {
    const adoptable = rows.filter((r) => r.action !== 'differs' && r.action !== 'skipped');
    await adopt(client, adoptable, posts, deps);
  }

  if (json.enabled) json.print(deps.io, rows);
  else if (globals.quiet) {
    if (rows.length) deps.io.out(rows.map((r) => r.file).join('\n'));
  } else if (rows.length) await printRows(deps.io, rows);
  for (const r of rows) if (r.note) deps.io.note(`${r.file}: ${r.note}`);
  if (otherSources)
    deps.io.note(
      `${otherSources} post${otherSources === 1 ? '' : 's'} left out: published by blogctl from another source (this project's files or another project's)`,
    );
  const count = (a: PullRow['action']): number => rows.filter((r) => r.action === a).length;
  const parts = (
    [
      [count('created'), 'new files'],
      [count('updated'), 'overwritten (--force)'],
      [count('unchanged'), 'unchanged'],
      [count('differs'), 'differ and left'],
    ] as [number, string][]
  ).filter(([n]) => n);
  deps.io.success(
    `${rows.length} post${rows.length === 1 ? '' : 's'} pulled into ${relative(process.cwd(), target) || '.'}${parts.length ? `: ${parts.map(([n, w]) => `${n} ${w}`).join(', ')}` : ''}${opts.adopt ? `; ${rows.filter((r) => r.adopted).length} adopted` : ''}`,
  );
}

/**
 * --adopt: each post gets the marker `wp publish` would send for its file (same key, same sums), and
 * nothing else changes on it. Posts carrying that marker already are left alone.
 */
async function adopt(
  client: WordPressClient,
  rows: PullRow[],
  posts: WpPostDetail[],
  deps: Pick<Deps, 'readStdin'>,
): Promise<void> {
  if (!rows.length) return;
  const { fileSpecs } = await import('../publish-sources.js');
  const { makeJob } = await import('../../../publishing/publish-job.js');
  const { jobMarker } = await import('../../../publishing/publish-plan.js');
  const { formatMarker } = await import('../../../publishing/identity.js');
  const { storedValues } = await import('../../../publishing/look-up.js');
  const { storedSums } = await import('../../../publishing/drift.js');
  const { scopeOf } = await import('../../../project/scope.js');
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
    sums: { ...source.sums, ...storedSums(storedValues(stored)) },
  });
  for (const [i, spec] of specs.entries()) {
    const row = rows[i]!;
    const post = byId.get(row.id)!;
    const job = await makeJob(spec, { now, allowImmediate: true });
    const source = jobMarker(job, ns);
    if (!source) continue;
    let marker = markerFor(source, post);
    const raw = post.content?.raw ?? '';
    const current = readMarker(raw);
    if (current && formatMarker(current) === formatMarker(marker)) {
      row.adopted = true;
      continue;
    }
    let stored = await updatePost(client, post.id, { content: replaceMarker(raw, marker) });
    // WordPress may store the content otherwise than sent: the sums are of what it stored.
    const again = markerFor(source, stored);
    if (formatMarker(again) !== formatMarker(marker)) {
      marker = again;
      stored = await updatePost(client, post.id, {
        content: replaceMarker(stored.content?.raw ?? raw, marker),
      });
    }
    const back = readMarker(stored.content?.raw ?? '');
    if (!back || back.key !== marker.key)
      throw new UnavailableError(
        `post ${post.id}: WordPress did not keep blogctl's marker (a plugin filtering content on save?); ${row.file} is not adopted`,
      );
    row.adopted = true;
  }
}

const COLUMNS: Column<PullRow>[] = [
  { header: 'FILE', value: (r) => r.file, flexible: true, min: 20 },
  { header: 'ACTION', value: (r) => r.action },
  { header: 'WP STATUS', value: (r) => r.status },
  { header: 'ID', value: (r) => r.id, copy: true },
  { header: 'LINK', value: (r) => r.link, copy: true },
];

async function printRows(io: Deps['io'], rows: PullRow[]): Promise<void> {
  if (io.stdoutIsTTY) (await import('../../../output/table.js')).printTable(io, COLUMNS, rows);
  else (await import('../../../output/tsv.js')).printTsv(io, COLUMNS, rows);
}
