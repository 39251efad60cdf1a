// The store's files as they are written: changes appended to `<data>.log` and fsynced (the answer waits for
// that, and memory takes the changes only then), and now and then a compaction that writes the whole store
// as a new snapshot.
//
// Why a SIGKILL at any moment loses nothing acknowledged and corrupts nothing:
// - An append is acknowledged only after fdatasync; a line cut short is at the very end and is ignored (and
//   cut off before the next append).
// - A compaction in the background: the snapshot's records are taken from memory right after the changes
//   it holds were appended, fsynced and applied, and the log is renamed `<data>.log.old`; new changes go to
//   a new log of the next generation. Then the snapshot of that generation is put in place atomically
//   (atomicWriteFile: temp, fsync, rename, directory fsync), and only then is `.log.old` removed. Until then
//   the old snapshot, `.log.old` and the new log describe the store; after, the new snapshot and the new log,
//   `.log.old` being older than the snapshot (stale, skipped). parseStore in store-load.ts reads every one of
//   those states.
// - A compaction in the foreground (no current snapshot yet, a version 1 or 2 file, a `.log.old` left by a
//   compaction that failed): after the save's changes are appended, the snapshot holds every change and is
//   given a generation above every file's, so all logs become stale.
// - A log is created atomically with its header, so a log never exists without one.
// A write that fails (a full disk) is cut off the log at once, before the failure is answered, so nothing
// of it remains; the next save appends after what was there. A compaction that fails changes nothing on
// disk that the files' states above do not read, and is tried again only once the log has grown by as much
// again: a full disk refuses writes, never sends every later write through a whole snapshot.
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
  private snapshotBytes: number;
  /** The log on disk is the one of `generation` (else it is absent or stale: create it anew). */
  private logCurrent: boolean;
  private logBytes: number;
  private tornAt: number | undefined;
  /**
   * The files cannot be compacted in the background (no version 3 snapshot, a `.log.old` left, records set
   * aside at load): the next compaction is in the foreground.
   */
  private owed: boolean;
  /** The log size at which the next compaction is tried. */
  private compactAt: number;
  /** Why the last compaction failed, until one succeeds. */
  compactionError: unknown;
  private background: Promise<void> | undefined;

  constructor(
    readonly dataFile: string,
    private readonly keyCheck: string,
    loaded: Pick<ParsedStore, 'version' | 'highestGeneration' | 'snapshotBytes' | 'log' | 'oldLogApplied'>,
  ) {
    this.logFile = `${dataFile}.log`;
    this.oldLogFile = `${dataFile}.log.old`;
    this.generation = loaded.highestGeneration;
    this.snapshotBytes = loaded.snapshotBytes;
    this.logCurrent = loaded.log !== undefined && loaded.log.generation === loaded.highestGeneration;
    this.logBytes = this.logCurrent ? loaded.log!.validBytes : 0;
    this.tornAt = this.logCurrent ? loaded.log!.tornAt : undefined;
    this.owed = loaded.version !== 3 || loaded.oldLogApplied;
    this.compactAt = this.owed ? 0 : this.threshold();
  }

  /**
   * Makes `lines` durable, then calls `apply` (memory takes the changes only once they are on disk); throws,
   * without calling it, when they cannot be written. Then compacts when it is time: `snapshot` gives the
   * whole store's lines as memory holds it when called. A compaction that fails never fails the save.
   */
  async save(
    lines: string,
    apply: () => void,
    snapshot: (generation: number) => Iterable<string>,
  ): Promise<void> {
    if (lines) await this.append(lines);
    apply();
    if (this.logBytes < this.compactAt) return;
    if (this.owed) {
      // A snapshot still being written must not land after this one.
      await this.background;
      await this.compact(snapshot);
    } else if (!this.background) {
      await this.compactInBackground(snapshot);
    }
  }

  /** The next save writes a snapshot (records were set aside at load: the files must stop holding them). */
  requireCompaction(): void {
    this.owed = true;
    this.compactAt = 0;
  }

  /** Waits for a compaction in the background, then closes the log (a later save opens it again). */
  async close(): Promise<void> {
    await this.background;
    await this.closeLog();
  }

  private threshold(): number {
    return Math.max(MIN_LOG_BYTES, this.snapshotBytes * LOG_SHARE);
  }

  private failed(error: unknown): void {
    this.compactionError = error;
    this.owed = true;
    this.compactAt = this.logBytes + this.threshold();
  }

  /** Appends whole lines and waits until they are on disk; on failure, leaves the log as it was. */
  private async append(lines: string): Promise<void> {
    const handle = await this.openLog();
    try {
      await handle.appendFile(lines, 'utf8');
      await handle.datasync();
      this.logBytes += Buffer.byteLength(lines);
    } catch (error) {
      // Part of the lines may be in the file: cut them off before the failure is answered, so a restart
      // never finds a change that was refused. If even that fails, the next append cuts them first.
      this.tornAt = this.logBytes;
      try {
        await handle.truncate(this.logBytes);
        await handle.datasync();
        this.tornAt = undefined;
      } catch {
        await this.closeLog();
      }
      throw error;
    }
  }

  /** Writes the whole store as a snapshot of a generation above every file's, then drops the logs. */
  private async compact(snapshot: (generation: number) => Iterable<string>): Promise<void> {
    const generation = this.generation + 1;
    await this.closeLog();
    try {
      this.snapshotBytes = await atomicWriteFile(this.dataFile, snapshot(generation));
    } catch (error) {
      this.failed(error);
      return;
    }
    this.generation = generation;
    this.logCurrent = false;
    this.logBytes = 0;
    this.tornAt = undefined;
    this.owed = false;
    this.compactionError = undefined;
    this.compactAt = this.threshold();
    // Stale from now on whether or not this succeeds: a leftover is skipped at load and replaced later.
    await unlink(this.logFile).catch(() => undefined);
    await unlink(this.oldLogFile).catch(() => undefined);
  }

  /** Moves the log aside and writes the snapshot that holds it while new changes go to a new log. */
  private async compactInBackground(snapshot: (generation: number) => Iterable<string>): Promise<void> {
    const generation = this.generation + 1;
    // Taken now: memory holds exactly what the log holds.
    const lines = snapshot(generation);
    try {
      await this.closeLog();
      await rename(this.logFile, this.oldLogFile);
    } catch (error) {
      // Nothing moved: the log goes on as it was.
      this.compactionError = error;
      this.compactAt = this.logBytes + this.threshold();
      return;
    }
    this.generation = generation;
    this.logCurrent = false;
    this.logBytes = 0;
    this.tornAt = undefined;
    this.compactAt = Number.POSITIVE_INFINITY;
    this.background = (async () => {
      try {
        this.snapshotBytes = await atomicWriteFile(this.dataFile, lines);
      } catch (error) {
        // The old snapshot, `.log.old` and the new log still hold the store: a snapshot is owed.
        this.failed(error);
        return;
      }
      this.compactionError = undefined;
      this.compactAt = this.threshold();
      await unlink(this.oldLogFile).catch(() => undefined);
    })().finally(() => {
      this.background = undefined;
    });
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
