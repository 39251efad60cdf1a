// An advisory lock on a file, held for as long as a piece of work runs: proper-lockfile (mkdir-based, so it
// works on every local file system; refreshed while held, taken over once a dead holder's lock goes stale).
// Used by the config store and the sandbox's data file, so it lives beside errors.ts as
// a leaf: the sandbox imports no config/ module (STYLE.md).
import { setTimeout as sleep } from 'node:timers/promises';
import { InterruptedError, UnavailableError } from '../errors.js';

export interface FileLockOptions {
  /** How long to wait for another process holding it; 0 fails at once. */
  waitMs: number;
  /** A lock not refreshed for this long belongs to a dead process and is taken over (min 2 s). */
  staleMs: number;
  /** The error message when the wait ran out (exit 7). */
  busy: (waitedMs: number) => string;
  /** The lock directory (default `<path>.lock`). */
  lockPath?: string;
  /** The command's: Ctrl-C ends the wait at once, with the signal's reason (an InterruptedError, exit 130). */
  signal?: AbortSignal;
}

/** Takes `<path>.lock`; resolves to the function that releases it. */
export async function lockFile(path: string, options: FileLockOptions): Promise<() => Promise<void>> {
  // proper-lockfile is CommonJS: in the ESM bundle only its default export exists.
  const { default: lockfile } = await import('proper-lockfile');
  const { signal } = options;
  const deadline = Date.now() + options.waitMs;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw interrupted(signal);
    try {
      return await lockfile.lock(path, {
        realpath: false,
        lockfilePath: options.lockPath ?? `${path}.lock`,
        stale: options.staleMs,
        retries: 0,
        // The default handler throws from a timer and kills the process mid-write; the lock is advisory,
        // so finishing the work is better than dying.
        onCompromised: () => undefined,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const left = deadline - Date.now();
      if (left <= 0) throw new UnavailableError(options.busy(options.waitMs));
      // Backoff with jitter, so several waiting processes do not poll in step.
      const pause = Math.min(left, Math.min(500, 25 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random() / 2));
      try {
        await sleep(pause, undefined, signal && { signal });
      } catch (error) {
        if (signal?.aborted) throw interrupted(signal);
        throw error;
      }
    }
  }
}

function interrupted(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}
