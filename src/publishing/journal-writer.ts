// An append-only log of JSON lines, written the way the publish journal needs (journal.ts) and the in-doubt log
// too (in-doubt.ts): whole lines, written in groups with one write(2) and one fsync each, so that a batch of
// posts is held up neither by one disk flush per line nor by one system call per line. Callers serialise
// their lines and hold their lock.
import { closeSync, fstatSync, fsync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { syncDirectory } from '../lib/atomic-file.js';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** How long a line nobody is waiting for may wait for company before it is written anyway. */
const LINGER_MS = 5;

/**
 * The appends of one lock session. The file stays open for the session (one open, not one per record), and
 * lines are written in groups, each with one write(2) and one fsync (run in the thread pool). A line someone
 * waits for before going on (a doubt line, which must be on disk before its post is sent) starts a group at
 * the end of the current tick, or right after the group being written; a lazy line (a journal entry, a
 * settled line: nothing waits for them but the end of the batch) waits up to LINGER_MS for company, so a
 * batch's entries share a few groups rather than one each. flush() and close() write everything queued at
 * once. A line is in the file, and on disk, when the promise append() returns settles: no caller acts on a
 * line before that.
 */
export class JournalWriter {
  private fd: number | undefined;
  /** Where this session expects the file to end: anything else means another writer, so look again. */
  private end = -1;
  private created = false;
  private closed = false;
  /** Appended, waiting for the next group. */
  private queued: string[] = [];
  private waiters: Waiter[] = [];
  /** Whether anything queued is waited for (or flush() was called): the next group goes without lingering. */
  private urgent = false;
  private flushing: Promise<void> | undefined;
  private linger: NodeJS.Timeout | undefined;

  constructor(private readonly path: string) {}

  /**
   * Queues one line (without its newline); the promise settles once it is written and fsync'ed. `lazy`: the
   * caller does not wait for it to go on, so it may wait a little for other lines to share its group.
   */
  append(line: string, { lazy = false }: { lazy?: boolean } = {}): Promise<void> {
    if (this.closed) {
      // A record after the session ended (a worker still finishing while an interrupted run unwinds): on
      // disk before it returns, as there is no session end left to wait for it.
      try {
        appendNow(this.path, line);
      } catch (error) {
        return Promise.reject(error as Error);
      }
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.queued.push(line);
      this.waiters.push({ resolve, reject });
      if (lazy) this.later();
      else this.now();
    });
  }

  /** Writes what is queued without lingering (the batch is done: nothing more is coming to share it). */
  flush(): void {
    if (this.queued.length) this.now();
  }

  /** Writes and syncs every line appended before it, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    this.flush();
    while (this.flushing) await this.flushing;
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // Everything written is already synced: a failing close must not keep the lock from being released.
    }
  }

  private now(): void {
    this.urgent = true;
    clearTimeout(this.linger);
    this.linger = undefined;
    this.flushing ??= this.write();
  }

  private later(): void {
    if (this.flushing || this.linger) return; // the group being written, or the timer, takes it along
    this.linger = setTimeout(() => {
      this.linger = undefined;
      this.flushing ??= this.write();
    }, LINGER_MS);
  }

  /**
   * Writes and fsyncs groups while anything waited for is queued; each group's waiters settle with its
   * outcome. Lazy lines queued meanwhile go with the next group, or wait for the timer when none follows.
   */
  private async write(): Promise<void> {
    try {
      // The rest of this tick joins the group: the lines a batch's workers append as they start.
      await Promise.resolve();
      do {
        const lines = this.queued;
        const waiters = this.waiters;
        this.queued = [];
        this.waiters = [];
        this.urgent = false;
        let error: Error | null = null;
        try {
          const fd = this.writeGroup(lines);
          error = await new Promise<Error | null>((resolve) => fsync(fd, resolve));
          if (!error && this.created) {
            this.created = false;
            syncDirectory(dirname(this.path));
          }
        } catch (caught) {
          error = caught as Error;
        }
        for (const waiter of waiters) {
          if (error) waiter.reject(error);
          else waiter.resolve();
        }
      } while (this.urgent && this.queued.length);
    } finally {
      this.flushing = undefined;
      if (this.queued.length) this.later();
    }
  }

  /** One write(2) of the group's lines, each whole and on a line of its own. */
  private writeGroup(lines: string[]): number {
    if (this.fd === undefined) {
      this.fd = openSync(this.path, 'a+', 0o600);
      this.end = -1;
    }
    const fd = this.fd;
    let prefix = '';
    const size = this.end;
    const actual = fstatSync(fd).size;
    if (actual !== size) {
      if (size < 0 && actual === 0) this.created = true;
      prefix = needsNewline(fd, actual) ? '\n' : '';
    }
    const bytes = Buffer.from(`${prefix}${lines.join('\n')}\n`, 'utf8');
    writeWhole(fd, bytes);
    this.end = actual + bytes.length;
    return fd;
  }
}

/** One append with its own open and fsync: on disk when this returns. */
function appendNow(path: string, line: string): void {
  const fd = openSync(path, 'a+', 0o600);
  let created = false;
  try {
    const { size } = fstatSync(fd);
    created = size === 0;
    writeWhole(fd, Buffer.from(`${needsNewline(fd, size) ? '\n' : ''}${line}\n`, 'utf8'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (created) syncDirectory(dirname(path));
}

/** After a torn line (a crash mid-append): never glue a good entry onto it. */
function needsNewline(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/** One write of the whole line; O_APPEND puts any remainder of a short write right after it. */
function writeWhole(fd: number, bytes: Buffer): void {
  for (let written = 0; written < bytes.length;) {
    written += writeSync(fd, bytes, written, bytes.length - written);
  }
}
