// The publish journal: one JSON line per successful publish in `<config dir>/journal.jsonl`, so a cron job
// that runs the same publish again can say "already published" instead of creating a second post.
//
// Durability. The file is only ever appended to (history is never rewritten), whole lines at a time, under
// the journal's own lock. A crash mid-append can leave at most a torn last line: readers skip any line that
// is not a complete entry, and the next append starts on a fresh line, so a torn fragment never swallows a
// good entry. A record is in the file and on disk (fsync'ed) when the promise record() returns settles. The
// records are written in groups (journal-writer.ts): those made while one group is being written and synced
// share the next one's write(2) and fsync, which runs off the main thread, so a batch of posts is held up
// neither by one disk flush per post nor by one system call per line. Nothing acts on a record before its
// promise settles: a post's doubt is settled only then, so a crash before it leaves the doubt, and the next
// run looks for the post on the site. The lock is released only after every record is on disk, and
// recordPublished resolves only then.
//
// Locking. The journal has its own lock (`journal.jsonl.lock`, proper-lockfile), not the config dir's:
// a publish holds it from "is it in the journal?" through the request to "record it", which can take a
// minute, and `config set` must not wait for that. Two overlapping cron runs of the same publish therefore
// run one after the other, and the second finds the first's entry.
// The same session writes the in-doubt log (in-doubt.ts: publishes whose outcome is unknown) the same way,
// and compacts it when it ends.
//
// What "the same publish" means (journalKey): the same source, sent as the same post, to the same site.
//   file   `file:<absolute path>:<sha256 of the file's bytes>#post:<fingerprint>` — the same file, unchanged.
//          Editing the file makes it a new publish (pass an explicit --key to keep one identity across edits).
//   blog   `blog:<blog id>#post:<fingerprint>` — the same generated blog (--from-blog, blog create --publish).
//   flags  `content:<sha256 of [title, content]>#post:<fingerprint>` — title and content from flags or stdin.
//   key    `key:<key>` — whatever the caller says is one publish (--key), whatever the content or flags: the
//          key is the whole identity, so a cron job can change a post's fields and still publish it once.
// The fingerprint (postFingerprint in publish-job.ts) is a hash of every field of the post as it would be
// sent — title, content, status, date, slug, terms as given, the featured image — so a flag that changes the
// post (`--title "Another post"`, `--status publish`) makes it another publish rather than "already
// published". Entries written before the fingerprint existed are still honoured (legacyJournalKey).
// The site is the WordPress URL normalised by journalSite(), not the profile id, so two profiles of one
// WordPress (or --site and --url of it) are the same site.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockFile } from '../lib/file-lock.js';
import { redact } from '../output/redact.js';
import { InDoubtLog, inDoubtPath, type InDoubtRecord } from './in-doubt.js';
import { JournalWriter } from './journal-writer.js';

export const JOURNAL_FILE = 'journal.jsonl';
const FORMAT_VERSION = 1;

export type JournalSource =
  | { kind: 'file'; path: string; hash: string; post?: string }
  | { kind: 'blog'; blogId: string; post?: string }
  | { kind: 'key'; key: string }
  | { kind: 'flags'; hash: string; post?: string };

export interface JournalEntry {
  /** The WordPress site, as journalSite() spells it (or a site id, if the caller prefers). */
  site: string;
  /** The site profile used, for people reading the journal; lookups ignore it. */
  siteId?: string;
  /** journalKey(source). */
  sourceKey: string;
  source: JournalSource;
  /** The WordPress post id. */
  postId: number | string;
  link: string;
  /** The WordPress post status (draft, publish, future, …). */
  status: string;
  /** ISO 8601. */
  publishedAt: string;
}

/** node:crypto is fetched at the first hash, not imported: loading it costs about 10 ms of a dry run. */
export function sha256(content: string | Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(content).digest('hex');
}

/**
 * A file publish: the absolute path and the hash of the bytes that were published. The hash is worked out
 * when first read (a spread or JSON.stringify reads it too): a dry run never needs it.
 */
export function fileSource(path: string, content: string | Uint8Array): JournalSource {
  let hash: string | undefined;
  return Object.defineProperty({ kind: 'file', path: resolve(path) }, 'hash', {
    enumerable: true,
    get: () => (hash ??= sha256(content)),
  }) as JournalSource;
}

export function blogSource(blogId: string): JournalSource {
  return { kind: 'blog', blogId };
}

export function keySource(key: string): JournalSource {
  return { kind: 'key', key };
}

/** Title and content from flags or stdin. Hashed as a JSON pair, so ("ab", "c") and ("a", "bc") differ. */
export function flagsSource(title: string, content: string): JournalSource {
  return { kind: 'flags', hash: sha256(JSON.stringify([title, content])) };
}

export function journalKey(source: JournalSource): string {
  const base = legacyJournalKey(source);
  return source.kind !== 'key' && source.post ? `${base}#post:${source.post}` : base;
}

