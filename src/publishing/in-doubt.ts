// Publishes in doubt: one small file per publish whose request may have reached the service without a
// readable answer, so that the next run of the same publish looks for the post on the site before it sends
// anything, and sends it (if at all) with the same Idempotency-Key.
//
// The life of a record: written (and on disk) before the publish request goes out; removed once the
// outcome is known — published (the journal entry supersedes it) or definitely not done (never sent, a 4xx,
// `isPublished: false`); kept when the outcome is unknown (no answer, a cut or unreadable answer, a 5xx, an
// interrupt, a crash). A record left by a crash at any point only makes the next run look before sending.
//
// Why files beside the journal rather than journal lines: journal.jsonl stays what it was (one line per
// publish, append-only), a failed run adds nothing to it, and settling a doubt is an unlink rather than a
// tombstone every reader must resolve. Callers hold the journal's lock (withJournalLock) around read, write
// and remove, as they do around the journal check and record.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from '../atomic-file.js';
import { redact } from '../output/redact.js';
import type { JournalSource } from './journal.js';

export const IN_DOUBT_DIR = 'in-doubt';
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

export function inDoubtPath(configDir: string, site: string, sourceKey: string): string {
  const name = createHash('sha256').update(`${site}\n${sourceKey}`).digest('hex').slice(0, 40);
  return join(configDir, IN_DOUBT_DIR, `${name}.json`);
}

/** The record for this site and source, or undefined. A file that does not parse as one is ignored. */
export function readInDoubt(configDir: string, site: string, sourceKey: string): InDoubtRecord | undefined {
  let text: string;
  try {
    text = readFileSync(inDoubtPath(configDir, site, sourceKey), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const { v: _version, ...record } = value as Record<string, unknown>;
  const strings = ['site', 'sourceKey', 'idempotencyKey', 'title', 'sentAt'] as const;
  if (strings.some((name) => typeof record[name] !== 'string')) return undefined;
  // Two sources whose names hash alike would share a file: it is theirs only if it says so.
  if (record['site'] !== site || record['sourceKey'] !== sourceKey) return undefined;
  return record as unknown as InDoubtRecord;
}

/**
 * Writes the record and waits until it is on disk (written to a temporary file, fsync'ed, renamed into
 * place, directory fsync'ed): once this resolves, a crash of the process or the machine cannot lose it.
 */
export async function writeInDoubt(configDir: string, record: InDoubtRecord): Promise<void> {
  const dir = join(configDir, IN_DOUBT_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = inDoubtPath(configDir, record.site, record.sourceKey);
  // No field holds a secret; redact() is the last guard should a caller pass one by mistake.
  await atomicWriteFile(path, `${redact(JSON.stringify({ v: FORMAT_VERSION, ...record }))}\n`);
}

/** Settles the doubt: the outcome is known. Nothing to do when there is no record. */
export async function clearInDoubt(configDir: string, site: string, sourceKey: string): Promise<void> {
  try {
    await unlink(inDoubtPath(configDir, site, sourceKey));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
