// HttpClient and BlogApi against the fault server: what is retried, how long it waits, and what is never sent twice.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BlogApi } from '../../src/api/blog-api.js';
import {
  AuthError,
  InterruptedError,
  NotFoundError,
  RejectedError,
  UnavailableError,
  UsageError,
} from '../../src/errors.js';
import { HttpClient } from '../../src/http/client.js';
import { proxyEnv } from '../../src/http/proxy.js';
import type { HttpClientOptions } from '../../src/http/spec.js';
import { safeUrl } from '../../src/http/urls.js';
import { retryPolicyFromEnv } from '../../src/http/retry.js';
import { blogParamsFor } from '../helpers/sandbox.js';
import { startFaultServer, type FaultServer, type FaultServerOptions } from '../helpers/fault-server.js';
import { waitFor } from '../helpers/wait.js';

const credentials = { websiteUrl: 'https://wp.example', username: 'editor', password: 'abcd efgh ijkl mnop' };
const content = { title: 'Hello', content: '<p>Hi</p>', status: 'draft' as const };

let servers: FaultServer[] = [];
let clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  clients = [];
  vi.restoreAllMocks();
});

async function serve(options: FaultServerOptions = {}): Promise<FaultServer> {
  const server = await startFaultServer(options);
  servers.push(server);
  return server;
}

interface Setup {
  api: BlogApi;
  http: HttpClient;
  sleeps: number[];
}

