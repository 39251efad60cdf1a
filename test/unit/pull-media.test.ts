// wp pull --media against hostile image servers on 127.0.0.1: an endless image stops at the size limit, a
// trickling one at the total deadline (not an idle timeout: bytes keep coming), a malformed address is a
// problem of that post; each returns one line and writes nothing, and memory holds no more than the limit.
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../../src/publishing/pull/site.js';

let server: Server;
let base = '';
const timers = new Set<NodeJS.Timeout>();
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/endless.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const more = (): void => {
        while (res.write(chunk));
      };
      res.on('drain', more);
      res.on('close', () => res.off('drain', more));
      more();
    } else if (req.url === '/trickle.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const timer = setInterval(() => res.write('x'), 20);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    } else {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([1, 2, 3]));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const deps = (env: Record<string, string> = {}) => ({ signal: new AbortController().signal, env });

describe('--media downloads are bounded', () => {
  it('an endless image stops at BLOGCTL_MAX_RESPONSE_MB, naming it; nothing written', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pull-media-'));
    const problem = await download(
      `${base}/endless.png`,
      join(root, 'media', '1-endless.png'),
      base,
      deps({ BLOGCTL_MAX_RESPONSE_MB: '1' }),
      root,
    );
    expect(problem).toMatch(
      /endless\.png failed: larger than 1 MiB \(BLOGCTL_MAX_RESPONSE_MB raises the limit\)/,
    );
    expect(readdirSync(root)).toEqual([]);
  });

  it('a trickling image stops at the total deadline although bytes keep coming', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pull-media-'));
    const problem = await download(
      `${base}/trickle.png`,
      join(root, 'media', '2-t.png'),
      base,
      deps(),
      root,
      300,
    );
    expect(problem).toMatch(/trickle\.png failed: took more than 0\.3 s/);
    expect(readdirSync(root)).toEqual([]);
  });

  it('a malformed address, or one off the site: a problem of that post, no request', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pull-media-'));
    expect(await download('http://[not-an-address/a.png', join(root, 'a.png'), base, deps(), root)).toMatch(
      /is not a valid address/,
    );
    expect(await download('https://elsewhere.test/a.png', join(root, 'a.png'), base, deps(), root)).toMatch(
      /is not on the site/,
    );
    expect(await download(`${base}/fine.png`, join(root, 'media', '3-fine.png'), base, deps(), root)).toBe(
      undefined,
    );
    expect(readdirSync(join(root, 'media'))).toEqual(['3-fine.png']);
  });
});
