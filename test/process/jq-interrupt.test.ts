// Ctrl-C (SIGINT) and SIGTERM stop a --jq filter that never ends: jq runs in a worker thread, and the signal
// ends it with the usual exit 130 and one line. The built CLI as a process, against a real server.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv } from '../helpers/cli.js';
import { SECRETS, seededConfigDir, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

let servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe.each(['SIGINT', 'SIGTERM'] as const)('%s during a --jq that never ends', (signal) => {
  it.each(['def f: f; f', 'range(1e9)', '[limit(infinite; repeat(.))] | length'])(
    '--jq %j → 130',
    async (expression) => {
      const server = await startFaultServer({ plan: { list: 'ok' } });
      servers.push(server);
      const env = cliEnv({ ...SECRETS, BLOGCTL_CONFIG_DIR: seededConfigDir() });
      const child = spawn(
        process.execPath,
        [BIN, '--base-url', server.url, 'blog', 'list', '--jq', expression],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('close', (code, by) => resolve({ code, signal: by })),
      );
      // A bounded wait: a CLI that ignores the signal is killed, and the test fails on its exit.
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      try {
        const deadline = Date.now() + 10_000;
        while (server.count('list') < 1 && Date.now() < deadline) await sleep(20);
        expect(server.count('list'), 'the list was asked for').toBe(1);
        child.kill(signal);
        const result = await ended;
        expect(result.signal, 'ended by itself, not killed').toBeNull();
        expect(result.code, stderr).toBe(130);
        expect(stderr.split('\n').filter(Boolean)[0]).toBe('error: interrupted');
        expect(stdout).toBe('');
      } finally {
        clearTimeout(killer);
      }
    },
  );
});
