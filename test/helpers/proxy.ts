// A tiny forward HTTP proxy on 127.0.0.1: absolute-URI requests (`GET http://host/path`) are forwarded, CONNECT
// opens a tunnel. It counts what passed through, so a test can tell proxied requests from direct ones.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listenLocal } from './http-server.js';

export interface ProxyRecord {
  kind: 'forward' | 'connect';
  /** `METHOD http://host/path` for a forward, `host:port` for a tunnel. */
  target: string;
}

export interface TestProxy {
  url: string;
  port: number;
  records: ProxyRecord[];
  close(): Promise<void>;
}

export async function startProxy(): Promise<TestProxy> {
  const records: ProxyRecord[] = [];
  const server: Server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return void res.end('test proxy: expected an absolute URI');
    }
    records.push({ kind: 'forward', target: `${req.method} ${target.href}` });
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port || 80,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('test proxy: upstream failed');
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    records.push({ kind: 'connect', target: req.url ?? '' });
    const upstream = connect(Number(port) || 443, host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    listening.track(upstream);
    const fail = (): void => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      fail();
    });
    client.on('error', fail);
  });
  const listening = await listenLocal(server);
  return { url: listening.url, port: listening.port, records, close: listening.close };
}
