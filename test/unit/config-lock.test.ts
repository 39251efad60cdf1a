// The config dir's lock: another blogctl holding it means a wait, then exit 7 with a clear message (not an
// "unexpected error"); Ctrl-C ends the wait at once; a lock lost while held never kills the process.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFile } from '../../src/lib/file-lock.js';
import { ConfigStore } from '../../src/config/store.js';
import { ExitCode, InterruptedError, UnavailableError } from '../../src/errors.js';

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
    setTimeout(() => void release(), 200);
    const store = new ConfigStore(dir, { env: {}, lockWaitMs: 5_000 });
    await store.updateConfig((c) => (c.currentProfile = 'work'));
    expect(store.readConfig()).toEqual({ currentProfile: 'work' });
  });

  it('Ctrl-C while waiting: the InterruptedError at once, nothing written', async () => {
    const dir = tempDir();
    const release = await holdConfigLock(dir);
    try {
      const controller = new AbortController();
      const store = new ConfigStore(dir, { env: {}, signal: controller.signal });
      const started = Date.now();
      setTimeout(() => controller.abort(new InterruptedError()), 150);
      await expect(store.updateCredentials((c) => (c.apiKeys = { default: 'k' }))).rejects.toBeInstanceOf(
        InterruptedError,
      );
      expect(Date.now() - started).toBeLessThan(1_000);
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

describe('lockFile', () => {
  it('a lock lost while held (its directory removed) does not throw from a timer', async () => {
    const dir = tempDir();
    const path = join(dir, 'data.json');
    // Refreshed every staleMs / 2 = 1 s: the refresh finds it gone, which proper-lockfile's default handler
    // would throw from a timer, killing the process mid-write.
    const release = await lockFile(path, { waitMs: 0, staleMs: 2_000, busy: () => 'busy' });
    rmSync(`${path}.lock`, { recursive: true });
    await new Promise((r) => setTimeout(r, 1_500));
    await release().catch(() => undefined);
  });
});

describe('the owner file in the lock directory', () => {
  it('does not stop the holder refreshing the lock: still held after twice the stale time', async () => {
    const dir = tempDir();
    const path = join(dir, 'data.json');
    // Refreshed every second; proper-lockfile stops refreshing a lock whose mtime is not the one it set.
    const release = await lockFile(path, { waitMs: 0, staleMs: 2_000, busy: () => 'busy' });
    try {
      expect(readdirSync(`${path}.lock`)).toEqual(['owner.json']);
      await new Promise((r) => setTimeout(r, 4_500));
      await expect(lockFile(path, { waitMs: 0, staleMs: 2_000, busy: () => 'busy' })).rejects.toBeInstanceOf(
        UnavailableError,
      );
    } finally {
      await release();
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
