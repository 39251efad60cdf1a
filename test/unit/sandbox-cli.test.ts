// runSandboxCommand in-process: what it prints, where its keys come from, and how it stops.
import { chownSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { runSandboxCommand } from '../../src/sandbox/cli-entry.js';
import { startSandbox } from '../../src/sandbox/server.js';

function capture(): {
  stream: Writable;
  text: () => string;
  waitFor: (re: RegExp) => Promise<RegExpExecArray>;
} {
  let text = '';
  const waiters: (() => void)[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      waiters.splice(0).forEach((w) => w());
      done();
    },
  });
  const waitFor = async (re: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = re.exec(text);
      if (m) return m;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { stream, text: () => text, waitFor };
}

describe('runSandboxCommand', () => {
  it('uses BLOGCTL_SANDBOX_KEYS when no key is passed, prints none of them, and stops on abort', async () => {
    const err = capture();
    const controller = new AbortController();
    const listeners = process.listenerCount('SIGINT');
    const done = runSandboxCommand({
      port: 0,
      apiKeys: [],
      stderr: err.stream,
      signal: controller.signal,
      env: { BLOGCTL_SANDBOX_KEYS: ' env-key-one-0123456789 , env-key-two-0123456789 ' },
    });
    const url = (await err.waitFor(/listening on (\S+)\n/))[1]!;
    for (const key of ['env-key-one-0123456789', 'env-key-two-0123456789']) {
      const res = await fetch(`${url}/api/v1/public/get-all-blogs`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
    }
    controller.abort();
    await done;
    expect(err.text()).not.toMatch(/env-key|API key:/);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
    await expect(fetch(`${url}/api/v1/public/get-all-blogs`)).rejects.toThrow();
  });

  it('prints a generated key', async () => {
    const err = capture();
    const controller = new AbortController();
    const done = runSandboxCommand({
      port: 0,
      apiKeys: [],
      stderr: err.stream,
      signal: controller.signal,
      env: {},
    });
    const key = (await err.waitFor(/API key: (\S+)\n/))[1]!;
    expect(key.length).toBeGreaterThanOrEqual(24);
    controller.abort();
    await done;
  });

  it('fails with a usage error when the port is taken, leaving no signal handlers behind', async () => {
    const taken = await startSandbox({ port: 0, apiKeys: ['k'] });
    const listeners = process.listenerCount('SIGTERM');
    try {
      const run = runSandboxCommand({ port: taken.port, apiKeys: ['k'], stderr: capture().stream });
      await expect(run).rejects.toBeInstanceOf(UsageError);
      await expect(run).rejects.toThrow(/port is in use/);
      expect(process.listenerCount('SIGTERM')).toBe(listeners);
    } finally {
      await taken.close();
    }
  });

  it('rejects invalid options before listening', async () => {
    const stderr = capture().stream;
    await expect(runSandboxCommand({ port: 70000, apiKeys: ['k'], stderr })).rejects.toThrow(/invalid port/);
    await expect(runSandboxCommand({ port: 0, latencyMs: -1, apiKeys: ['k'], stderr })).rejects.toThrow(
      /invalid latency/,
    );
  });

  it('takes keys from --api-key-file (0600), shows none of them, and warns about none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-sandbox-keys-'));
    try {
      const file = join(dir, 'keys');
      writeFileSync(file, '# the team\nfile-key-one-0123456789\n\n  file-key-two-0123456789  \n', {
        mode: 0o600,
      });
      const err = capture();
      const controller = new AbortController();
      const done = runSandboxCommand({
        port: 0,
        apiKeys: [],
        apiKeyFile: file,
        stderr: err.stream,
        signal: controller.signal,
        env: { BLOGCTL_SANDBOX_KEYS: 'env-key-not-used-0123456789' },
      });
      const url = (await err.waitFor(/listening on (\S+)\n/))[1]!;
      const status = async (key: string) =>
        (await fetch(`${url}/api/v1/public/get-all-blogs`, { headers: { authorization: `Bearer ${key}` } }))
          .status;
      expect(await status('file-key-one-0123456789')).toBe(200);
      expect(await status('file-key-two-0123456789')).toBe(200);
      expect(await status('env-key-not-used-0123456789')).toBe(401);
      controller.abort();
      await done;
      expect(err.text()).not.toMatch(/file-key|API key:|warning/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a key file others may read, or one without a key, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-sandbox-keys-'));
    try {
      const file = join(dir, 'keys');
      writeFileSync(file, 'readable-key-0123456789\n');
      chmodSync(file, 0o644);
      const stderr = capture().stream;
      const run = (apiKeyFile: string) => runSandboxCommand({ port: 0, apiKeys: [], apiKeyFile, stderr });
      await expect(run(file)).rejects.toThrow(
        new UsageError(`--api-key-file ${file}: other users may read it (mode 0644); run chmod 600 ${file}`),
      );
      chmodSync(file, 0o600);
      // Another user's file, 0600 (as root here: chown is real).
      if (process.getuid?.() === 0) {
        chownSync(file, 65534, 65534);
        await expect(run(file)).rejects.toThrow(
          `--api-key-file ${file}: it belongs to another user (uid 65534; you are uid 0), who could change the keys in it`,
        );
        chownSync(file, 0, 0);
      }
      writeFileSync(file, '# nothing yet\n');
      await expect(run(file)).rejects.toThrow(`--api-key-file ${file}: holds no key (one a line)`);
      await expect(run(join(dir, 'missing'))).rejects.toThrow(
        `--api-key-file ${join(dir, 'missing')}: cannot be read (ENOENT)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns that --api-key shows the key in ps and shell history, without showing the key', async () => {
    const err = capture();
    const controller = new AbortController();
    const done = runSandboxCommand({
      port: 0,
      apiKeys: ['flag-key-0123456789'],
      stderr: err.stream,
      signal: controller.signal,
    });
    await err.waitFor(/listening on/);
    controller.abort();
    await done;
    expect(err.text()).toContain(
      'warning: --api-key shows the key to every user of this machine (ps) and leaves it in your shell history; pass keys with --api-key-file FILE (mode 0600) or BLOGCTL_SANDBOX_KEYS instead\n',
    );
    expect(err.text()).not.toContain('flag-key');
  });
});