/** The key as blogctl wrote it before posts were fingerprinted: the source alone. */
export function legacyJournalKey(source: JournalSource): string {
  switch (source.kind) {
    case 'file':
      return `file:${resolve(source.path)}:${source.hash}`;
    case 'blog':
      return `blog:${source.blogId}`;
    case 'key':
      return `key:${source.key}`;
    case 'flags':
      return `content:${source.hash}`;
  }
}

/**
 * The site part of the journal's key: the WordPress URL without credentials, query or fragment, host in
 * lower case, default port and trailing slashes dropped (`https://Example.com:443/blog/` → `https://example.com/blog`).
 */
export function journalSite(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return url.trim().replace(/\/+$/, '');
  }
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
}

export function journalPath(configDir: string): string {
  return join(configDir, JOURNAL_FILE);
}

/** The latest entry for this site and source, or undefined. Reads the journal once, then only what is appended. */
export function findPublished(configDir: string, site: string, sourceKey: string): JournalEntry | undefined {
  return lookup(journalPath(configDir), site, sourceKey);
}

/** Appends one entry under the journal's lock and fsyncs it. */
export async function recordPublished(
  configDir: string,
  entry: JournalEntry,
  options: LockOptions = {},
): Promise<void> {
  await withJournalLock(configDir, (journal) => journal.record(entry), options);
}

export interface JournalSession {
  find(site: string, sourceKey: string): JournalEntry | undefined;
  /**
   * Appends the entry as one whole line; the promise settles once it is written and fsync'ed (rejects if
   * the entry could not be written or synced). Callers need not wait for it to go on: the session's end
   * waits for every record's fsync before the lock is released. It may wait a few milliseconds to share a
   * write with the records that follow: call flush() when no more are coming and its outcome is awaited.
   */
  record(entry: JournalEntry): Promise<void>;
  /** The publish of this site and source an earlier run left in doubt (in-doubt.ts), or undefined. */
  findDoubt(site: string, sourceKey: string): InDoubtRecord | undefined;
  /**
   * Appends a doubt line to the in-doubt log; the promise resolves once it is fsync'ed, and the request may
   * go out only then. Rejects if it could not be written or synced, or once the session has ended.
   */
  doubt(record: InDoubtRecord): Promise<void>;
  /**
   * The outcome of a doubt is known (after a publish, call it only once its journal entry is on disk): its
   * settled line is written when the session ends. Nothing to wait for; nothing is written when nothing is
   * in doubt.
   */
  settle(site: string, sourceKey: string): void;
  /** Writes the records waiting for company now: the batch is done. */
  flush(): void;
}

export interface LockOptions {
  /** How long to wait for another blogctl holding the journal (default 120 s). */
  waitMs?: number;
  /** A lock not refreshed for this long belongs to a dead process and is taken over (default 15 s). */
  staleMs?: number;
  /** Ctrl-C ends the wait at once (exit 130). */
  signal?: AbortSignal;
}

/**
 * Runs fn holding the journal's lock: the way to check, publish and record without an overlapping run
 * doing the same in between. Not re-entrant: inside fn, use the session, not recordPublished().
 */
