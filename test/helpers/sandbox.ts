// The sandbox in-process on port 0, with the real service client pointed at it.
import { BlogApi } from '../../src/api/blog-api.js';
import { HttpClient } from '../../src/http/client.js';
import type { BlogParams } from '../../src/schemas/blog.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export const TEST_KEY = 'test-key-0123456789abcdef';

export interface TestSandbox extends RunningSandbox {
  /** The first API key. */
  apiKey: string;
  /** Every log line the sandbox wrote. */
  logs: string[];
  /** The real service client, authenticated with `key` (default: the first API key); no retries. */
  api(key?: string): BlogApi;
  /** Raw fetch against the sandbox (for malformed requests). Adds the first key unless headers say otherwise. */
  fetch(path: string, init?: RequestInit & { auth?: string | null }): Promise<Response>;
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const logs: string[] = [];
  const sandbox = await startSandbox({
    apiKeys: [TEST_KEY],
    ...options,
    port: options.port ?? 0,
    log: (line) => {
      logs.push(line);
      options.log?.(line);
    },
  });
  const clients: HttpClient[] = [];
  const apiKey = sandbox.apiKeys[0]!;
  return {
    ...sandbox,
    apiKey,
    logs,
    api(key = apiKey) {
      const http = new HttpClient({
        baseUrl: sandbox.url,
        headers: { authorization: `Bearer ${key}` },
        retry: { retries: 0 },
      });
      clients.push(http);
      return new BlogApi(http);
    },
    fetch(path, init = {}) {
      const { auth, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (auth !== null && !headers.has('authorization'))
        headers.set('authorization', `Bearer ${auth ?? apiKey}`);
      return fetch(`${sandbox.url}${path}`, { ...rest, headers });
    },
    async close() {
      // The sandbox first: a client's close() would wait for requests still in flight.
      await sandbox.close();
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}

/** Valid generation parameters; override any field. */
export function blogParamsFor(overrides: Partial<BlogParams> = {}): BlogParams {
  return {
    topicKeywords: ['home espresso', 'grinder'],
    language: { name: 'English', value: 'en' },
    toneStyle: { name: 'Friendly', value: 'Friendly' },
    contentStructure: { name: 'How-to guide', value: 'How-to guide' },
    callToAction: { name: 'Subscribe', value: 'Subscribe to our newsletter' },
    targetAudience: { name: 'Beginners', value: 'coffee beginners' },
    blogLength: { name: 'Short', value: 'Short' },
    ...overrides,
  };
}
