// An append-only log of JSON lines, written the way the publish journal needs (journal.ts) and the in-doubt log
// too (in-doubt.ts): one whole line per write(2), and fsyncs grouped in the thread pool so that a batch of
// posts is not held up by one disk flush per line. Callers serialise their lines and hold their lock.
import { closeSync, fstatSync, fsync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { syncDirectory } from '../atomic-file.js';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The appends of one lock session. The file stays open for the session (one open, not one per record), each
 * record is one write(2) of a whole line, and fsyncs are grouped: while one runs in the thread pool, the
 * records written meanwhile wait for the next, which then covers them all.
 */
export class JournalWriter {
  private fd: number | undefined;
  /** Where this session expects the file to end: anything else means another writer, so look again. */
  private end = -1;
  private created = false;
  private closed = false;
  /** Written, waiting for the next fsync. */
  private unsynced: Waiter[] = [];
  private syncing: Promise<void> | undefined;

  constructor(private readonly path: string) {}

  /** Writes one line (without its newline) before returning; the promise settles once it is fsync'ed. */
  append(line: string): Promise<void> {
    try {
      if (this.closed) {
        // A record after the session ended (a worker still finishing while an interrupted run unwinds): on
        // disk before it returns, as there is no session end left to wait for it.
        appendNow(this.path, line);
        return Promise.resolve();
      }
      this.write(line);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise<void>((resolve, reject) => {
      this.unsynced.push({ resolve, reject });
      this.syncing ??= this.sync();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    while (this.syncing) await this.syncing;
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // Everything written is already synced: a failing close must not keep the lock from being released.
    }
  }

  private write(line: string): void {
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
    const bytes = Buffer.from(`${prefix}${line}\n`, 'utf8');
    writeWhole(fd, bytes);
    this.end = actual + bytes.length;
  }

  /** fsyncs until nothing written is left unsynced; each round settles the records written before it began. */
  private async sync(): Promise<void> {
    try {
      while (this.unsynced.length && this.fd !== undefined) {
        const batch = this.unsynced;
        this.unsynced = [];
        const fd = this.fd;
        const error = await new Promise<Error | null>((resolve) => fsync(fd, resolve));
        if (!error && this.created) {
          this.created = false;
          syncDirectory(dirname(this.path));
        }
        for (const waiter of batch) {
          if (error) waiter.reject(error);
          else waiter.resolve();
        }
      }
    } finally {
      this.syncing = undefined;
    }
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