/** A client whose waits are recorded, not slept (unless `realSleep`). */
function client(baseUrl: string, options: Partial<HttpClientOptions> & { realSleep?: boolean } = {}): Setup {
  const sleeps: number[] = [];
  const { realSleep, ...rest } = options;
  const http = new HttpClient({
    baseUrl,
    headers: { authorization: 'Bearer test-key' },
    env: {},
    retry: { retries: 3, baseDelayMs: 5, maxTotalWaitMs: 10_000 },
    ...(!realSleep && {
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
    }),
    ...rest,
  });
  clients.push(http);
  return { api: new BlogApi(http), http, sleeps };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('retries of requests that are safe to repeat', () => {
  it.each(['502', '503', '504', '429', 'reset', 'truncated'] as const)(
    'GET recovers after %s twice',
    async (fault) => {
      const server = await serve({ plan: { list: [fault, fault, 'ok'] } });
      const { api, sleeps } = client(server.url);
      const blogs = await api.listBlogs();
      expect(blogs.map((b) => b._id)).toEqual(['blog-1', 'blog-2']);
      expect(server.count('list')).toBe(3);
      expect(sleeps).toHaveLength(2);
    },
  );

  it('DELETE and the settings PATCH are retried on 503', async () => {
    const server = await serve({ plan: { delete: ['503', 'ok'], settings: ['502', '503', 'ok'] } });
    const { api } = client(server.url);
    await expect(api.deleteBlog('blog-1')).resolves.toMatchObject({ id: 'blog-1', status: 200 });
    await expect(api.updateWordPressSettings({ id: 'site', label: 'x' })).resolves.toMatchObject({
      success: true,
    });
    expect(server.count('delete')).toBe(2);
    expect(server.count('settings')).toBe(3);
  });

  it('stops after --retries and reports the last status', async () => {
    const server = await serve({ plan: { list: '503' } });
    const { api, sleeps } = client(server.url, {
      retry: { retries: 2, baseDelayMs: 5, maxTotalWaitMs: 10_000 },
    });
    const error = await failure(api.listBlogs());
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).context.status).toBe(503);
    expect(error.message).toMatch(
      /HTTP 503 GET \/api\/v1\/public\/get-all-blogs: service temporarily unavailable/,
    );
    expect(server.count('list')).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('retries 0 sends once', async () => {
    const server = await serve({ plan: { list: '502' } });
    const { api } = client(server.url, { retry: { retries: 0 } });
    await expect(api.listBlogs()).rejects.toBeInstanceOf(UnavailableError);
    expect(server.count('list')).toBe(1);
  });

  it('keeps the total wait under the cap, however many retries are allowed', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const server = await serve({ plan: { list: '503' } });
    const { api, sleeps } = client(server.url, {
      retry: { retries: 10, baseDelayMs: 400, maxTotalWaitMs: 1_500 },
    });
    await expect(api.listBlogs()).rejects.toBeInstanceOf(UnavailableError);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1_500);
    expect(sleeps[0]).toBe(400);
    expect(sleeps[1]).toBe(800);
    expect(sleeps[2]).toBe(300); // clipped to what is left of the cap
    expect(server.count('list')).toBe(sleeps.length + 1);
  });

  it('never waits past the call deadline', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const server = await serve({ plan: { list: '503' } });
    // Every wait the client chose, each really waited: together they stay inside the call's 800 ms (the
    // next one, 600 ms after the first 300, would end past it), however slowly the machine answers.
    const waits: number[] = [];
    const { api } = client(server.url, {
      timeoutMs: 800,
      retry: { retries: 10, baseDelayMs: 300, maxTotalWaitMs: 60_000 },
      sleep: async (ms: number) => {
        waits.push(ms);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    await expect(api.listBlogs()).rejects.toBeInstanceOf(UnavailableError);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(800);
  });
});

describe('Retry-After', () => {
  it('waits the seconds the server asks for', async () => {
    const server = await serve({ plan: { list: [{ fault: '503', retryAfter: '2' }, 'ok'] } });
    const { api, sleeps } = client(server.url);
    await api.listBlogs();
    expect(sleeps).toEqual([2_000]);
  });

  it('waits until an HTTP date', async () => {
    const at = new Date(Date.now() + 3_000).toUTCString();
    const server = await serve({ plan: { list: [{ fault: '429', retryAfter: at }, 'ok'] } });
    const { api, sleeps } = client(server.url);
    await api.listBlogs();
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(1_000);
    expect(sleeps[0]).toBeLessThanOrEqual(3_000);
  });

  it('really sleeps a small Retry-After', async () => {
    const server = await serve({ plan: { list: [{ fault: '503', retryAfter: '1' }, 'ok'] } });
    const { api } = client(server.url, { realSleep: true });
    const started = Date.now();
    await api.listBlogs();
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('gives up rather than knock early when the server asks for longer than the cap allows', async () => {
    const server = await serve({ plan: { list: [{ fault: '503', retryAfter: '120' }, 'ok'] } });
    const { api, sleeps } = client(server.url, {
      retry: { retries: 3, baseDelayMs: 5, maxTotalWaitMs: 30_000 },
    });
    const error = await failure(api.listBlogs());
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).context.hints).toEqual(['the server asked to retry after 120 s']);
    expect(sleeps).toEqual([]);
    expect(server.count('list')).toBe(1);
  });
});

describe('POST is never sent twice once it may have reached the server', () => {
  it.each(['502', '503', '504', '429', 'reset', 'truncated', 'invalidJson', 'html500'] as const)(
    'create-blog on %s: one request',
    async (fault) => {
      const server = await serve({ plan: { create: fault } });
      const { api } = client(server.url);
      await expect(api.createBlog(blogParamsFor())).rejects.toBeInstanceOf(
        fault === '429' ? RejectedError : UnavailableError,
      );
      expect(server.count('create')).toBe(1);
      expect(server.keys('create')[0]).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it.each(['502', '503', 'reset', 'hang'] as const)('publish on %s: one request', async (fault) => {
    const server = await serve({ plan: { publish: fault } });
    const { api } = client(server.url, { timeoutMs: 500 });
    await expect(api.publishToWordPress(credentials, content)).rejects.toBeInstanceOf(UnavailableError);
    expect(server.count('publish')).toBe(1);
  });

  it('create-blog that hangs ends at its timeout, sent once', async () => {
    const server = await serve({ plan: { create: 'hang' } });
    const { api } = client(server.url);
    // The server never answers: the timeout (named) is what ends it, and nothing is sent twice.
    const error = await failure(api.createBlog(blogParamsFor(), { timeoutMs: 400 }));
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).context.peerCode).toBe('timeout');
    expect(error.message).toMatch(/no complete answer from http:\/\/127\.0\.0\.1:\d+ within 0\.4 s/);
    expect(server.count('create')).toBe(1);
  });

  it('is sent again when the connection was refused before anything was sent, with the same key', async () => {
    const port = await freePort();
    let server: FaultServer | undefined;
    const lines: string[] = [];
    const http = new HttpClient({
      baseUrl: `http://127.0.0.1:${port}`,
      env: {},
      retry: { retries: 3, baseDelayMs: 5 },
      debug: (line) => lines.push(line),
      // The server comes back during the first backoff.
      sleep: async () => {
        server ??= await serve({ port });
      },
    });
    clients.push(http);
    const blog = await new BlogApi(http).createBlog(blogParamsFor(), { idempotencyKey: 'key-1234' });
    expect(blog._id).toBe('blog-new');
    expect(server!.count('create')).toBe(1);
    expect(server!.keys('create')).toEqual(['key-1234']);
    const attempts = lines.filter((l) => /^POST http:.*create-blog.*idempotency-key/.test(l));
    expect(attempts).toHaveLength(2);
    for (const line of attempts) expect(line).toContain('idempotency-key key-1234');
    expect(lines.some((l) => /ECONNREFUSED/.test(l))).toBe(true);
  });

  it('gives up on a refused connection after the retries, naming the reason', async () => {
    const port = await freePort();
    const { api, sleeps } = client(`http://127.0.0.1:${port}`);
    const error = await failure(api.createBlog(blogParamsFor()));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toMatch(
      /create blog failed: cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused/,
    );
    expect(sleeps).toHaveLength(3);
  });

  it('carries one Idempotency-Key across every attempt of a request marked safe to repeat', async () => {
    const server = await serve({ plan: { create: ['503', '502', 'ok'] } });
    const { http } = client(server.url);
    await http.request({ method: 'POST', path: '/api/v1/public/create-blog', json: {}, idempotent: true });
    const keys = server.keys('create');
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('gives each logical request its own key', async () => {
    const server = await serve();
    const { api } = client(server.url);
    await api.createBlog(blogParamsFor());
    await api.createBlog(blogParamsFor());
    const [a, b] = server.keys('create');
    expect(a).not.toBe(b);
  });
});

describe('answers that are not what was expected', () => {
  it('turns an HTML 500 into a message without tags', async () => {
    const server = await serve({ plan: { list: 'html500' } });
    const { api } = client(server.url);
    const error = await failure(api.listBlogs());
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toMatch(/HTTP 500 GET \/api\/v1\/public\/get-all-blogs: 500 Internal Server Error/);
    expect(error.message).not.toMatch(/[<>]/);
    expect(error.message).not.toContain('alert');
    expect(server.count('list')).toBe(1); // 500 is not retried
  });

  it.each([
    ['list', (api: BlogApi) => api.listBlogs()],
    ['create', (api: BlogApi) => api.createBlog(blogParamsFor())],
    ['settings', (api: BlogApi) => api.updateWordPressSettings({ label: 'x' })],
    ['publish', (api: BlogApi) => api.publishToWordPress(credentials, content)],
  ] as const)('a 204 where JSON is expected (%s) is an invalid response', async (route, call) => {
    const server = await serve({ plan: { [route]: 'empty204' } });
    const { api } = client(server.url);
    const error = await failure(call(api));
    expect(error).toBeInstanceOf(UnavailableError);
  });

  it('accepts 204 for delete', async () => {
    const server = await serve({ deleteStatus: 204 });
    const { api } = client(server.url);
    await expect(api.deleteBlog('blog-1')).resolves.toEqual({ id: 'blog-1', status: 204 });
  });

  it('an invalid JSON body is an invalid response', async () => {
    const server = await serve({ plan: { list: 'invalidJson' } });
    const { api } = client(server.url);
    const error = await failure(api.listBlogs());
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toMatch(/not JSON/);
  });

  it.each(['huge', 'hugeDeclared'] as const)(
    'a %s body fails at the size limit without reading it all',
    async (fault) => {
      const server = await serve({ plan: { list: fault } });
      const { api } = client(server.url, { maxResponseBytes: 1024 * 1024 });
      const error = await failure(api.listBlogs());
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error.message).toMatch(/larger than 1 MiB/);
      expect(server.count('list')).toBe(1);
      // The server writes only as fast as the client reads: a few MiB past the limit (socket buffers), never
      // the 300 MB body.
      expect(server.hugeSent()).toBeLessThan(64 * 1024 * 1024);
    },
  );

  it('reads the size limit from BLOGCTL_MAX_RESPONSE_MB', async () => {
    const server = await serve({ plan: { list: 'huge' }, hugeBytes: 3 * 1024 * 1024 });
    const { api } = client(server.url, { env: { BLOGCTL_MAX_RESPONSE_MB: '2' } });
    await expect(api.listBlogs()).rejects.toThrow(/larger than 2 MiB/);
    const roomy = client(server.url, { env: { BLOGCTL_MAX_RESPONSE_MB: '4' } });
    expect((await roomy.api.listBlogs()).map((b) => String(b.content).length)).toEqual([
      3 * 1024 * 1024 - 44,
    ]);
  });

  it.each([
    ['401', AuthError, 4],
    ['403', AuthError, 4],
    ['404', NotFoundError, 5],
    ['413', RejectedError, 6],
  ] as const)('%s → %s (exit %i), not retried', async (fault, type, exitCode) => {
    const server = await serve({ plan: { list: fault } });
    const { api } = client(server.url);
    const error = await failure(api.listBlogs());
    expect(error).toBeInstanceOf(type);
    expect((error as AuthError).exitCode).toBe(exitCode);
    expect(server.count('list')).toBe(1);
  });

  it('a hanging GET ends at the deadline, retries included', async () => {
    const server = await serve({ plan: { list: 'hang' } });
    const { api } = client(server.url, { timeoutMs: 300, realSleep: true });
    // The deadline named, and no retry after it: the one wait is the whole call.
    const error = await failure(api.listBlogs());
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).context.peerCode).toBe('timeout');
    expect(error.message).toMatch(/within 0\.3 s/);
    expect(server.count('list')).toBe(1);
  });
});

