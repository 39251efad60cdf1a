// A server streaming an endless JSON array of 1 KB blogs: `blog list` keeps every item (a table needs them
// all), so without a bound on the whole answer it grew until the heap limit killed it. It must fail with
// exit 7 naming the limit, its memory bounded all along: the test reads the process's peak resident memory
// as it runs and kills it (failing) past 1 GiB. A stress test (`npm run test:stress`): the default limits
// stream 100 MB through the CLI; test/commands/list-limits.test.ts checks the same limits in-process, small.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv, tempConfigDir } from '../helpers/cli.js';
import { startEndlessList, type TestServer } from '../helpers/http-server.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function endlessList(): Promise<TestServer> {
  const server = await startEndlessList();
  servers.push(server);
  return server;
}

/** The peak resident memory of `pid` so far, in bytes (VmHWM); undefined once it has ended. */
function peakMemory(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

const LIMIT = 1024 ** 3;

describe.skipIf(process.platform !== 'linux')('blog list against an endless list', () => {
  it.each([
    [
      'a table (TSV when piped)',
      [],
      /had more than 100000 items \(BLOGCTL_MAX_LIST_ITEMS raises the limit\)/,
      {},
    ],
    ['--json', ['--json'], /had more than 100000 items/, {}],
    [
      'BLOGCTL_MAX_LIST_MB=8',
      ['--json', 'id'],
      /the list in the response was larger than 8 MiB \(BLOGCTL_MAX_LIST_MB raises the limit\)/,
      { BLOGCTL_MAX_LIST_MB: '8' },
    ],
    ['BLOGCTL_MAX_LIST_ITEMS=500', [], /had more than 500 items/, { BLOGCTL_MAX_LIST_ITEMS: '500' }],
  ] as const)(
    '%s: exit 7 naming the limit, memory bounded',
    async (_name, extra, message, limits) => {
      const server = await endlessList();
      const env = cliEnv({
        BLOGCTL_API_KEY: 'sk_test_endless_list_key',
        BLOGCTL_CONFIG_DIR: tempConfigDir(),
        ...limits,
      });
      const child = spawn(process.execPath, [BIN, '--base-url', server.url, 'blog', 'list', ...extra], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = 0;
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.length));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      let exited = false;
      void ended.then(() => (exited = true));
      let peak = 0;
      // Bounded: past 1 GiB, or after 240 s (a hang, on any load), the CLI is killed and the assertions below fail.
      const deadline = Date.now() + 240_000;
      while (!exited) {
        peak = Math.max(peak, peakMemory(child.pid!) ?? 0);
        if (peak > LIMIT || Date.now() > deadline) child.kill('SIGKILL');
        await sleep(50);
      }
      const code = await ended;
      expect(peak, 'peak resident memory').toBeLessThan(LIMIT);
      expect(code, stderr).toBe(7);
      const [line, json, ...rest] = stderr.trim().split('\n');
      expect(line).toMatch(message);
      // With --json, the error object follows the line.
      if ((extra as readonly string[]).includes('--json'))
        expect(JSON.parse(json!)).toMatchObject({ exitCode: 7 });
      else expect(json).toBeUndefined();
      expect(rest).toEqual([]);
      expect(stdout).toBe(0);
    },
    300_000,
  );
});
