// The store's files as they are written: changes appended to `<data>.log` and fsynced (the answer waits for
// that), and now and then a compaction that writes the whole store as a new snapshot.
//
// Why a SIGKILL at any moment loses nothing acknowledged and corrupts nothing:
// - An append is acknowledged only after fdatasync; a line cut short is at the very end and is ignored (and
//   cut off before the next append).
// - A compaction, in the background: the snapshot text is taken from memory in the same tick as the last
//   changes it holds, those changes are appended and fsynced, and the log is renamed `<data>.log.old`; new
//   changes go to a new log of the next generation. Then the snapshot of that generation is put in place
//   atomically (atomicWriteFile: temp, fsync, rename, directory fsync), and only then is `.log.old`
//   removed. Until then the old snapshot, `.log.old` and the new log describe the store; after, the new
//   snapshot and the new log, `.log.old` being older than the snapshot (stale, skipped). parseStore in
//   store-format.ts reads every one of those states.
// - A compaction in the foreground (the first save, a version 1 file, after a failed write): the snapshot
//   holds every change, and is given a generation above every file's, so all logs become stale.
// - A log is created atomically with its header, so a log never exists without one.
// A write that fails (disk full) may leave part of a line behind: the next save compacts in the foreground
// instead of appending after it.
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { atomicWriteFile } from '../lib/atomic-file.js';
import { logHeaderLine } from './store-format.js';
import type { ParsedStore } from './store-load.js';

/**
 * Compact once the log passes this share of the snapshot (and at least MIN_LOG_BYTES): each byte a change
 * adds is then written about three times in all (once in the log, twice in snapshots), whatever the
 * store's size.
 */
const LOG_SHARE = 0.5;
const MIN_LOG_BYTES = 256 * 1024;

export class StoreFiles {
  readonly logFile: string;
  readonly oldLogFile: string;
  private handle: FileHandle | undefined;
  /** The generation of the log new changes go on; every file on disk has this one or a lower one. */
  private generation: number;
  /** A version 2 snapshot is on disk (a version 1 file is rewritten at the first save). */
  private snapshotCurrent: boolean;
  private snapshotBytes: number;
  /** The log on disk is the one of `generation` (else it is absent or stale: create it anew). */
  private logCurrent: boolean;
  private logBytes: number;
  private tornAt: number | undefined;
  /** What is on disk cannot simply be appended to (a failed write, a `.log.old` left): compact first. */
  private broken: boolean;
  private background: Promise<void> | undefined;

  constructor(
    readonly dataFile: string,
    private readonly keyCheck: string,
    loaded: Pick<ParsedStore, 'version' | 'highestGeneration' | 'snapshotBytes' | 'log' | 'oldLogApplied'>,
  ) {
    this.logFile = `${dataFile}.log`;
    this.oldLogFile = `${dataFile}.log.old`;
    this.generation = loaded.highestGeneration;
    this.snapshotCurrent = loaded.version === 2;
    this.snapshotBytes = loaded.snapshotBytes;
    this.logCurrent = loaded.log !== undefined && loaded.log.generation === loaded.highestGeneration;
    this.logBytes = this.logCurrent ? loaded.log!.validBytes : 0;
    this.tornAt = this.logCurrent ? loaded.log!.tornAt : undefined;
    this.broken = loaded.oldLogApplied;
  }

  /**
   * Makes the changes durable. `take` returns their log lines (all changes made so far); `snapshot` returns
   * the whole store as it is now. Both are called in the same tick, so a snapshot holds exactly the changes
   * taken with it.
   */
  async save(take: () => string, snapshot: (generation: number) => string): Promise<void> {
    if (this.broken || !this.snapshotCurrent) {
      // A snapshot still being written must not land after this one.
      await this.background;
      take();
      return this.compact(snapshot);
    }
    const lines = take();
    if (this.background || this.logBytes <= Math.max(MIN_LOG_BYTES, this.snapshotBytes * LOG_SHARE)) {
      if (lines) await this.append(lines);
      return;
    }
    const generation = this.generation + 1;
    const text = snapshot(generation);
    if (lines) await this.append(lines);
    // The changes are on disk: whatever happens to the compaction, this save has succeeded.
    try {
      await this.closeLog();
      await rename(this.logFile, this.oldLogFile);
    } catch {
      this.broken = true;
      return;
    }
    this.generation = generation;
    this.logCurrent = false;
    this.logBytes = 0;
    this.tornAt = undefined;
    this.background = this.writeSnapshot(text)
      .catch(() => {
        this.broken = true;
      })
      .finally(() => {
        this.background = undefined;
      });
  }

  /** The next save writes a snapshot (records were set aside at load: the files must stop holding them). */
  requireCompaction(): void {
    this.broken = true;
  }

  /** Waits for a compaction in the background, then closes the log (a later save opens it again). */
  async close(): Promise<void> {
    await this.background;
    await this.closeLog();
  }

  private async writeSnapshot(text: string): Promise<void> {
    await atomicWriteFile(this.dataFile, text);
    this.snapshotBytes = Buffer.byteLength(text);
    await unlink(this.oldLogFile).catch(() => undefined);
  }

  /** Appends whole lines and waits until they are on disk. */
  private async append(lines: string): Promise<void> {
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

  /** Writes the whole store as a snapshot of a generation above every file's, then drops the logs. */
  private async compact(snapshot: (generation: number) => string): Promise<void> {
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
    await unlink(this.oldLogFile).catch(() => undefined);
  }

  private async closeLog(): Promise<void> {
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