describe('interrupts and shutdown', () => {
  it('an aborted signal interrupts a hanging request', async () => {
    const server = await serve({ plan: { list: 'hang' } });
    const controller = new AbortController();
    const { api } = client(server.url, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(api.listBlogs()).rejects.toBeInstanceOf(InterruptedError);
  });

  it('an abort during a backoff wait interrupts it', async () => {
    const server = await serve({ plan: { list: [{ fault: '503', retryAfter: '5' }] } });
    const controller = new AbortController();
    const { api } = client(server.url, { signal: controller.signal, realSleep: true });
    setTimeout(() => controller.abort(), 200);
    await expect(api.listBlogs()).rejects.toBeInstanceOf(InterruptedError);
  });

  it('close() does not wait for a hanging request', async () => {
    const server = await serve({ plan: { list: 'hang' } });
    const { api, http } = client(server.url, { timeoutMs: 60_000 });
    const pending = api.listBlogs().catch((e: unknown) => e);
    await waitFor(() => server.count('list') >= 1, 'list requested');
    // The request would wait 60 s for its answer: close() returning at all shows it did not wait for it.
    await http.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('environment', () => {
  it('reads the retry knobs', () => {
    expect(retryPolicyFromEnv({ BLOGCTL_RETRY_BASE_MS: '5', BLOGCTL_RETRY_MAX_WAIT_MS: '100' })).toEqual({
      baseDelayMs: 5,
      maxTotalWaitMs: 100,
    });
    expect(retryPolicyFromEnv({})).toEqual({});
    expect(() => retryPolicyFromEnv({ BLOGCTL_RETRY_BASE_MS: 'fast' })).toThrow(UsageError);
  });

  it('rejects an unreadable size limit', () => {
    expect(() => new HttpClient({ baseUrl: 'http://x', env: { BLOGCTL_MAX_RESPONSE_MB: 'lots' } })).toThrow(
      UsageError,
    );
  });

  it('finds proxy settings, lowercase first, empty values ignored', () => {
    expect(proxyEnv({})).toBeUndefined();
    expect(proxyEnv({ NO_PROXY: 'x' })).toBeUndefined();
    expect(proxyEnv({ HTTP_PROXY: 'http://a:1' })).toEqual({
      httpProxy: 'http://a:1',
      httpsProxy: '',
      noProxy: '',
    });
    expect(
      proxyEnv({ http_proxy: 'http://b:1', HTTP_PROXY: 'http://a:1', no_proxy: 'l', NO_PROXY: 'u' }),
    ).toEqual({
      httpProxy: 'http://b:1',
      httpsProxy: '',
      noProxy: 'l',
    });
    expect(
      proxyEnv({ http_proxy: '', HTTP_PROXY: 'http://a:1', https_proxy: ' ', HTTPS_PROXY: 'http://s:1' }),
    ).toEqual({
      httpProxy: 'http://a:1',
      httpsProxy: 'http://s:1',
      noProxy: '',
    });
  });

  it('shows URLs in debug lines without credentials', () => {
    expect(safeUrl('https://user:pw@example.com/a?api_key=s3cret&page=2')).toBe(
      'https://example.com/a?api_key=***&page=2',
    );
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
