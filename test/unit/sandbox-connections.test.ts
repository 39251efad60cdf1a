// Connections against the real server: a request cut off inside its body frees its connection (no socket
// left in CLOSE-WAIT), slow clients are held to a number per address and in all, a client that takes too
// long over its headers is answered 408 and closed, and a well-behaved request is served while many slow
// connections are open. Counts are bounded; the only waits are for a condition.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

const running: TestSandbox[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const s = await startTestSandbox(options);
  running.push(s);
  return s;
}

/** TCP connections this process holds (the sandbox's side of each connection included). */
const tcpSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

const until = (condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> =>
  waitFor(condition, what, { timeoutMs });

/** A connection from `from` (a loopback address) that has sent `text`, and what it has received since. */
async function open(
  url: string,
  text: string,
  from = '127.0.0.1',
): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  const { port } = new URL(url);
  let received = '';
  let closed = false;
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: from });
  sockets.push(socket);
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(text);
  return { socket, received: () => received, closed: () => closed };
}

describe('a request cut off inside its body', () => {
  it('frees its connection: 40 of them leave no socket behind, and the next request is served', async () => {
    const s = await start();
    const before = tcpSockets();
    const head = [
      'POST /api/v1/public/create-blog HTTP/1.1',
      'Host: sandbox',
      `Authorization: Bearer ${s.apiKey}`,
      'Content-Type: application/json',
      'Content-Length: 1000',
      // The server answers 100 Continue once its handler has the request: only then is the body sent.
      'Expect: 100-continue',
      '',
      '',
    ].join('\r\n');
    for (let i = 0; i < 40; i++) {
      const c = await open(s.url, head);
      await until(() => c.received().includes('100 Continue'), 'the server to take the request');
      c.socket.write('{"blogParams":{');
      if (i % 2) c.socket.end();
      else c.socket.destroy();
      await until(c.closed, 'the client socket to close');
    }
    await until(() => tcpSockets() === before, 'every server socket of those requests to close');
    expect(s.connections()).toBe(0);
    expect((await s.api().createBlog(blogParamsFor())).title).toBeTruthy();
  });
});

describe('slow clients', () => {
  const partialHead = 'POST /api/v1/public/create-blog HTTP/1.1\r\nHost: sandbox\r\n';

  it('are held per address and in all, and a prompt request is served while 30 of them are open', async () => {
    const s = await start({ connectionLimits: { total: 40, perAddress: 16 } });
    const slow = async (from: string, n: number) => {
      const opened = [];
      for (let i = 0; i < n; i++) opened.push(await open(s.url, partialHead, from));
      return opened;
    };
    const first = await slow('127.0.0.2', 16);
    await slow('127.0.0.3', 16);
    await until(() => s.connections() === 32, '32 connections');
    // Past the limit of one address: its longest-waiting connections make room, no other address's.
    const more = await slow('127.0.0.2', 6);
    await until(() => first.slice(0, 6).every((c) => c.closed()), 'the six oldest of 127.0.0.2 to close');
    expect(first.slice(6).some((c) => c.closed())).toBe(false);
    expect(more.some((c) => c.closed())).toBe(false);
    expect(s.connections()).toBe(32);
    // Past the limit in all: the longest waiting anywhere make room.
    await slow('127.0.0.4', 10);
    await until(() => s.connections() === 40, '40 connections');
    await slow('127.0.0.5', 2);
    await until(() => first.slice(6, 8).every((c) => c.closed()), 'the two oldest left to close');
    expect(s.connections()).toBe(40);

    // A well-behaved request from another address is served while they are open.
    const blog = await s.api().createBlog(blogParamsFor());
    expect(blog.title).toBeTruthy();
    expect(sockets.filter((c) => !c.destroyed && c.readyState === 'open').length).toBeGreaterThanOrEqual(30);
  });

  it('that take longer than the headers timeout get a 408 and are closed', async () => {
    const s = await start({ headersTimeoutMs: 300 });
    const c = await open(s.url, partialHead);
    await until(c.closed, 'the slow connection to close');
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.received()).toContain('{"message":"the request was not received in time"}');
    expect(s.connections()).toBe(0);
  });
});
