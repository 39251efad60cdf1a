// An advisory lock on a file, held for as long as a piece of work runs. Used by the config store and the
// sandbox's data file, so it lives beside errors.ts as a leaf: the sandbox imports no config/ module
// (CONTRIBUTING.md, "Layout").
//
// The lock is a directory (`mkdir` is atomic on every local file system) holding owner.json: pid, host name,
// boot id, PID namespace, process start time and a token for this holding. The holder touches the directory
// every staleMs / 3 while it holds it. A waiting process takes the lock over:
//   - at once when its owner is known to be gone: same host, same boot, same PID namespace, and that pid no
//     longer runs (or is a zombie, or now runs another process);
//   - once stale (not touched for staleMs) otherwise: another host sharing the directory, an owner file not
//     written or unreadable.
// A take-over happens under `<lock>.takeover` (mkdir again, so only one waiting process removes the lock it
// judged, never one another process has just taken). The guard holds an owner file too, so a guard left by a
// killed process is removed at once by the same rule, and any guard once stale.
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InterruptedError, UnavailableError } from '../errors.js';

export interface FileLockOptions {
  /** How long to wait for another process holding it; 0 fails at once. */
  waitMs: number;
  /** A lock not touched for this long belongs to a dead process and is taken over (at least 2 s). */
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

/** Locks this process holds, removed if it exits while holding them. */
const held = new Map<string, string>();
let exitHookInstalled = false;

/** Takes `<path>.lock`; resolves to the function that releases it. */
export async function lockFile(path: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const { signal } = options;
  const lockPath = options.lockPath ?? `${path}.lock`;
  const staleMs = Math.max(2_000, options.staleMs);
  const deadline = Date.now() + options.waitMs;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw interrupted(signal);
    const token = tryTake(lockPath);
    if (token) return holding(lockPath, token, staleMs);
    if (takeOver(lockPath, staleMs)) continue;
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

/** Makes the lock directory with this process's owner file; its token, or undefined when it exists. */
function tryTake(lockPath: string): string | undefined {
  try {
    fs.mkdirSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  const owner = currentOwner();
  try {
    fs.writeFileSync(join(lockPath, LOCK_OWNER_FILE), JSON.stringify(owner), { mode: 0o600 });
  } catch (error) {
    fs.rmSync(lockPath, { recursive: true, force: true });
    throw error;
  }
  return owner.token;
}

/** Keeps the lock fresh while held; the release removes it only while it is still this holding's. */
function holding(lockPath: string, token: string, staleMs: number): () => Promise<void> {
  held.set(lockPath, token);
  installExitHook();
  const touch = setInterval(
    () => {
      // A lock lost while held (removed, or taken over after a stall) is left alone: the work goes on, and
      // the lock is advisory.
      if (ownerOf(lockPath)?.token !== token) return;
      const now = new Date();
      fs.utimes(lockPath, now, now, () => undefined);
    },
    Math.floor(staleMs / 3),
  );
  touch.unref();
  let released = false;
  return () => {
    if (!released) {
      released = true;
      clearInterval(touch);
      held.delete(lockPath);
      removeIfOurs(lockPath, token);
    }
    return Promise.resolve();
  };
}

function removeIfOurs(lockPath: string, token: string): void {
  if (ownerOf(lockPath)?.token === token) fs.rmSync(lockPath, { recursive: true, force: true });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [lockPath, token] of held) {
      try {
        removeIfOurs(lockPath, token);
      } catch {
        // Exiting anyway: a lock left behind is taken over by the next process (its owner is gone).
      }
    }
  });
}

/**
 * Removes the lock when its owner is surely gone or it is stale; true when it did, so the caller tries again
 * at once. Only under the take-over guard, re-reading the lock there, so a lock taken meanwhile is kept.
 */
function takeOver(lockPath: string, staleMs: number): boolean {
  const judged = judge(lockPath, staleMs);
  if (!judged) return false;
  const guard = `${lockPath}.takeover`;
  const guardToken = tryTake(guard);
  if (!guardToken) {
    // Another waiting process is taking it over, or one was killed in the middle of it.
    const left = judge(guard, staleMs);
    if (left) removeIfSame(guard, left.token);
    return false;
  }
  try {
    const now = ownerOf(lockPath)?.token;
    if (now !== judged.token || !judge(lockPath, staleMs)) return false;
    fs.rmSync(lockPath, { recursive: true, force: true });
    return true;
  } finally {
    removeIfSame(guard, guardToken);
  }
}

/** The lock's owner when it may be taken over (gone here, or stale), else undefined. */
function judge(lockPath: string, staleMs: number): { token: string | undefined } | undefined {
  const owner = ownerOf(lockPath);
  if (owner && isGoneHere(owner)) return { token: owner.token };
  const touched = mtimeOf(lockPath);
  if (touched !== undefined && touched < Date.now() - staleMs) return { token: owner?.token };
  return undefined;
}

function removeIfSame(lockPath: string, token: string | undefined): void {
  if (ownerOf(lockPath)?.token === token) fs.rmSync(lockPath, { recursive: true, force: true });
}

/** This process as a lock owner. */
function currentOwner(): LockOwner {
  return {
    pid: process.pid,
    ...thisMachine(),
    ...optional('startTime', procStat(process.pid)?.startTime),
    token: `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  };
}

function ownerOf(lockPath: string): LockOwner | undefined {
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

/** True only when the owner ran on this machine, since its last boot, in this PID namespace, and has ended. */
function isGoneHere(owner: LockOwner): boolean {
  const here = thisMachine();
  if (owner.hostname !== here.hostname) return false;
  // A different boot id is a reboot — or another machine with the same name: not certain, so not gone.
  if (owner.bootId !== here.bootId || owner.pidNamespace !== here.pidNamespace) return false;
  // This process: gone only if no holding of its own has that token (one lost while held, say).
  if (owner.pid === process.pid) return ![...held.values()].includes(owner.token);
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

function mtimeOf(path: string): number | undefined {
  try {
    return fs.statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function interrupted(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new InterruptedError();
}
