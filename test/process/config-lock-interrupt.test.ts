// Ctrl-C while the CLI waits — for the config lock, the sandbox's data file, or a stdin that never
// closes — ends it at once with exit 130 and one line, whatever the wait's own limit (20 s, 120 s, none).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFile } from '../../src/lib/file-lock.js';
import { BIN, cliEnv, tempConfigDir } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { waitUntilWaiting } from '../helpers/process-state.js';

let wp: FakeWordPress;
beforeAll(async () => {
  wp = await startFakeWordPress({ username: 'editor', password: 'abcd efgh ijkl mnop' });
});
afterAll(async () => {
  await wp?.close();
});

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Starts the CLI, sends SIGINT once it sits waiting (start-up over), and collects how it ends. Nothing else
 * ends the wait: the one with a limit of its own (the config lock's) ends in exit 7, and a CLI still waiting
 * when the test's own limit nears is killed; exit 130 with "interrupted" comes from the signal alone.
 */
async function interruptWaiting(args: string[], env: Record<string, string>): Promise<Outcome> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cliEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<Outcome>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  try {
    await waitUntilWaiting(child.pid!);
    child.kill('SIGINT');
    return await closed;
  } finally {
    clearTimeout(killer);
    child.kill('SIGKILL');
  }
}

/** Holds a lock the way another blogctl would. */
const hold = (path: string, lockPath?: string) =>
  lockFile(path, { waitMs: 0, staleMs: 15_000, busy: () => 'busy', ...(lockPath && { lockPath }) });

describe('Ctrl-C while waiting', () => {
  it('for the config lock (held by another blogctl): exit 130 at once', async () => {
    const dir = tempConfigDir();
    const release = await hold(dir, join(dir, '.lock'));
    try {
      const result = await interruptWaiting(['config', 'set', 'timeout', '30'], {
        BLOGCTL_CONFIG_DIR: dir,
      });
      expect(result).toMatchObject({ code: 130, stderr: 'error: interrupted\n' });
    } finally {
      await release();
    }
  });

  it("for the in-process sandbox's data file (another --sandbox run): exit 130 at once", async () => {
    const dir = tempConfigDir();
    mkdirSync(join(dir, 'sandbox'), { recursive: true });
    const release = await hold(join(dir, 'sandbox', 'data.json'));
    try {
      const result = await interruptWaiting(['--sandbox', 'blog', 'list'], { BLOGCTL_CONFIG_DIR: dir });
      expect(result).toMatchObject({ code: 130, stderr: 'error: interrupted\n' });
    } finally {
      await release();
    }
  });

  it('for a key on a stdin that is never closed: exit 130 at once, nothing stored', async () => {
    const dir = tempConfigDir();
    const result = await interruptWaiting(['--base-url', wp.url, 'auth', 'login', '--with-key'], {
      BLOGCTL_CONFIG_DIR: dir,
    });
    expect(result).toMatchObject({ code: 130, stderr: 'error: interrupted\n' });
  });
});
