// A sandbox listening beyond loopback: it says where it really listens and warns, and its publish relay
// refuses loopback, link-local and private addresses (checked on every address a name resolves to, and on
// addresses in the URL) unless allowed. Servers here listen on 127.0.0.1 only: the relay's refusal is turned
// on with allowPrivateRelay: false, the switch listening beyond loopback flips.
import { describe, expect, it, afterEach } from 'vitest';
import { publicOnlyLookup } from '../../src/http/address-guard.js';
import { isLoopbackAddress, isPrivateAddress } from '../../src/lib/ip-addresses.js';
import { listeningLines } from '../../src/sandbox/cli-entry.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('address checks', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.5',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::7f00:1',
    '::127.0.0.1',
    '::a00:5',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.5',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::a9fe:a9fe',
    '2002:7f00:1::',
    '2002:a00:5::1',
    '2002:a9fe:a9fe::',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  ])('%s is refused', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it('knows loopback from the rest', () => {
    for (const a of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['0.0.0.0', '::', '192.168.1.5', 'fe80::1', 'localhost'])
      expect(isLoopbackAddress(a)).toBe(false);
  });

  it('the lookup refuses a name that resolves to a private address, and says which name', async () => {
    const refusedHosts: string[] = [];
    const lookup = publicOnlyLookup({ onRefused: (host) => refusedHosts.push(host) });
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', { all: true }, (e) => resolve(e)),
    );
    expect(error?.code).toBe('EPRIVATEADDRESS');
    expect(refusedHosts).toEqual(['localhost']);
  });
});

describe('where it listens', () => {
  it('on loopback: one line, as before', () => {
    expect(
      listeningLines(
        { url: 'http://127.0.0.1:4010', address: '127.0.0.1', exposed: false, port: 4010 },
        false,
      ),
    ).toEqual(['blogctl sandbox listening on http://127.0.0.1:4010']);
  });

  it('on 0.0.0.0: that address, not 127.0.0.1, and a warning that other machines can reach it', () => {
    const lines = listeningLines(
      { url: 'http://127.0.0.1:4010', address: '0.0.0.0', exposed: true, port: 4010 },
      false,
    );
    expect(lines).toEqual([
      'blogctl sandbox listening on http://0.0.0.0:4010',
      'warning: 0.0.0.0 is every address of this machine: other machines that can reach 0.0.0.0 can reach the sandbox (each request still needs an API key); the publish relay refuses loopback, link-local and private addresses (--allow-private-relay allows them)',
    ]);
  });

  it('on :: or a LAN address, with --allow-private-relay', () => {
    expect(listeningLines({ url: 'http://[::1]:80', address: '::', exposed: true, port: 80 }, true)).toEqual([
      'blogctl sandbox listening on http://[::]:80',
      'warning: :: is every address of this machine: other machines that can reach :: can reach the sandbox (each request still needs an API key); with --allow-private-relay, the publish relay sends requests to any address, private ones included',
    ]);
    expect(
      listeningLines(
        { url: 'http://192.168.1.5:4010', address: '192.168.1.5', exposed: true, port: 4010 },
        false,
      )[1],
    ).toMatch(/^warning: other machines that can reach 192\.168\.1\.5 can reach the sandbox/);
  });

  it('a running sandbox reports the address it bound', async () => {
    const s = await startTestSandbox({ host: 'localhost' });
    closers.push(() => s.close());
    expect(isLoopbackAddress(s.address)).toBe(true);
    expect(s.exposed).toBe(false);
    expect(s.url).toBe(`http://${s.address.includes(':') ? `[${s.address}]` : s.address}:${s.port}`);
  });
});

describe('the publish relay, refusing private addresses', () => {
  async function setUp(allowPrivateRelay?: boolean): Promise<{ wp: FakeWordPress; sandbox: TestSandbox }> {
    const wp = await startFakeWordPress();
    const sandbox = await startTestSandbox({
      ...(allowPrivateRelay !== undefined && { allowPrivateRelay }),
      wordpressTimeoutMs: 5_000,
    });
    closers.push(
      () => wp.close(),
      () => sandbox.close(),
    );
    return { wp, sandbox };
  }

  const publish = (sandbox: TestSandbox, websiteUrl: string, password: string) =>
    sandbox.fetch('/api/v1/public/integrations/wordpress/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        credentials: { websiteUrl, username: 'admin', password },
        content: { title: 'T', content: 'c', status: 'draft' },
      }),
    });

  it('answers 400 naming the field and the flag, and connects to nothing', async () => {
    const { wp, sandbox } = await setUp(false);
    const port = new URL(wp.url).port;
    for (const [url, host] of [
      [wp.url, '127.0.0.1'],
      [`http://localhost:${port}`, 'localhost'],
      [`http://[::1]:${port}`, '::1'],
      [`http://[::ffff:127.0.0.1]:${port}`, '::ffff:7f00:1'],
      [`http://2130706433:${port}`, '127.0.0.1'],
      ['http://10.0.0.5', '10.0.0.5'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
      ['https://[fe80::1]', 'fe80::1'],
      [`http://[::127.0.0.1]:${port}`, '::7f00:1'],
      [`http://[64:ff9b::7f00:1]:${port}`, '64:ff9b::7f00:1'],
      [`http://[2002:7f00:1::]:${port}`, '2002:7f00:1::'],
    ] as const) {
      const res = await publish(sandbox, url, wp.password);
      expect(res.status, url).toBe(400);
      const body = (await res.json()) as { message: string; issues: { path: string }[] };
      expect(body.message).toBe(
        `invalid request: credentials.websiteUrl: ${host} is a loopback, link-local or private address, or resolves to one; the sandbox listens beyond loopback and relays only to public addresses (start it with --allow-private-relay to allow them)`,
      );
      expect(body.issues[0]!.path).toBe('credentials.websiteUrl');
    }
    expect(wp.requests).toEqual([]);
  });

  it('on loopback by default, and when allowed, relays to 127.0.0.1 as before', async () => {
    for (const allow of [undefined, true]) {
      const { wp, sandbox } = await setUp(allow);
      const res = await publish(sandbox, wp.url, wp.password);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ isPublished: true });
      expect(wp.posts).toHaveLength(1);
    }
  });
});
