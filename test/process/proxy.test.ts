// HTTP_PROXY / http_proxy route the CLI's requests through a proxy; NO_PROXY / no_proxy bypass it. undici's
// environment agent has no implicit loopback exception, so a proxy on 127.0.0.1 sees requests to 127.0.0.1
// unless NO_PROXY names it — which is what makes this testable without a second host.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
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
  runCli(['--base-url', server.url, ...args, 'blog', 'list'], {
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
    const result = await runCli(
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
    const result = await runCli(['--sandbox', 'blog', 'list'], {
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
  it('a proxy that is down: exit 7, one line, the proxy named (in the --json error), no credentials', async () => {
    const env = { HTTP_PROXY: 'http://user:hunter2secret@127.0.0.1:9' };
    const result = await list(env, ['--retries', '1']);
    expect(result.code).toBe(7);
    expectOneErrorLine(result);
    expect(result.stderr).toMatch(/connection refused/);
    // The proxy is a hint: for a script (stderr not a terminal) it is in the --json error object.
    const json = await list(env, ['--retries', '1', '--json']);
    expectOneErrorLine(json, { json: true });
    expect(JSON.parse(json.stderr.split('\n')[1]!).hints).toEqual([
      expect.stringMatching(/through the proxy http:\/\/127\.0\.0\.1:9\//),
    ]);
    for (const r of [result, json]) expect(r.stderr).not.toContain('hunter2secret');
    expect(server.count('list')).toBe(0);
  });

  it('a proxy that cannot reach the service: exit 7, one line', async () => {
    const result = await runCli(['--base-url', 'http://127.0.0.1:9', '--retries', '0', 'blog', 'list'], {
      env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, HTTP_PROXY: proxy.url },
    });
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
