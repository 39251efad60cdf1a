// Publishes in doubt: publishes whose request may have reached the service without a readable answer, so
// that the next run of the same publish looks for the post on the site before it sends anything, and sends
// it (if at all) with the same Idempotency-Key.
//
// The life of a doubt: a `doubt` line, on disk before the publish request goes out; a `settled` line once
// the outcome is known — published (after the journal entry is on disk) or definitely not done (never sent,
// a 4xx, `isPublished: false`); no settled line when the outcome is unknown (no answer, a cut or unreadable
// answer, a 5xx, an interrupt, a crash). A doubt left by a crash at any point only makes the next run look
// before sending.
//
// The log. `<config dir>/in-doubt.jsonl`, one JSON line per event:
//   {"v":1,"kind":"doubt",...InDoubtRecord}
//   {"v":1,"kind":"settled","site":…,"sourceKey":…,"at":…}
// A site and source is in doubt when its latest line is a doubt line. It is written like the journal
// (journal-writer.ts), inside the journal's lock session (withJournalLock), and for the same reason: the
// lines of a batch's posts share writes and fsyncs, where a file per record cost two fsyncs and
// about ten file operations per post before it could be sent. A torn last line (a crash mid-append) is
// skipped, and the next append starts on a fresh line, as in the journal.
//
// It stays small: when a session ends, the log is emptied (truncated, fsync'ed) if nothing is left in doubt,
// or else replaced atomically by the outstanding doubt lines alone. Either form holds the same doubts as the
// log before it, so a crash during either loses none. A settled line is only written once the outcome it
// records is durable (the journal entry fsync'ed first), so dropping settled doubts loses nothing either.
//
// Settled lines wait for the session's end, where they are written in one group just before compacting
// (the journal's entries are all on disk by then): a batch's posts pay nothing for them while they are sent,
// and a crash before the end leaves their doubts, which only make the next run consult the journal (or look
// on the site) first. A doubt line for a source settled earlier in the same session drops that settled line,
// as the newer doubt is what counts.
import { closeSync, fsyncSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteFile } from '../lib/atomic-file.js';
import { redact } from '../output/redact.js';
import type { JournalSource } from './journal.js';
import { JournalWriter } from './journal-writer.js';

export const IN_DOUBT_FILE = 'in-doubt.jsonl';
const FORMAT_VERSION = 1;

export interface InDoubtRecord {
  /** journalSite() of the WordPress URL. */
  site: string;
  siteId?: string;
  /** journalKey(source) of the publish. */
  sourceKey: string;
  source: JournalSource;
  /** Sent with the request; a re-send reuses it, so a service that honours it answers with the first outcome. */
  idempotencyKey: string;
  /** The title sent: how the post is found when no slug was sent. */
  title: string;
  /** The slug sent, if any. */
  slug?: string;
  /** True when a date was sent: the post's own date then says nothing about when it was created. */
  dated?: boolean;
  /** ISO 8601: when the first request was sent. */
  sentAt: string;
}

export function inDoubtPath(configDir: string): string {
  return join(configDir, IN_DOUBT_FILE);
}

/**
 * The outstanding record for this site and source, or undefined: for a look before the journal's lock is
 * taken (blog create --key, before it generates). Under the lock, use the session's findDoubt().
 */
export function readInDoubt(configDir: string, site: string, sourceKey: string): InDoubtRecord | undefined {
  return parseLog(readLog(inDoubtPath(configDir))).outstanding.get(indexKey(site, sourceKey))?.record;
}

/**
 * The in-doubt log of one journal lock session. The log is read once, when first needed; from then on the
 * session is the only writer (it holds the lock), so what it appends keeps the picture current.
 */
export class InDoubtLog {
  private outstanding: Map<string, Outstanding> | undefined;
  private readonly writer: JournalWriter;
  private closed = false;
  /** Settled in this session, by indexKey: written when the session ends. */
  private settled = new Map<string, { site: string; sourceKey: string; at: number }>();

  constructor(private readonly path: string) {
    this.writer = new JournalWriter(path);
  }

  find(site: string, sourceKey: string): InDoubtRecord | undefined {
    return this.current().get(indexKey(site, sourceKey))?.record;
  }

