// Ids in paths reach the server as the segment they are: a WHATWG URL resolves `.` and `..` segments (even
// written %2E), so `blog delete ..` once sent `DELETE /api/v1/public/`. A loopback server records the exact
// request line.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlogApi } from '../../src/api/blog-api.js';
import { NotFoundError } from '../../src/errors.js';
import { HttpClient } from '../../src/http/client.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let server: Server;
let baseUrl: string;
const seen: string[] = [];
const clients: HttpClient[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((resolve) => server.close(resolve));
});

function http(base = baseUrl): HttpClient {
  const client = new HttpClient({ baseUrl: base, env: {}, retry: { retries: 0 } });
  clients.push(client);
  return client;
}

async function requestLine(send: () => Promise<unknown>): Promise<string> {
  seen.length = 0;
  await send();
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('BlogApi.deleteBlog', () => {
  it.each([
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['...', '%2E%2E%2E'],
    ['a.b', 'a%2Eb'],
    ['../get-all-blogs', '%2E%2E%2Fget-all-blogs'],
    ['a/b', 'a%2Fb'],
    ['x?y#z', 'x%3Fy%23z'],
    ['%2E%2E', '%252E%252E'],
    ['caf\u00e9 1', 'caf%C3%A9%201'],
    ['65f1c0ffee0123456789abcd', '65f1c0ffee0123456789abcd'],
  ])('sends the id %j as the one path segment %s', async (id, segment) => {
    const api = new BlogApi(http());
    expect(await requestLine(() => api.deleteBlog(id))).toBe(`DELETE /api/v1/public/delete-blog/${segment}`);
  });

  it('shows that path in --debug lines', async () => {
    const lines: string[] = [];
    const client = new HttpClient({ baseUrl, env: {}, retry: { retries: 0 }, debug: (l) => lines.push(l) });
    clients.push(client);
    await requestLine(() => new BlogApi(client).deleteBlog('..'));
    expect(lines[0]).toMatch(/^DELETE http:\/\/127\.0\.0\.1:\d+\/api\/v1\/public\/delete-blog\/%2E%2E\b/);
  });

  it('keeps a base URL path prefix', async () => {
    const api = new BlogApi(http(`${baseUrl}/proxy/`));
    expect(await requestLine(() => api.deleteBlog('..'))).toBe(
      'DELETE /proxy/api/v1/public/delete-blog/%2E%2E',
    );
  });
});

describe('HttpClient paths', () => {
  it('sends an encoded dot segment as written over both transports (node:http GETs, undici)', async () => {
    const client = http();
    const path = '/a/%2E%2E/b/%2e';
    expect(await requestLine(() => client.request({ method: 'GET', path, allowEmpty: true }))).toBe(
      `GET ${path}`,
    );
    expect(await requestLine(() => client.request({ method: 'DELETE', path, allowEmpty: true }))).toBe(
      `DELETE ${path}`,
    );
    expect(
      await requestLine(() =>
        client.request({ method: 'GET', path: `${path}?q=1`, query: { r: 'x y' }, allowEmpty: true }),
      ),
    ).toBe(`GET ${path}?q=1&r=x+y`);
  });

  it('still encodes what a request line cannot carry', async () => {
    const client = http();
    expect(
      await requestLine(() => client.request({ method: 'GET', path: '/a b/\u00e9', allowEmpty: true })),
    ).toBe('GET /a%20b/%C3%A9');
  });
});

describe('the sandbox', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it('routes a dot-segment id to delete-blog and answers 404 for that id', async () => {
    const api = sandbox.api();
    await api.createBlog(blogParamsFor());
    for (const id of ['..', '.', '...']) {
      const error = await api.deleteBlog(id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as Error).message).toContain(`no blog with id "${id}"`);
      expect((error as Error).message).toContain(
        `DELETE /api/v1/public/delete-blog/${id.replace(/\./g, '%2E')}`,
      );
    }
    expect(await api.listBlogs()).toHaveLength(1);
    expect(sandbox.logs.filter((l) => l.startsWith('DELETE ')).map((l) => l.replace(/ \d+ms$/, ''))).toEqual([
      'DELETE /api/v1/public/delete-blog/%2E%2E 404',
      'DELETE /api/v1/public/delete-blog/%2E 404',
      'DELETE /api/v1/public/delete-blog/%2E%2E%2E 404',
    ]);
  });
});
