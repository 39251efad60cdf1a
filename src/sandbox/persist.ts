// File helpers of the sandbox store. Snapshots are replaced atomically (atomicWriteFile,
// src/lib/atomic-file.ts): a SIGKILL at any moment leaves the previous file or the new one, never a mix.
// Saves are serialised and grouped (SaveQueue); what a save writes is in store-log.ts.
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isRunning } from '../lib/file-lock.js';
export { atomicWriteFile } from '../lib/atomic-file.js';

/** The file's bytes, or undefined when there is none. */
export async function readBytesIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates the data file's directory (0700: it holds the key file too). */
export async function prepareDirectory(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
}

/** Removes temporary files left by a sandbox process that was killed mid-save (never a live one's). */
export async function removeStaleTempFiles(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = name.startsWith(prefix) ? /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name) : null;
    if (m && Number(m[1]) !== process.pid && !isRunning(Number(m[1])))
      await unlink(join(dir, name)).catch(() => undefined);
  }
}

/**
 * Serialises saves and groups them: every caller waits for a save that *started after* its change, and
 * changes made while a save is running share the next one. So concurrent requests never interleave
 * writes, and a response is sent only once its change is on disk.
 */
export class SaveQueue {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly save: () => Promise<void>) {}

  flush(): Promise<void> {
    this.queued ??= (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        const run = this.save();
        this.running = run;
        return run;
      });
    return this.queued;
  }

  /** Waits for saves already asked for, without starting one (shutdown). */
  async settled(): Promise<void> {
    for (let pending = this.queued ?? this.running; pending;) {
      await pending.catch(() => undefined);
      const next = this.queued ?? this.running;
      pending = next === pending ? undefined : next;
    }
  }
}