export async function withJournalLock<T>(
  configDir: string,
  fn: (journal: JournalSession) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const path = journalPath(configDir);
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const release = await acquire(path, options);
  const writer = new JournalWriter(path);
  const doubts = new InDoubtLog(inDoubtPath(configDir));
  // Under the lock only this session appends to the journal: it is read once, at the first find(), and the
  // entries recorded since answer from memory (their lines, as the file will hold them), the latest first.
  let journal: { cached: Cached | undefined } | undefined;
  const recorded = new Map<string, string>();
  try {
    return await fn({
      find: (site, sourceKey) => {
        const mine = recorded.get(indexKey(site, sourceKey));
        const entry = mine === undefined ? undefined : parseLine(mine);
        if (entry) return entry;
        journal ??= { cached: load(path) };
        return journal.cached && lookupIn(journal.cached, site, sourceKey);
      },
      record: (entry) => {
        let line: string;
        try {
          line = serialise(entry);
        } catch (error) {
          return Promise.reject(error as Error);
        }
        recorded.set(indexKey(withoutUserinfo(entry.site), entry.sourceKey), line);
        return writer.append(line, { lazy: true });
      },
      findDoubt: (site, sourceKey) => doubts.find(site, sourceKey),
      doubt: (record) => doubts.doubt(record),
      settle: (site, sourceKey) => doubts.settle(site, sourceKey),
      flush: () => writer.flush(),
    });
  } finally {
    // Every record on disk before another run may look: its failures reach the callers of record().
    await writer.close();
    // Then the in-doubt log, whose settled lines follow journal entries already on disk. Compacting it is
    // housekeeping: should it fail, the log is as it was, complete.
    await doubts.close().catch(() => undefined);
    // A lock lost while held (compromised) cannot be released; it is taken over once stale.
    await release().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading. The complete lines are read once per process (then only the bytes appended since: the file only
// grows) and kept as bytes. A lookup searches them from the end for `"sourceKey":<key>` with the native
// Buffer search and parses only the lines that match — about 1 ms on a 10,000-entry (4 MB) journal, where
// parsing every line would cost 50 ms or more. Answers are remembered in a Map until the file grows.
// Entries are found by the exact spelling this module writes (JSON.stringify, no spaces).

interface Cached {
  dev: number;
  ino: number;
  /** The complete lines read so far (up to and including the last newline). */
  bytes: Buffer;
  answers: Map<string, JournalEntry | undefined>;
}

const cache = new Map<string, Cached>();

function lookup(path: string, site: string, sourceKey: string): JournalEntry | undefined {
  const cached = load(path);
  return cached && lookupIn(cached, site, sourceKey);
}

function lookupIn(cached: Cached, site: string, sourceKey: string): JournalEntry | undefined {
  const key = indexKey(site, sourceKey);
  if (cached.answers.has(key)) return cached.answers.get(key);
  const found = search(cached.bytes, site, sourceKey);
  cached.answers.set(key, found);
  return found;
}

/** The latest complete, valid line for this site and source. */
function search(bytes: Buffer, site: string, sourceKey: string): JournalEntry | undefined {
  const needle = Buffer.from(`"sourceKey":${JSON.stringify(sourceKey)}`, 'utf8');
  for (let from = bytes.length - 1; from >= 0;) {
    const at = bytes.lastIndexOf(needle, from);
    if (at < 0) break;
    const start = bytes.lastIndexOf(0x0a, at) + 1;
    const end = bytes.indexOf(0x0a, at);
    const entry = parseLine(bytes.toString('utf8', start, end < 0 ? bytes.length : end));
    if (entry && entry.sourceKey === sourceKey && entry.site === site) return entry;
    from = start - 1;
  }
  return undefined;
}

function load(path: string): Cached | undefined {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      cache.delete(path);
      return undefined;
    }
    throw error;
  }
  let cached = cache.get(path);
  // Replaced or truncated by someone else: start over.
  if (!cached || cached.dev !== stat.dev || cached.ino !== stat.ino || stat.size < cached.bytes.length) {
    cached = { dev: stat.dev, ino: stat.ino, bytes: Buffer.alloc(0), answers: new Map() };
    cache.set(path, cached);
  }
  if (stat.size > cached.bytes.length) readMore(path, cached);
  return cached;
}

function readMore(path: string, cached: Cached): void {
  const offset = cached.bytes.length;
  const fd = openSync(path, 'r');
  let fresh: Buffer;
  try {
    fresh = Buffer.alloc(fstatSync(fd).size - offset);
    let read = 0;
    while (read < fresh.length) {
      const n = readSync(fd, fresh, read, fresh.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    fresh = fresh.subarray(0, read);
  } finally {
    closeSync(fd);
  }
  // Only complete lines: a last line without its newline may still be being written (or was torn by a
  // crash, and then the next append starts a new line after it).
  const end = fresh.lastIndexOf(0x0a) + 1;
  if (end === 0) return;
  cached.bytes = offset ? Buffer.concat([cached.bytes, fresh.subarray(0, end)]) : fresh.subarray(0, end);
  cached.answers.clear();
}

function parseLine(line: string): JournalEntry | undefined {
  if (!line.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined; // a torn line from a crash
  }
  if (!value || typeof value !== 'object') return undefined;
  const { v: _version, ...entry } = value as Record<string, unknown>;
  if (typeof entry['site'] !== 'string' || typeof entry['sourceKey'] !== 'string') return undefined;
  return entry as unknown as JournalEntry;
}

function indexKey(site: string, sourceKey: string): string {
  return `${site}\n${sourceKey}`;
}

// ---------------------------------------------------------------------------------------------------------
// Writing.

function serialise(entry: JournalEntry): string {
  for (const name of ['site', 'sourceKey', 'link', 'status', 'publishedAt'] as const) {
    if (typeof entry[name] !== 'string') throw new TypeError(`journal entry: ${name} must be a string`);
  }
  if (!entry.site || !entry.sourceKey) throw new TypeError('journal entry: site and sourceKey are required');
  const clean: JournalEntry = {
    ...entry,
    site: withoutUserinfo(entry.site),
    link: withoutUserinfo(entry.link),
  };
  // No field of an entry holds a secret; redact() is the last guard should a caller pass one by mistake.
  return redact(JSON.stringify({ v: FORMAT_VERSION, ...clean }));
}

function withoutUserinfo(value: string): string {
  // Userinfo ends with "@": without one there is nothing to take out (and no URL to parse, per post).
  if (!value.includes('@')) return value;
  try {
    const url = new URL(value);
    if (!url.username && !url.password) return value;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return value;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The lock (file-lock.ts).

function acquire(path: string, options: LockOptions): Promise<() => Promise<void>> {
  return lockFile(path, {
    waitMs: options.waitMs ?? 120_000,
    staleMs: options.staleMs ?? 15_000,
    busy: (waitMs) =>
      `another blogctl is publishing with this config dir (${path}.lock held for over ${Math.round(waitMs / 1000)} s)`,
    ...(options.signal && { signal: options.signal }),
  });
}
