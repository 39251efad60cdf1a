// An advisory lock on a file, held for as long as a piece of work runs: proper-lockfile (mkdir-based, so it
// works on every local file system; refreshed while held, taken over once a dead holder's lock goes stale).
// Used by the config store and the sandbox's data file, so it lives beside errors.ts as a leaf: the sandbox
// imports no config/ module (CONTRIBUTING.md, "Layout").
//
// The holder also leaves its name in the lock directory (owner.json: pid, host name, boot id, PID namespace,
// process start time). A lock whose holder is known to be gone — same host, same boot, same PID namespace,
// and that pid no longer runs (or now runs another process) — is taken over at once, instead of after the
// stale time (15 s for the config): a killed blogctl no longer stalls the next one. Anything less certain —
// another host sharing the home directory, an owner file not yet written or unreadable — waits for the
// stale time as before, which is what keeps it safe across machines.
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
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

/** Who holds a lock: enough to tell, on the same machine, that the process is gone. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** Linux: /proc/sys/kernel/random/boot_id. A pid from another boot (or another machine of the same name). */
  bootId?: string;
  /** Linux: /proc/self/ns/pid. A pid in another container means nothing here. */
  pidNamespace?: string;
  /** Linux: the process's start time (clock ticks since boot), so a pid reused by another process is seen. */
  startTime?: string;
  /** Tells this holding apart from any later one with the same pid. */
  token: string;
}

export const LOCK_OWNER_FILE = 'owner.json';

/** Takes `<path>.lock`; resolves to the function that releases it. */
export async function lockFile(path: string, options: FileLockOptions): Promise<() => Promise<void>> {
  // proper-lockfile is CommonJS: in the ESM bundle only its default export exists.
  const { default: lockfile } = await import('proper-lockfile');
  const { signal } = options;
  const lockPath = options.lockPath ?? `${path}.lock`;
  const deadline = Date.now() + options.waitMs;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw interrupted(signal);
    try {
      const release = await lockfile.lock(path, {
        realpath: false,
        lockfilePath: lockPath,
        stale: options.staleMs,
        retries: 0,
        fs: LOCK_FS,
        // The default handler throws from a timer and kills the process mid-write; the lock is advisory,
        // so finishing the work is better than dying.
        onCompromised: () => undefined,
      });
      writeOwner(lockPath);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (takeOverFromDeadOwner(lockPath, options.staleMs)) continue;
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

/**
 * The file system proper-lockfile uses, but removing a lock directory with what is in it (the owner file):
 * on release, on exit, and when it takes over a stale lock.
 */
const LOCK_FS = {
  mkdir: fs.mkdir,
  mkdirSync: fs.mkdirSync,
  realpath: fs.realpath,
  realpathSync: fs.realpathSync,
  stat: fs.stat,
  statSync: fs.statSync,
  utimes: fs.utimes,
  utimesSync: fs.utimesSync,
  rmdir: (dir: string, callback: (error: NodeJS.ErrnoException | null) => void) =>
    fs.rm(dir, { recursive: true }, callback),
  rmdirSync: (dir: string) => fs.rmSync(dir, { recursive: true }),
};

/** This process as a lock owner. */
function currentOwner(): LockOwner {
  return {
    pid: process.pid,
    ...thisMachine(),
    ...optional('startTime', procStat(process.pid)?.startTime),
    token: `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  };
}

function writeOwner(lockPath: string): void {
  try {
    // proper-lockfile checks, each time it refreshes the lock, that the directory's mtime is still the one it
    // set; adding a file changes it, so it is put back.
    const { atime, mtime } = fs.statSync(lockPath);
    fs.writeFileSync(join(lockPath, LOCK_OWNER_FILE), JSON.stringify(currentOwner()), { mode: 0o600 });
    fs.utimesSync(lockPath, atime, mtime);
  } catch {
    // Without an owner file the lock is only ever taken over once stale, as before: still a lock.
  }
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(join(lockPath, LOCK_OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (
      typeof owner.pid !== 'number' ||
      typeof owner.hostname !== 'string' ||
      typeof owner.token !== 'string'
    )
      return undefined;
    return owner as LockOwner;
  } catch {
    // Not there yet (the holder made the directory a moment ago), or half written: not known to be dead.
    return undefined;
  }
}

/**
 * Removes the lock when its owner is surely gone; true when it did, so the caller tries again at once. Two
 * waiting processes may both see the dead owner: `<lock>.takeover` (mkdir, so only one gets it) lets one of
 * them check again and remove it, so the other cannot remove the lock the first has just taken.
 */
function takeOverFromDeadOwner(lockPath: string, staleMs: number): boolean {
  const owner = readOwner(lockPath);
  if (!owner || !isGoneHere(owner)) return false;
  const guard = `${lockPath}.takeover`;
  try {
    fs.mkdirSync(guard);
  } catch (error) {
    // One left by a process killed in the middle of the few calls below.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && olderThan(guard, staleMs))
      fs.rmSync(guard, { recursive: true, force: true });
    return false;
  }
  try {
    if (readOwner(lockPath)?.token !== owner.token) return false;
    fs.rmSync(lockPath, { recursive: true, force: true });
    return true;
  } finally {
    fs.rmSync(guard, { recursive: true, force: true });
  }
}

/** True only when the owner ran on this machine, since its last boot, in this PID namespace, and has ended. */
function isGoneHere(owner: LockOwner): boolean {
  const here = thisMachine();
  if (owner.hostname !== here.hostname) return false;
  // A different boot id is a reboot — or another machine with the same name: not certain, so not gone.
  if (owner.bootId !== here.bootId || owner.pidNamespace !== here.pidNamespace) return false;
  if (owner.pid === process.pid) return false;
  if (!isRunning(owner.pid)) return true;
  const stat = procStat(owner.pid);
  // Killed, not yet reaped by its parent: a zombie holds nothing.
  if (stat?.state === 'Z') return true;
  // The pid runs, but a process started at another time is not the owner: the pid was reused.
  return owner.startTime !== undefined && stat?.startTime !== undefined && stat.startTime !== owner.startTime;
}

/** Whether a process with this pid exists (one that is not ours to signal still exists: EPERM). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function thisMachine(): Pick<LockOwner, 'hostname' | 'bootId' | 'pidNamespace'> {
  return {
    hostname: hostname(),
    ...optional(
      'bootId',
      readProc(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    ),
    ...optional(
      'pidNamespace',
      readProc(() => fs.readlinkSync('/proc/self/ns/pid')),
    ),
  };
}

/**
 * Fields 3 (state) and 22 (start time) of /proc/<pid>/stat, counted after the command name (which may hold
 * spaces and parentheses); undefined where there is no /proc.
 */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] && fields[19] ? { state: fields[0], startTime: fields[19] } : undefined;
  } catch {
    return undefined;
  }
}

function readProc(read: () => string | undefined): string | undefined {
  try {
    return read() || undefined;
  } catch {
    return undefined;
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function olderThan(path: string, ms: number): boolean {
  try {
    return fs.statSync(path).mtimeMs < Date.now() - ms;
  } catch {
    return false;
  }
}

function interrupted(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}
