// HttpClient carries a plain-http GET over node:http (no undici load) and everything else over undici. The two
// must be indistinguishable from outside: the same result or error (class, message, exit code), the same
// number of attempts and waits, and the same debug lines, for every fault the service can produce.
import { createServer } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BlogApi } from '../../src/api/blog-api.js';
import { BlogctlError } from '../../src/errors.js';
import { HttpClient } from '../../src/http/client.js';
import type { HttpClientOptions } from '../../src/http/spec.js';
import { startFaultServer, type Fault, type FaultServer } from '../helpers/fault-server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.restoreAllMocks();
});

interface Outcome {
  result: unknown;
  attempts: number;
  sleeps: number[];
  debug: string[];
}

async function listWith(
  transport: 'node:http' | 'undici',
  baseUrl: string,
  options: Partial<HttpClientOptions> = {},
): Promise<Omit<Outcome, 'attempts'>> {
  const sleeps: number[] = [];
  const debug: string[] = [];
  const dispatcher = transport === 'undici' ? new Agent() : undefined;
  const http = new HttpClient({
    baseUrl,
    headers: { authorization: 'Bearer test-key' },
    env: {},
    retry: { retries: 2, baseDelayMs: 5, maxTotalWaitMs: 10_000 },
    sleep: async (ms: number) => void sleeps.push(ms),
    // Timings vary from run to run; the rest of each line must not.
    debug: (line) => debug.push(line.replace(/\d+ ms/g, 'N ms')),
    maxResponseBytes: 1024 * 1024,
    timeoutMs: 1_000,
    ...(dispatcher && { dispatcher }),
    ...options,
  });
  closers.push(async () => {
    await http.close();
    await dispatcher?.destroy();
  });
  let result: unknown;
  try {
    result = await new BlogApi(http).listBlogs();
  } catch (error) {
    result =
      error instanceof BlogctlError
        ? { error: error.constructor.name, message: error.message, exitCode: error.exitCode }
        : { unexpected: String(error) };
  }
  return { result, sleeps, debug };
}

const FAULTS: Fault[] = [
  'ok',
  'html500',
  '502',
  '503',
  '504',
  '429',
  'hang',
  'reset',
  'truncated',
  'invalidJson',
  'empty204',
  '401',
  '403',
  '404',
  'huge',
  'hugeDeclared',
];

describe('node:http and undici carry a GET alike', () => {
  it.each(FAULTS)('%s, then ok', async (fault) => {
    // Backoff jitter alike for both.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    // Each fault twice (both retried when it is worth retrying), then a good answer.
    const server: FaultServer = await startFaultServer({
      plan: { list: [fault, fault, 'ok'] },
      hugeBytes: 4 * 1024 * 1024,
    });
    closers.push(() => server.close());
    const outcomes: Outcome[] = [];
    for (const transport of ['node:http', 'undici'] as const) {
      server.reset();
      const outcome = await listWith(transport, server.url);
      outcomes.push({ ...outcome, attempts: server.count('list') });
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
  });

  it('a refused connection', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const [viaNode, viaUndici] = [
      await listWith('node:http', `http://127.0.0.1:${port}`),
      await listWith('undici', `http://127.0.0.1:${port}`),
    ];
    expect(viaNode).toEqual(viaUndici);
    expect(JSON.stringify(viaNode.result)).toMatch(/connection refused/);
  });
});

describe('close() with a request in flight', () => {
  it('fails it alike, and does not retry it', async () => {
    const server = await startFaultServer({ plan: { list: 'hang' } });
    closers.push(() => server.close());
    const outcomes: unknown[] = [];
    for (const dispatcher of [undefined, new Agent()]) {
      server.reset();
      const http = new HttpClient({
        baseUrl: server.url,
        env: {},
        timeoutMs: 60_000,
        ...(dispatcher && { dispatcher }),
      });
      const pending = new BlogApi(http).listBlogs().catch((error: Error) => error.message);
      while (server.count('list') < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      await http.close();
      await dispatcher?.destroy();
      outcomes.push({ message: await pending, attempts: server.count('list') });
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
  });
});