  /** Appends a doubt line; resolves once it is on disk, rejects if it could not be written or synced. */
  doubt(record: InDoubtRecord): Promise<void> {
    // Outside the lock, another run may be compacting the log: nothing may be sent on the strength of a
    // line it could drop. (Only a worker still finishing while an interrupted run unwinds gets here.)
    if (this.closed) return Promise.reject(new Error('the journal session has ended'));
    try {
      const line = serialiseDoubt(record);
      // Counted as in doubt even if the write fails: the end-of-session compaction then keeps, never drops.
      const key = indexKey(record.site, record.sourceKey);
      this.current().set(key, { record, line });
      this.settled.delete(key);
      return this.writer.append(line);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /**
   * The outcome is known: the doubt is settled, and its settled line written when the session ends. Nothing
   * to wait for, and nothing to report if writing it fails: the doubt then stays, and the next run consults
   * the journal first or looks on the site before sending. After the session's end (outside the lock) the
   * doubt stays too.
   */
  settle(site: string, sourceKey: string): void {
    if (this.closed) return;
    try {
      const key = indexKey(site, sourceKey);
      if (this.current().delete(key)) this.settled.set(key, { site, sourceKey, at: Date.now() });
    } catch {
      // As above: the doubt stays.
    }
  }

  /** Writes the settled lines, waits for every line's fsync, then compacts the log. Call holding the lock. */
  async close(): Promise<void> {
    for (const { site, sourceKey, at } of this.settled.values()) {
      const line = redact(
        JSON.stringify({
          v: FORMAT_VERSION,
          kind: 'settled',
          site,
          sourceKey,
          at: new Date(at).toISOString(),
        }),
      );
      this.writer.append(line, { lazy: true }).catch(() => undefined);
    }
    this.settled.clear();
    this.closed = true;
    await this.writer.close();
    await compact(this.path);
  }

  private current(): Map<string, Outstanding> {
    return (this.outstanding ??= parseLog(readLog(this.path)).outstanding);
  }
}

interface Outstanding {
  record: InDoubtRecord;
  /** The line as it is in the log: compaction writes it back unchanged. */
  line: string;
}

interface ParsedLog {
  outstanding: Map<string, Outstanding>;
  /** Lines (complete or torn) that are not an outstanding doubt: settled, superseded, torn or foreign. */
  obsolete: number;
}

/**
 * Empties the log when nothing is in doubt, or rewrites it with the outstanding doubt lines alone when it
 * holds anything else. Both are crash-safe: the truncation is one metadata change, fsync'ed; the rewrite is
 * atomicWriteFile's temporary file and rename. Read afresh from the file, not from the session's picture,
 * so that it keeps whatever is on disk.
 */
async function compact(path: string): Promise<void> {
  const bytes = readLog(path);
  if (!bytes.length) return;
  const { outstanding, obsolete } = parseLog(bytes);
  if (!outstanding.size) {
    // Synchronous: a moment at the session's end, and node:fs/promises would load for it on every publish.
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, 0);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } else if (obsolete) {
    await atomicWriteFile(path, [...outstanding.values()].map(({ line }) => `${line}\n`).join(''));
  }
}

function readLog(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

function parseLog(bytes: Buffer): ParsedLog {
  const outstanding = new Map<string, Outstanding>();
  // Only complete lines: a last line without its newline is being written, or was torn by a crash.
  const end = bytes.lastIndexOf(0x0a) + 1;
  const lines = end ? bytes.toString('utf8', 0, end - 1).split('\n') : [];
  for (const line of lines) {
    const event = parseLine(line);
    if (event?.kind === 'doubt')
      outstanding.set(indexKey(event.record.site, event.record.sourceKey), { record: event.record, line });
    else if (event?.kind === 'settled') outstanding.delete(indexKey(event.site, event.sourceKey));
  }
  return { outstanding, obsolete: lines.length - outstanding.size + (end < bytes.length ? 1 : 0) };
}

type Event = { kind: 'doubt'; record: InDoubtRecord } | { kind: 'settled'; site: string; sourceKey: string };

function parseLine(line: string): Event | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined; // a torn line from a crash
  }
  if (!value || typeof value !== 'object') return undefined;
  const { v: _version, kind, ...fields } = value as Record<string, unknown>;
  if (typeof fields['site'] !== 'string' || typeof fields['sourceKey'] !== 'string') return undefined;
  if (kind === 'settled') return { kind, site: fields['site'], sourceKey: fields['sourceKey'] };
  if (kind !== 'doubt') return undefined;
  const strings = ['idempotencyKey', 'title', 'sentAt'] as const;
  if (strings.some((name) => typeof fields[name] !== 'string')) return undefined;
  return { kind, record: fields as unknown as InDoubtRecord };
}

function serialiseDoubt(record: InDoubtRecord): string {
  // No field holds a secret; redact() is the last guard should a caller pass one by mistake.
  return redact(JSON.stringify({ v: FORMAT_VERSION, kind: 'doubt', ...record }));
}

function indexKey(site: string, sourceKey: string): string {
  return `${site}\n${sourceKey}`;
}
