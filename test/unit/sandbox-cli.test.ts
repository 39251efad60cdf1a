// runSandboxCommand in-process: what it prints, where its keys come from, and how it stops.
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
});
