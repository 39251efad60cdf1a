// The config dir's lock: another blogctl holding it means a wait, then exit 7 with a clear message (not an
// "unexpected error"); Ctrl-C ends the wait at once; a lock lost while held never kills the process.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_OWNER_FILE, lockFile, type LockOwner } from '../../src/lib/file-lock.js';
import { ConfigStore } from '../../src/config/store.js';
import { ExitCode, InterruptedError, UnavailableError } from '../../src/errors.js';
import { waitFor } from '../helpers/wait.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'blogctl-lock-'));
}

/** Holds `<dir>/.lock` the way another blogctl would, until released. */
async function holdConfigLock(dir: string): Promise<() => Promise<void>> {
  return lockFile(dir, { lockPath: join(dir, '.lock'), waitMs: 0, staleMs: 15_000, busy: () => 'busy' });
}

describe('the config lock', () => {
  it('held by another blogctl: exit 7 naming the lock after the wait, config unchanged', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{"settings": {"timeout": 5}}');
    const release = await holdConfigLock(dir);
    try {
      const store = new ConfigStore(dir, { env: {}, lockWaitMs: 300 });
      const started = Date.now();
      const error = await store
        .updateConfig((c) => (c.settings = { timeout: 9 }))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as UnavailableError).exitCode).toBe(ExitCode.unavailable);
      expect((error as Error).message).toBe(
        `another blogctl is changing the config in ${dir} (${join(dir, '.lock')} held for over 0 s); nothing was changed`,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"settings": {"timeout": 5}}');
    } finally {
      await release();
    }
  });

  it('takes turns with another holder that lets go', async () => {
    const dir = tempDir();
    const release = await holdConfigLock(dir);
    // The other holder lets go a moment after this change has begun.
    let released = false;
    setTimeout(() => {
      released = true;
      void release();
    }, 200);
    const store = new ConfigStore(dir, { env: {}, lockWaitMs: 20_000 });
    let changedAfterRelease: boolean | undefined;
    await store.updateConfig((c) => {
      changedAfterRelease = released;
      c.currentProfile = 'work';
    });
    expect(changedAfterRelease, 'the change ran only once the other holder let go').toBe(true);
    expect(store.readConfig()).toEqual({ currentProfile: 'work' });
  });

  it('Ctrl-C while waiting: the InterruptedError at once, nothing written', async () => {
    const dir = tempDir();
    const release = await holdConfigLock(dir);
    try {
      const controller = new AbortController();
      // The wait's own limit ends it in an UnavailableError: an InterruptedError comes from the abort alone.
      const store = new ConfigStore(dir, { env: {}, signal: controller.signal, lockWaitMs: 20_000 });
      setTimeout(() => controller.abort(new InterruptedError()), 150);
      await expect(store.updateCredentials((c) => (c.apiKeys = { default: 'k' }))).rejects.toBeInstanceOf(
        InterruptedError,
      );
      expect(existsSync(join(dir, 'credentials.json'))).toBe(false);
    } finally {
      await release();
    }
  });

  it('an already aborted command does not take the lock at all', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    controller.abort(new InterruptedError());
    const store = new ConfigStore(dir, { env: {}, signal: controller.signal });
    await expect(store.updateConfig(() => undefined)).rejects.toBeInstanceOf(InterruptedError);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });
});

/** Waits, a bounded time, until `ok()` holds. */
const until = (ok: () => boolean): Promise<void> => waitFor(ok, 'the lock touched again');

/** The lock at `path` is this holding's: refused to another taker, and gone once released. */
async function expectHeldUntilReleased(path: string, release: () => Promise<void>): Promise<void> {
  await expect(lockFile(path, { waitMs: 0, staleMs: 15_000, busy: () => 'busy' })).rejects.toBeInstanceOf(
    UnavailableError,
  );
  await release();
  expect(existsSync(`${path}.lock`)).toBe(false);
}

const past = new Date(Date.now() - 60_000);
const mtime = (path: string): number => statSync(path).mtimeMs;

