// A config lock left by a blogctl killed while holding it (kill -9, the OOM killer) is taken over at once
// when its owner is surely gone — the same host and boot, and its pid no longer runs — instead of after the
// 15 s stale time. An owner that may still be alive (a live pid, another host sharing the home directory,
// another boot) is waited for as before. No clock is read here: each lock's mtime is set into the future, so
// "stale" cannot be what lets a command through, and the command may not wait at all (lockWaitMs 0).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { UnavailableError } from '../../src/errors.js';
import { LOCK_OWNER_FILE, type LockOwner } from '../../src/lib/file-lock.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { holderScript, holdLockInProcess, killHard } from '../helpers/lock-holder-process.js';

const HOUR = 3_600_000;

/** A config dir whose lock a process took and then was SIGKILLed holding; returns the killed pid. */
async function lockOfKilledProcess(dir: string): Promise<number> {
  const holder = await holdLockInProcess(dir, join(dir, '.lock'));
  await killHard(holder);
  return holder.pid!;
}

const lockOf = (dir: string) => join(dir, '.lock');
const readOwner = (dir: string) =>
  JSON.parse(readFileSync(join(lockOf(dir), LOCK_OWNER_FILE), 'utf8')) as LockOwner;

/** Its mtime `ms` from now: in the future, the lock cannot be stale; long past, it is. */
function touchLock(dir: string, ms: number): void {
  const when = new Date(Date.now() + ms);
  utimesSync(lockOf(dir), when, when);
}

function editOwner(dir: string, change: Partial<LockOwner>): void {
  writeFileSync(join(lockOf(dir), LOCK_OWNER_FILE), JSON.stringify({ ...readOwner(dir), ...change }));
}

/** A change that may not wait for the lock at all: it succeeds only if the lock is free or taken at once. */
function setTimeoutNow(dir: string): Promise<unknown> {
  return new ConfigStore(dir, { env: {}, lockWaitMs: 0 }).updateConfig((c) => (c.settings = { timeout: 9 }));
}

describe('a config lock whose holder was killed', () => {
  it('on this host: taken over at once, though it is not stale', async () => {
    const dir = tempConfigDir();
    const pid = await lockOfKilledProcess(dir);
    expect(readOwner(dir)).toMatchObject({ pid });
    touchLock(dir, HOUR);
    await setTimeoutNow(dir);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ settings: { timeout: 9 } });
    expect(existsSync(lockOf(dir))).toBe(false);
  });

  it('the CLI: blogctl config set goes ahead (it would wait 20 s, then exit 7)', async () => {
    const dir = tempConfigDir();
    await lockOfKilledProcess(dir);
    touchLock(dir, HOUR);
    const result = await runCli(['config', 'set', 'timeout', '30'], { env: { BLOGCTL_CONFIG_DIR: dir } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ settings: { timeout: 30 } });
  });

  it.each([
    ['on another host (a shared home directory)', { hostname: 'another-host.example' }],
    ['before a reboot, or on another machine of the same name', { bootId: 'another-boot' }],
    ['in another PID namespace (a container)', { pidNamespace: 'pid:[1]' }],
  ])('%s: waited for until stale, as before', async (_name, change) => {
    const dir = tempConfigDir();
    await lockOfKilledProcess(dir);
    editOwner(dir, change);
    touchLock(dir, 0);
    await expect(setTimeoutNow(dir)).rejects.toBeInstanceOf(UnavailableError);
    expect(readOwner(dir)).toMatchObject(change);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    // Once stale (15 s without a refresh), it is taken over like any other.
    touchLock(dir, -20_000);
    await setTimeoutNow(dir);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ settings: { timeout: 9 } });
  });

  it('an owner file not yet written (the holder made the directory a moment ago): waited for', async () => {
    const dir = tempConfigDir();
    mkdirSync(lockOf(dir));
    await expect(setTimeoutNow(dir)).rejects.toBeInstanceOf(UnavailableError);
    expect(existsSync(lockOf(dir))).toBe(true);
  });
});

describe('a config lock whose holder was killed and not reaped (a zombie)', () => {
  it.runIf(existsSync('/proc/self/stat'))('is taken over at once: a zombie holds nothing', async () => {
    const dir = tempConfigDir();
    // The holder's parent execs into sleep, which never waits for children: killed, the holder stays a zombie.
    const parent = spawn(
      '/bin/sh',
      ['-c', `"${process.execPath}" "${await holderScript()}" "${dir}" "${lockOf(dir)}" & exec sleep 60`],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await new Promise<void>((resolve) =>
        parent.stdout!.setEncoding('utf8').on('data', (d: string) => d.includes('held') && resolve()),
      );
      const { pid } = readOwner(dir);
      process.kill(pid, 'SIGKILL');
      const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0];
      while (state() !== 'Z') await new Promise((r) => setTimeout(r, 10));
      touchLock(dir, HOUR);
      await setTimeoutNow(dir);
      expect(existsSync(join(dir, 'config.json'))).toBe(true);
    } finally {
      await killHard(parent);
    }
  });
});

describe('a config lock whose holder runs', () => {
  it('is respected until the holder is killed, then taken at once', async () => {
    const dir = tempConfigDir();
    const holder = await holdLockInProcess(dir, lockOf(dir));
    try {
      await expect(setTimeoutNow(dir)).rejects.toBeInstanceOf(UnavailableError);
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    } finally {
      await killHard(holder);
    }
    touchLock(dir, HOUR);
    await setTimeoutNow(dir);
    expect(existsSync(join(dir, 'config.json'))).toBe(true);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'a pid that runs but started at another time is not the owner (the pid was reused)',
    async () => {
      const dir = tempConfigDir();
      await lockOfKilledProcess(dir);
      const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
      try {
        editOwner(dir, { pid: other.pid!, startTime: '1' });
        touchLock(dir, HOUR);
        await setTimeoutNow(dir);
        expect(existsSync(join(dir, 'config.json'))).toBe(true);
      } finally {
        await killHard(other);
      }
    },
  );
});

describe('a lock held by a process that exits without releasing it', () => {
  it('is removed as the process exits', async () => {
    const dir = tempConfigDir();
    const child = spawn(process.execPath, [await holderScript(), dir, lockOf(dir), 'exit'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const code = await new Promise((r) => child.once('exit', r));
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'held\n' });
    expect(existsSync(lockOf(dir))).toBe(false);
  });
});
