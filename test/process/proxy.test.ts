// HTTP_PROXY / http_proxy route the CLI's requests through a proxy; NO_PROXY / no_proxy bypass it. undici's
// environment agent has no implicit loopback exception, so a proxy on 127.0.0.1 sees requests to 127.0.0.1
// unless NO_PROXY names it — which is what makes this testable without a second host. HTTPS goes through a
// CONNECT tunnel (below). Plain HTTP runs the command tree in-process (the proxy variables are read from the
// run's environment); HTTPS spawns the built CLI, since NODE_EXTRA_CA_CERTS is read when a process starts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import {
  connect as netConnect,
  createServer as createNetServer,
  type AddressInfo,
  type Socket,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import {
  SECRETS,
  expectNoSecrets,
  expectOneErrorLine,
  seededConfigDir,
  startFaultServer,
  type FaultServer,
} from '../helpers/fault-server.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

let server: FaultServer;
let proxy: TestProxy;
beforeAll(async () => {
  server = await startFaultServer();
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});
beforeEach(() => {
  server.reset();
  proxy.records.length = 0;
});

const list = (env: Record<string, string>, args: string[] = []) =>
  runInProcess(['--base-url', server.url, ...args, 'blog', 'list'], {
    env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_RETRY_BASE_MS: '1', ...env },
  });

describe('through the proxy', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('%s routes requests through it', async (name) => {
    const result = await list({ [name]: proxy.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('blog-1');
    expect(server.count('list')).toBe(1);
    expect(proxy.records).toEqual([{ kind: 'connect', target: `127.0.0.1:${server.port}` }]);
  });

  it('lowercase wins over uppercase, as with curl', async () => {
    const result = await list({ http_proxy: proxy.url, HTTP_PROXY: 'http://127.0.0.1:9' });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.records).toHaveLength(1);
  });

  it('an empty lowercase variable does not hide the uppercase one', async () => {
    const result = await list({ http_proxy: '', HTTP_PROXY: proxy.url });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.records).toHaveLength(1);
  });

  it('a POST goes through it once, with its Idempotency-Key', async () => {
    const result = await runInProcess(
      [
        '--base-url',
        server.url,
        'wp',
        'publish',
        '--url',
        'https://wp.example',
        '--username',
        'editor',
        '--title',
        'T',
        '--content',
        '<p>x</p>',
      ],
      { env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, HTTP_PROXY: proxy.url } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.records).toHaveLength(1);
    expect(server.count('publish')).toBe(1);
    expect(server.keys('publish')[0]).toBeTruthy();
  });

  it('HTTPS_PROXY alone leaves http:// URLs direct', async () => {
    const result = await list({ HTTPS_PROXY: proxy.url });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.records).toEqual([]);
    expect(server.count('list')).toBe(1);
  });
});

describe('bypassing the proxy', () => {
  it.each([
    ['NO_PROXY', '127.0.0.1'],
    ['no_proxy', '127.0.0.1'],
    ['NO_PROXY', 'localhost, 127.0.0.1'],
    ['NO_PROXY', '*'],
  ])('%s=%s', async (name, value) => {
    const result = await list({ HTTP_PROXY: proxy.url, [name]: value });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.records).toEqual([]);
    expect(server.count('list')).toBe(1);
  });

  it('NO_PROXY with the port of the service', async () => {
    const result = await list({ HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${server.port}` });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.records).toEqual([]);
  });

  it('NO_PROXY for another port still proxies', async () => {
    const result = await list({ HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${server.port + 1}` });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.records).toHaveLength(1);
  });
});