/** A pid that ran on this machine and has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

function plantLock(lockPath: string, owner: Partial<LockOwner> | undefined, touched?: Date): void {
  mkdirSync(lockPath);
  if (owner) writeFileSync(join(lockPath, LOCK_OWNER_FILE), JSON.stringify({ token: 't', ...owner }));
  if (touched) utimesSync(lockPath, touched, touched);
}

const here = (): Pick<LockOwner, 'hostname' | 'bootId' | 'pidNamespace'> => ({
  hostname: hostname(),
  bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
  pidNamespace: readlinkSync('/proc/self/ns/pid'),
});

describe('lockFile', () => {
  it('keeps a held lock fresh: touched again after it was made to look old, and still refused to others', async () => {
    const path = join(tempDir(), 'data.json');
    const release = await lockFile(path, { waitMs: 0, staleMs: 2_000, busy: () => 'busy' });
    try {
      expect(readdirSync(`${path}.lock`)).toEqual([LOCK_OWNER_FILE]);
      utimesSync(`${path}.lock`, past, past);
      await until(() => mtime(`${path}.lock`) > Date.now() - 2_000);
      await expect(lockFile(path, { waitMs: 0, staleMs: 2_000, busy: () => 'busy' })).rejects.toBeInstanceOf(
        UnavailableError,
      );
    } finally {
      await release();
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("a lock lost while held: the work goes on, and its release leaves the next holder's lock alone", async () => {
    const path = join(tempDir(), 'data.json');
    const first = await lockFile(path, { waitMs: 0, staleMs: 2_000, busy: () => 'busy' });
    rmSync(`${path}.lock`, { recursive: true });
    const second = await lockFile(path, { waitMs: 0, staleMs: 2_000, busy: () => 'busy' });
    utimesSync(`${path}.lock`, past, past);
    // Both holdings' timers run; only the second's touches the lock, and nothing throws from a timer.
    await until(() => mtime(`${path}.lock`) > Date.now() - 2_000);
    await first();
    expect(existsSync(`${path}.lock`)).toBe(true);
    await second();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('takes over at once the lock of a process of this machine that has ended', async () => {
    const path = join(tempDir(), 'data.json');
    plantLock(`${path}.lock`, { pid: deadPid(), ...here() });
    const release = await lockFile(path, { waitMs: 0, staleMs: 15_000, busy: () => 'busy' });
    await expectHeldUntilReleased(path, release);
  });

  it('a take-over guard left by a killed process does not hold the next one up', async () => {
    const path = join(tempDir(), 'data.json');
    plantLock(`${path}.lock`, { pid: deadPid(), ...here() });
    plantLock(`${path}.lock.takeover`, { pid: deadPid(), ...here() });
    // A wait far shorter than the stale time: only the dead owners' rule can let it in.
    const release = await lockFile(path, { waitMs: 1_500, staleMs: 15_000, busy: () => 'busy' });
    expect(existsSync(`${path}.lock.takeover`)).toBe(false);
    await expectHeldUntilReleased(path, release);
  });

  it("another host's lock: waited for while fresh, taken over once stale", async () => {
    const path = join(tempDir(), 'data.json');
    plantLock(`${path}.lock`, { pid: 1, hostname: 'another-host' });
    await expect(lockFile(path, { waitMs: 0, staleMs: 15_000, busy: () => 'busy' })).rejects.toBeInstanceOf(
      UnavailableError,
    );
    utimesSync(`${path}.lock`, past, past);
    const release = await lockFile(path, { waitMs: 0, staleMs: 15_000, busy: () => 'busy' });
    await expectHeldUntilReleased(path, release);
  });

  it('a lock directory with no owner file (its maker killed at once) is waited for, then taken over once stale', async () => {
    const path = join(tempDir(), 'data.json');
    plantLock(`${path}.lock`, undefined);
    await expect(lockFile(path, { waitMs: 0, staleMs: 15_000, busy: () => 'busy' })).rejects.toBeInstanceOf(
      UnavailableError,
    );
    utimesSync(`${path}.lock`, past, past);
    const release = await lockFile(path, { waitMs: 0, staleMs: 15_000, busy: () => 'busy' });
    await expectHeldUntilReleased(path, release);
  });
});
