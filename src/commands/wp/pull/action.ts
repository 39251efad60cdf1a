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
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import * as z from 'zod/mini';
import { AuthError, UsageError, UnavailableError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../output/json.js';
import type { Column } from '../../../output/table.js';
import { findProject, type Project } from '../../../project/project-file.js';
import { keyHash, nsHash, readMarker, replaceMarker, type Marker } from '../../../publishing/identity.js';
import { fileNameFor, postToMarkdown, type PullContext } from '../../../publishing/pull-post.js';
import { keySourceKey } from '../../../publishing/source-key.js';
import { resolveCredentials } from '../../../sites/profiles.js';
import type { WordPressClient } from '../../../wordpress/client.js';
import { updatePost, wpPostDetail, type WpPostDetail } from '../../../wordpress/posts.js';
import { decodeEntities } from '../../../wordpress/text.js';
import type { Input } from './command.js';

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

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
const FIELDS =
  'id,date,date_gmt,modified,modified_gmt,slug,status,type,link,title,content,excerpt,author,featured_media,sticky,template,format,comment_status,ping_status,categories,tags,password';

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
  const downloads: { url: string; path: string }[] = [];
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
        downloads.push({ url, path: file });
        image = { file: relative(dirname(path), file).split('\\').join('/') };
      } else image = { id: post.featured_media, ...(url !== undefined && { url }) };
    }
    const text = postToMarkdown(
      { ...post, content: { ...post.content, raw: withoutMarker(raw) } },
      { categories: catNames, tags: tagNames, key, stated, ...(image && { image }) },
    );
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
    if (row.action === 'created' || row.action === 'updated') writes.push({ path, text, post, row });
  }

  for (const d of downloads) await download(d.url, d.path, credentials.websiteUrl, deps);
  for (const w of writes) {
    mkdirSync(dirname(w.path), { recursive: true });
    writeFileSync(w.path, w.text);
  }

  if (opts.adopt) {
    const adoptable = rows.filter((r) => r.action !== 'differs');
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

function siteOf(project: Project, opts: Input['opts']): { site?: string; url?: string; username?: string } {
  if (opts.site !== undefined || opts.url !== undefined || opts.username !== undefined)
    return {
      ...(opts.site !== undefined && { site: opts.site }),
      ...(opts.url !== undefined && { url: opts.url }),
      ...(opts.username !== undefined && { username: opts.username }),
    };
  if (typeof project.site === 'string') return { site: project.site };
  if (project.site) return { url: project.site.url, username: project.site.username };
  return {};
}

/** Where new files go: the folder given, else the project's first source folder, else its root. */
function outputFolder(project: Project, given: string | undefined): string {
  if (given !== undefined) {
    const dir = resolve(given);
    const rel = relative(project.root, dir);
    if (rel.startsWith('..') || resolve(project.root, rel) !== dir)
      throw new UsageError(`${given}: outside the project (${project.root})`);
    return dir;
  }
  for (const source of project.sources) {
    try {
      if (statSync(source).isDirectory()) return source;
    } catch {
      // Not there yet: made when the first file is written.
      if (!/\.(md|markdown|html?)$/i.test(source)) return source;
    }
  }
  return project.root;
}

function parseStatuses(value: string | undefined): string[] {
  if (value === undefined) return STATUSES;
  const list = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.filter((s) => !STATUSES.includes(s));
  if (!list.length || bad.length)
    throw new UsageError(
      `--status: expected some of ${STATUSES.join(', ')}${bad.length ? ` (got "${bad[0]!}")` : ''}`,
    );
  return list;
}

/** --since: a date (`2026-01-31`) or a date and time, with or without an offset (the site's time without one). */
function parseSince(value: string): string {
  const v = value.trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(v);
  if (!m || Number.isNaN(new Date(`${m[1]!}T00:00:00Z`).getTime()))
    throw new UsageError(`--since: expected a date like 2026-01-31 or 2026-01-31T09:00 (got "${value}")`);
  const time = m[2] ? (m[2].length === 5 ? `${m[2]}:00` : m[2]) : '00:00:00';
  return `${m[1]!}T${time}${m[3] ?? ''}`;
}

function parseAuthor(value: string): number {
  if (!/^\d{1,15}$/.test(value.trim()) || Number(value) <= 0)
    throw new UsageError(`--author: expected a user id (a whole number), got "${value}"`);
  return Number(value);
}

async function categoryIds(client: WordPressClient, refs: string[]): Promise<number[]> {
  const { resolveTermIds } = await import('../../../wordpress/terms.js');
  return resolveTermIds(client, 'categories', refs, { create: false });
}

const postList = z.array(wpPostDetail);

/** Every post matching the filters, 100 a page; the pages after the first asked for together. */
async function listPosts(
  client: WordPressClient,
  filters: Record<string, string | number>,
  label: string,
): Promise<WpPostDetail[]> {
  const page = (n: number) =>
    client.route('wp/v2/posts', {
      method: 'GET',
      params: {
        ...filters,
        context: 'edit',
        per_page: 100,
        page: n,
        orderby: 'id',
        order: 'asc',
        _fields: FIELDS,
      },
      schema: postList,
      label,
    });
  const first = await page(1);
  const pages = Number(first.headers['x-wp-totalpages'] ?? 1);
  const rest = await Promise.all(
    Array.from({ length: Number.isSafeInteger(pages) && pages > 1 ? Math.min(pages, 1000) - 1 : 0 }, (_, i) =>
      page(i + 2),
    ),
  );
  return [first, ...rest].flatMap((r) => r.body).filter((p) => (p.type ?? 'post') === 'post');
}

const mediaList = z.array(z.looseObject({ id: z.number(), source_url: z.optional(z.string()) }));

/** The address of each featured image, 100 a request. */
async function mediaUrls(client: WordPressClient, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, string>();
  for (let i = 0; i < unique.length; i += 100) {
    const batch = unique.slice(i, i + 100);
    const res = await client.route('wp/v2/media', {
      method: 'GET',
      params: { include: batch.join(','), per_page: 100, context: 'edit', _fields: 'id,source_url' },
      schema: mediaList,
      label: 'read the featured images',
    });
    for (const m of res.body) if (m.source_url) out.set(m.id, m.source_url);
  }
  return out;
}

/** The site's own image, fetched without credentials (it is public); only from the site's address. */
async function download(
  url: string,
  path: string,
  siteUrl: string,
  deps: Pick<Deps, 'signal'>,
): Promise<void> {
  if (new URL(url).origin !== new URL(siteUrl).origin)
    throw new UsageError(`--media: ${url} is not on the site (${new URL(siteUrl).origin}); not downloaded`);
  let bytes: Buffer;
  try {
    const res = await fetch(url, { signal: AbortSignal.any([deps.signal, AbortSignal.timeout(60_000)]) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    bytes = Buffer.from(await res.arrayBuffer());
  } catch (error) {
    throw new UnavailableError(
      `--media: downloading ${url} failed: ${(error as Error).message}; nothing written`,
    );
  }
  if (readIfThereBytes(path)?.equals(bytes)) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

function safeName(url: string): string {
  const name = decodeURIComponent(basename(new URL(url).pathname));
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(-100) || 'image';
}

/** A path in `dir` for `name` that no other post of this run took and no file of another post holds. */
function freePath(dir: string, name: string, id: number, taken: Set<string>): string {
  const first = join(dir, name);
  if (!taken.has(first) && readIfThere(first) === undefined) return first;
  return join(dir, name.replace(/\.md$/, `-${id}.md`));
}

/** The project's Markdown files by their front matter key, for posts pulled before. */
function filesByKey(project: Project): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const path = join(dir, name);
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(path);
      else if (/\.(md|markdown)$/i.test(name)) {
        const text = readIfThere(path) ?? '';
        const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
        const key = /^key:\s*["']?([^"'\r\n#]+?)["']?\s*(?:#.*)?$/m.exec(front)?.[1];
        if (key && !out.has(key)) out.set(key, path);
      }
    }
  };
  walk(project.root);
  return out;
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readIfThereBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

const withoutMarker = (raw: string): string => raw.replace(/\n?<!-- blogctl:v1 [^>]*?-->/g, '');

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
