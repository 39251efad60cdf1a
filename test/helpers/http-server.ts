// The one way a test helper or a test serves HTTP on 127.0.0.1: listen on a free port, keep every socket, and
// close by cutting them all (a hanging answer or a keep-alive socket never holds a test's end). The fake
// service (fault-server.ts), the fake WordPress, the fake OpenAI provider, the bare alt service and the proxy
// are built on it, as is any small server a single test needs (`startServer(handler)`).
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  server: Server;
  /** Keeps `socket` to be cut at close (a CONNECT tunnel's upstream, an upgraded connection). */
  track(socket: Socket): void;
  /** Stops listening and cuts every open connection, hanging ones included. */
  close(): Promise<void>;
}

/** Starts `server` listening on 127.0.0.1 (`port`, default a free one). */
export async function listenLocal(server: Server, port = 0): Promise<Listening> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    server,
    track,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      })),
  };
}

/** A request as a test server saw it, its body read whole. */
export interface SeenRequest {
  method: string;
  /** The path and query as sent. */
  url: string;
  /** The path alone. */
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer extends Listening {
  /** Every request so far, in order of arrival. */
  requests: SeenRequest[];
}

/**
 * A small server for one test: `handler` gets each request with its body already read (`seen`), and each is
 * recorded in `requests`. A handler that throws answers 500 naming the error, so a test fails loudly.
 */
export async function startServer(
  handler: (seen: SeenRequest, res: ServerResponse, req: IncomingMessage) => void | Promise<void>,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const listener: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        url,
        path: new URL(url, 'http://x').pathname,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      Promise.resolve()
        .then(() => handler(seen, res, req))
        .catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`test server: ${(error as Error).message}`);
        });
    });
  };
  return { ...(await listenLocal(createServer(listener))), requests };
}

/** A URL on 127.0.0.1 where nothing listens (a port just freed): a server that is down. */
export async function unusedLocalUrl(): Promise<string> {
  const { url, close } = await listenLocal(createServer());
  await close();
  return url;
}

/**
 * A server answering every request with an endless JSON array of ~1 KB blogs, written as fast as the client
 * reads: a list without a bound on its size. `sent()` is the bytes written so far.
 */
export async function startEndlessList(): Promise<TestServer & { sent: () => number }> {
  let sent = 0;
  const server = await startServer((_seen, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    let i = 0;
    const content = 'x'.repeat(900);
    const pump = (): void => {
      while (!res.destroyed) {
        const item = `${i ? ',' : ''}{"_id":"b${i}","title":"Blog ${i}","content":"${content}","createdAt":"2026-01-01T00:00:00.000Z"}`;
        i++;
        sent += item.length;
        if (!res.write(item)) return void res.once('drain', pump);
      }
    };
    res.on('close', () => res.destroy());
    pump();
  });
  return { ...server, sent: () => sent };
}