describe('the in-process sandbox', () => {
  it('--sandbox never goes through the proxy: it listens in this very process', async () => {
    const result = await runInProcess(['--sandbox', 'blog', 'list'], {
      env: {
        BLOGCTL_CONFIG_DIR: seededConfigDir(),
        HTTP_PROXY: 'http://127.0.0.1:9',
        http_proxy: 'http://127.0.0.1:9',
      },
    });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe('proxy failures', () => {
  it('a proxy that is down: exit 7, one line naming the proxy (without its credentials)', async () => {
    const env = { HTTP_PROXY: 'http://user:hunter2secret@127.0.0.1:9' };
    const result = await list(env, ['--retries', '1']);
    expect(result.code).toBe(7);
    expectOneErrorLine(result);
    // In the line itself: a script's log (stderr not a terminal) gets no hint lines.
    expect(result.stderr).toMatch(/through the proxy http:\/\/127\.0\.0\.1:9\/: connection refused/);
    const json = await list(env, ['--retries', '1', '--json']);
    expectOneErrorLine(json, { json: true });
    expect(JSON.parse(json.stderr.split('\n')[1]!).hints).toEqual([
      expect.stringMatching(/through the proxy http:\/\/127\.0\.0\.1:9\//),
    ]);
    for (const r of [result, json]) expect(r.stderr).not.toContain('hunter2secret');
    expect(server.count('list')).toBe(0);
  });

  it('a proxy that cannot reach the service: exit 7, one line', async () => {
    const result = await runInProcess(
      ['--base-url', 'http://127.0.0.1:9', '--retries', '0', 'blog', 'list'],
      {
        env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, HTTP_PROXY: proxy.url },
      },
    );
    expect(result.code).toBe(7);
    expectOneErrorLine(result);
    expect(result.stderr).toMatch(/502/);
    expectNoSecrets(result.stdout, result.stderr);
  });

  it('--debug through a proxy with credentials shows neither them nor the API key', async () => {
    const withAuth = proxy.url.replace('http://', 'http://puser:pxsecret99@');
    const result = await list({ HTTP_PROXY: withAuth }, ['--debug']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/public\/get-all-blogs → 200/);
    expect(result.stderr).not.toContain('pxsecret99');
    expect(result.stderr).not.toContain(Buffer.from('puser:pxsecret99').toString('base64'));
    expectNoSecrets(result.stdout, result.stderr);
  });
});

// HTTPS through HTTPS_PROXY: a tunnel (CONNECT) to the service, whose TLS the CLI checks end to end; the
// proxy sees only the CONNECT line, never the API key. The service's certificate is made for this run
// (openssl) and trusted through NODE_EXTRA_CA_CERTS.
describe.skipIf(!hasOpenssl())('HTTPS through HTTPS_PROXY', () => {
  let tls: { dir: string; cert: string; key: string };
  let service: HttpsServer;
  let servicePort: number;
  let tunnel: ConnectProxy;
  const served: { path: string; authorization: string | undefined }[] = [];
  const blogs = [{ _id: 'tls-1', title: 'Over TLS', content: '<p>x</p>' }];

  beforeAll(async () => {
    tls = selfSignedCertificate();
    service = createHttpsServer({ cert: tls.cert, key: tls.key }, (req, res) => {
      served.push({ path: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(blogs));
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    servicePort = (service.address() as AddressInfo).port;
    tunnel = await startConnectProxy();
  });
  afterAll(async () => {
    await tunnel?.close();
    await new Promise((r) => service?.close(r));
    if (tls) rmSync(tls.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    served.length = 0;
    tunnel.heads.length = 0;
  });

  const listOverTls = (env: Record<string, string>) =>
    runCli(['--base-url', `https://127.0.0.1:${servicePort}`, 'blog', 'list', '--json'], {
      env: {
        BLOGCTL_CONFIG_DIR: seededConfigDir(),
        ...SECRETS,
        NODE_EXTRA_CA_CERTS: join(tls.dir, 'cert.pem'),
        ...env,
      },
    });

  it.each(['HTTPS_PROXY', 'https_proxy'])(
    '%s: one CONNECT to the service, and the key only inside the tunnel',
    async (name) => {
      const result = await listOverTls({ [name]: tunnel.url });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(blogs);
      expect(tunnel.heads).toHaveLength(1);
      const [line, ...headers] = tunnel.heads[0]!.split('\r\n');
      expect(line).toBe(`CONNECT 127.0.0.1:${servicePort} HTTP/1.1`);
      expect(headers.join('\n')).not.toMatch(/authorization/i);
      expect(tunnel.heads[0]).not.toContain(SECRETS.BLOGCTL_API_KEY);
      expect(served).toEqual([
        { path: '/api/v1/public/get-all-blogs', authorization: `Bearer ${SECRETS.BLOGCTL_API_KEY}` },
      ]);
    },
  );

  it('NO_PROXY naming the host: straight to the service, no CONNECT', async () => {
    const result = await listOverTls({ HTTPS_PROXY: tunnel.url, NO_PROXY: '127.0.0.1' });
    expect(result.code, result.stderr).toBe(0);
    expect(tunnel.heads).toEqual([]);
    expect(served).toHaveLength(1);
  });

  it('HTTP_PROXY alone also carries https URLs (as undici documents)', async () => {
    const result = await listOverTls({ HTTP_PROXY: tunnel.url });
    expect(result.code, result.stderr).toBe(0);
    expect(tunnel.heads.map((h) => h.split('\r\n')[0])).toEqual([
      `CONNECT 127.0.0.1:${servicePort} HTTP/1.1`,
    ]);
  });

  it('a certificate the CLI does not trust is refused through the tunnel too: exit 7, no key sent', async () => {
    const result = await listOverTls({ HTTPS_PROXY: tunnel.url, NODE_EXTRA_CA_CERTS: '' });
    expect(result.code).toBe(7);
    expectOneErrorLine(result, { json: true });
    expect(result.stderr).toMatch(
      /signed by an authority Node does not know \(add it with NODE_EXTRA_CA_CERTS=/,
    );
    expect(tunnel.heads).toHaveLength(1);
    expect(served).toEqual([]);
  });
});

function hasOpenssl(): boolean {
  return spawnSync('openssl', ['version'], { encoding: 'utf8' }).status === 0;
}

function selfSignedCertificate(): { dir: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-tls-'));
  const result = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`openssl failed: ${result.stderr}`);
  return {
    dir,
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
  };
}

interface ConnectProxy {
  url: string;
  /** The head of each CONNECT request as received: request line and headers, CRLF-separated. */
  heads: string[];
  close(): Promise<void>;
}

/** A CONNECT-only proxy on raw sockets, so the test sees the request line exactly as the CLI wrote it. */
async function startConnectProxy(): Promise<ConnectProxy> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      client.off('data', onData);
      const head = buffered.subarray(0, end).toString('latin1');
      heads.push(head);
      const match = /^CONNECT ([^\s:]+):(\d+) HTTP\/1\.[01]$/.exec(head.split('\r\n')[0]!);
      if (!match) return void client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
      const upstream = netConnect(Number(match[2]), match[1]!, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = buffered.subarray(end + 4);
        if (rest.length) upstream.write(rest);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
    };
    client.on('data', onData);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heads,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
