// The store's files as they are written: changes appended to `<data>.log` and fsynced (the answer waits for
// that), and now and then a compaction that writes the whole store as a new snapshot and drops the log.
//
// Why a SIGKILL at any moment loses nothing acknowledged and corrupts nothing:
// - An append is acknowledged only after fdatasync; a line cut short is at the very end and is ignored (and
//   cut off before the next append).
// - A compaction first puts the new snapshot in place atomically (atomicWriteFile: temp, fsync, rename,
//   directory fsync), with the next generation number; only then is the log removed. A log left behind
//   names the older generation in its header, so it is known to be held by the snapshot and is skipped.
// - A new log is created atomically with its header, so a log never exists without one.
// A write that fails (disk full) may leave part of a line behind: the next save compacts instead of
// appending after it.
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { atomicWriteFile } from '../lib/atomic-file.js';
import { logHeaderLine, type ParsedStore } from './store-format.js';

/**
 * Compact once the log passes this share of the snapshot (and at least MIN_LOG_BYTES): each byte a change
 * adds is then written about three times in all (once in the log, twice in snapshots), whatever the
 * store's size.
 */
const LOG_SHARE = 0.5;
const MIN_LOG_BYTES = 256 * 1024;

export class StoreFiles {
  readonly logFile: string;
  private handle: FileHandle | undefined;
  private generation: number;
  /** A version 2 snapshot of `generation` is on disk (a version 1 file is rewritten at the first save). */
  private snapshotCurrent: boolean;
  private snapshotBytes: number;
  /** The log on disk continues the current snapshot (else it is absent or stale: create it anew). */
  private logCurrent: boolean;
  private logBytes: number;
  private tornAt: number | undefined;
  /** A write failed part-way: what is on disk may end in a partial line, so the next save compacts. */
  private broken = false;

  constructor(
    readonly dataFile: string,
    private readonly keyCheck: string,
    loaded: Pick<ParsedStore, 'version' | 'generation' | 'snapshotBytes' | 'log'>,
  ) {
    this.logFile = `${dataFile}.log`;
    this.generation = loaded.generation;
    this.snapshotCurrent = loaded.version === 2;
    this.snapshotBytes = loaded.snapshotBytes;
    this.logCurrent = loaded.log !== undefined;
    this.logBytes = loaded.log?.validBytes ?? 0;
    this.tornAt = loaded.log?.tornAt;
  }

  needsCompaction(): boolean {
    return (
      this.broken ||
      !this.snapshotCurrent ||
      this.logBytes > Math.max(MIN_LOG_BYTES, this.snapshotBytes * LOG_SHARE)
    );
  }

  /** Appends whole lines and waits until they are on disk. */
  async append(lines: string): Promise<void> {
    try {
      const handle = await this.openLog();
      await handle.appendFile(lines, 'utf8');
      await handle.datasync();
      this.logBytes += Buffer.byteLength(lines);
    } catch (error) {
      this.broken = true;
      await this.closeLog();
      throw error;
    }
  }

  /**
   * Writes the whole store as the next generation's snapshot, then drops the log. `snapshot` is called at
   * once, before anything is awaited, so it holds every change made so far.
   */
  async compact(snapshot: (generation: number) => string): Promise<void> {
    const generation = this.generation + 1;
    const text = snapshot(generation);
    // Until the new snapshot is in place, what is on disk may lack changes taken off the queue for it.
    this.broken = true;
    await this.closeLog();
    await atomicWriteFile(this.dataFile, text);
    this.generation = generation;
    this.snapshotCurrent = true;
    this.snapshotBytes = Buffer.byteLength(text);
    this.logCurrent = false;
    this.logBytes = 0;
    this.tornAt = undefined;
    this.broken = false;
    // Stale from now on whether or not this succeeds: a leftover is skipped at load and replaced later.
    await unlink(this.logFile).catch(() => undefined);
  }

  /** The next save writes a snapshot (records were set aside at load: the files must stop holding them). */
  requireCompaction(): void {
    this.broken = true;
  }

  async closeLog(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }

  private async openLog(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    if (!this.logCurrent) {
      const header = logHeaderLine(this.generation, this.keyCheck);
      await atomicWriteFile(this.logFile, header);
      this.logCurrent = true;
      this.logBytes = Buffer.byteLength(header);
      this.tornAt = undefined;
    }
    const handle = await open(this.logFile, 'a', 0o600);
    try {
      if (this.tornAt !== undefined) {
        await handle.truncate(this.tornAt);
        await handle.datasync();
        this.tornAt = undefined;
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    this.handle = handle;
    return handle;
  }
}
