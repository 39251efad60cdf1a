// A small fake WordPress on 127.0.0.1 (port 0) that answers like the real one (see
// /work/shared/reference/wordpress-e2e/NOTES.md): discovery Link header, REST index, wp/v2/posts with
// Application Password Basic auth. Anything it does not expect gets a loud 404 naming method and path.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeWordPressOptions {
  /** 'plain': REST lives at /index.php?rest_route=/ and POST /wp-json/… answers 200 with the HTML home page. */
  permalinks?: 'pretty' | 'plain';
  username?: string;
  password?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

export interface FakeWordPress {
  url: string;
  username: string;
  password: string;
  requests: RecordedRequest[];
  /** Requests the fake did not expect (each also answered 404). */
  unexpected: RecordedRequest[];
  close(): Promise<void>;
}

const CANNOT_CREATE = {
  code: 'rest_cannot_create',
  message: 'Sorry, you are not allowed to create posts as this user.',
  data: { status: 401 },
};

export async function startFakeWordPress(options: FakeWordPressOptions = {}): Promise<FakeWordPress> {
  const permalinks = options.permalinks ?? 'pretty';
  const username = options.username ?? 'admin';
  const password = options.password ?? 'abcd EFGH 1234 ijkl MNOP 5678';
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  let nextId = 1;
  let base = '';

  const restRoot = (): string =>
    permalinks === 'pretty' ? `${base}/wp-json/` : `${base}/index.php?rest_route=/`;
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=UTF-8',
      link: `<${restRoot()}>; rel="https://api.w.org/"`,
    });
    res.end(JSON.stringify(body));
  };
  const home = (res: ServerResponse): void => {
    res.writeHead(200, {
      'content-type': 'text/html; charset=UTF-8',
      link: `<${restRoot()}>; rel="https://api.w.org/"`,
    });
    res.end(
      '<!doctype html><html><head><title>Fake WordPress</title></head><body><h1>Fake WordPress</h1></body></html>',
    );
  };
  // WordPress ignores the spaces in an Application Password.
  const authorised = (header: string | undefined): boolean => {
    const m = /^Basic (.+)$/.exec(header ?? '');
    if (!m) return false;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const [user, pass] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    return user === username && pass.replace(/\s+/g, '') === password.replace(/\s+/g, '');
  };

  const rest = (
    route: string,
    req: IncomingMessage,
    record: RecordedRequest,
    res: ServerResponse,
  ): boolean => {
    if (req.method === 'GET' && (route === '/' || route === '')) {
      json(res, 200, {
        name: 'Fake WordPress',
        url: base,
        home: base,
        namespaces: ['oembed/1.0', 'wp/v2'],
        authentication: {},
      });
      return true;
    }
    if (req.method === 'POST' && route === '/wp/v2/posts') {
      if (!authorised(record.authorization)) {
        json(res, 401, CANNOT_CREATE);
        return true;
      }
      const input = JSON.parse(record.body || '{}') as Record<string, unknown>;
      const id = nextId++;
      const title = String(input['title'] ?? '');
      const slug =
        String(input['slug'] ?? '') ||
        title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '') ||
        String(id);
      const status = String(input['status'] ?? 'draft');
      const link = status === 'publish' && permalinks === 'pretty' ? `${base}/${slug}/` : `${base}/?p=${id}`;
      const date = new Date().toISOString().slice(0, 19);
      json(res, 201, {
        id,
        date,
        date_gmt: date,
        slug,
        status,
        type: 'post',
        link,
        title: { raw: title, rendered: title },
        content: {
          raw: String(input['content'] ?? ''),
          rendered: String(input['content'] ?? ''),
          protected: false,
        },
        categories: [1],
      });
      return true;
    }
    return false;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        ...(req.headers.authorization && { authorization: req.headers.authorization }),
        ...(req.headers['content-type'] && { contentType: req.headers['content-type'] }),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(record);
      const url = new URL(record.url, base);
      const restRoute = url.searchParams.get('rest_route');
      const handled =
        restRoute !== null && (url.pathname === '/' || url.pathname === '/index.php')
          ? rest(restRoute, req, record, res)
          : url.pathname === '/' && req.method === 'GET'
            ? (home(res), true)
            : url.pathname.startsWith('/wp-json/')
              ? permalinks === 'pretty'
                ? rest(url.pathname.slice('/wp-json'.length), req, record, res)
                : req.method === 'POST' && (home(res), true) // the false success of plain permalinks
              : false;
      if (!handled) {
        unexpected.push(record);
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end(`fake WordPress: unexpected request ${record.method} ${record.url}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    username,
    password,
    requests,
    unexpected,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens: a WordPress that is down. */
export async function unusedLocalUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
