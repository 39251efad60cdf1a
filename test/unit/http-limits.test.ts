// The response size limit and the words for a broken answer. A streamed list is limited per item — its memory
// is what the caller keeps, not the body's length — so a list longer than the limit streams, while one item
// over it, a body that is not a list, or an error page over it is refused. An answer cut off after its status
// line is reported as such, not as a server that could not be reached.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BlogApi } from '../../src/api/blog-api.js';
import { UnavailableError } from '../../src/errors.js';
import { HttpClient } from '../../src/http/client.js';
import { JsonArraySplitter, TooLarge } from '../../src/http/json-array-split.js';

const MIB = 1024 * 1024;
let servers: Server[] = [];
let clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
  clients = [];
});

async function serve(answer: (res: ServerResponse, method: string) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res, req.method ?? ''));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function api(baseUrl: string, maxResponseBytes = MIB): BlogApi {
  const http = new HttpClient({ baseUrl, env: {}, maxResponseBytes, retry: { retries: 0 } });
  clients.push(http);
  return new BlogApi(http);
}

const blog = (i: number) => JSON.stringify({ _id: `b${i}`, title: `Blog ${i}`, content: 'x'.repeat(4000) });

/** `count` blogs of about 4 KB, written in chunks as the client reads; with or without Content-Length. */
function streamList(res: ServerResponse, count: number, declare: boolean): void {
  const items = Array.from({ length: count }, (_, i) => blog(i));
  const body = `[${items.join(',')}]`;
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declare && { 'content-length': String(Buffer.byteLength(body)) }),
  });
  let at = 0;
  const pump = (): void => {
    while (at < body.length) {
      const piece = body.slice(at, at + 64 * 1024);
      at += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('the size limit on a streamed list', () => {
  it.each([false, true])(
    'a list three times the limit streams whole (Content-Length declared: %s)',
    async (declare) => {
      const url = await serve((res) => streamList(res, 800, declare)); // ~3.2 MB
      const blogs = await api(url).listBlogs();
      expect(blogs).toHaveLength(800);
      expect(blogs.at(-1)!._id).toBe('b799');
    },
  );

  it('one item over the limit is refused, naming it, before the rest is read', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`[${blog(0)},${blog(1)},{"_id":"big","title":"t","content":"`);
      const filler = 'y'.repeat(64 * 1024);
      const pump = (): void => {
        while (!res.destroyed) if (!res.write(filler)) return void res.once('drain', pump);
      };
      pump();
    });
    const error = await failure(api(url).listBlogs());
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe(
      'list blogs failed: GET /api/v1/public/get-all-blogs: item [2] of the list in the response was larger than 1 MiB (BLOGCTL_MAX_RESPONSE_MB raises the limit)',
    );
  });

  it('a 200 body that is not a list is kept whole, so the whole body is limited', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html>${'z'.repeat(2 * MIB)}</html>`);
    });
    const error = await failure(api(url).listBlogs());
    expect(error.message).toMatch(/: the response was larger than 1 MiB/);
  });

  it('an error page is limited as a whole', async () => {
    const url = await serve((res) => {
      res.writeHead(500, { 'content-type': 'text/html', 'content-length': String(2 * MIB) });
      res.end('z'.repeat(2 * MIB));
    });
    const error = await failure(api(url).listBlogs());
    expect(error.message).toMatch(/: the response was larger than 1 MiB/);
  });

  it('the splitter counts an item across chunks', () => {
    const items: string[] = [];
    const splitter = new JsonArraySplitter((t) => items.push(t), 10);
    splitter.push(Buffer.from('["abc", "de'));
    splitter.push(Buffer.from('f"'));
    expect(() => splitter.push(Buffer.from(', "0123456789"]'))).toThrow(TooLarge);
    expect(items).toEqual(['"abc"', '"def"']);
    expect(splitter.state).toBe('invalid');
  });
});

describe('an answer cut off after its status line', () => {
  const truncated = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('[{"_id":"a","title":"x"');
    setTimeout(() => res.socket?.destroy(), 20);
  };

  it.each([
    ['GET (node:http)', (a: BlogApi) => a.listBlogs(), 'list blogs failed: GET /api/v1/public/get-all-blogs'],
    [
      'DELETE (undici)',
      (a: BlogApi) => a.deleteBlog('a'),
      'delete blog a failed: DELETE /api/v1/public/delete-blog/a',
    ],
  ])('%s: says the server answered and the answer was cut off', async (_name, call, start) => {
    const url = await serve(truncated);
    const error = await failure(call(api(url)));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe(
      `${start}: ${url} answered HTTP 200 but the answer was cut off before its end (connection closed unexpectedly)`,
    );
    expect(error.message).not.toMatch(/cannot reach/);
    expect((error as UnavailableError).context.status).toBe(200);
  });

  it('a server that closes before answering still "cannot be reached"', async () => {
    const url = await serve((res) => res.socket?.destroy());
    const error = await failure(api(url).listBlogs());
    expect(error.message).toMatch(/^list blogs failed: cannot reach http:\/\/127\.0\.0\.1:\d+: /);
  });
});
