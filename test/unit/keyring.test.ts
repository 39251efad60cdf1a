// The keyring backend for secrets: the store with an injected fake keyring, the fallback to the 0600 file
// (warned once, at most one attempt per run), and the real child-process backend with fake modules that
// answer, fail, or hang like a D-Bus that never replies.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  childProcessBackend,
  KEYRING_TIMEOUT_MS,
  resetKeyringState,
  type KeyringBackend,
  type KeyringOp,
} from '../../src/config/keyring.js';
import { resolveSettings } from '../../src/config/resolve.js';
import { ConfigStore } from '../../src/config/store.js';

const API_KEY = 'sk_keyring_Vb4Nm8Qw2Ee6';
const SITE_PASSWORD = 'kyrg PASS 1234 abcd EFGH 5678';
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'blogctl-keyring-'));

class FakeKeyring implements KeyringBackend {
  readonly entries = new Map<string, string>();
  readonly calls: KeyringOp[][] = [];
  fail: string | undefined;
  run(service: string, ops: KeyringOp[]): (string | null)[] {
    this.calls.push(ops);
    if (this.fail) throw new Error(this.fail);
    return ops.map((op) => {
      const key = `${service}|${op.account}`;
      if (op.op === 'get') return this.entries.get(key) ?? null;
      if (op.op === 'set') this.entries.set(key, op.secret);
      else this.entries.delete(key);
      return null;
    });
  }
}

function storeWith(dir: string, keyring: KeyringBackend, env: NodeJS.ProcessEnv = { BLOGCTL_KEYRING: '1' }) {
  const warnings: string[] = [];
  const store = new ConfigStore(dir, { env, keyring, warn: (m) => warnings.push(m) });
  return { store, warnings };
}

const fileText = (dir: string): string => readFileSync(join(dir, 'credentials.json'), 'utf8');

beforeEach(() => resetKeyringState());

describe('secrets in the keyring (fake backend)', () => {
  it('BLOGCTL_KEYRING=1: secrets go to the keyring, credentials.json keeps only their names', async () => {
    const dir = tempDir();
    const fake = new FakeKeyring();
    const { store, warnings } = storeWith(dir, fake);
    await store.updateCredentials((c) => {
      c.apiKeys = { default: API_KEY };
      c.sitePasswords = { blog: SITE_PASSWORD };
    });
    const stored = JSON.parse(fileText(dir));
    expect(fileText(dir)).not.toContain(API_KEY);
    expect(fileText(dir)).not.toContain(SITE_PASSWORD.replace(/ /g, ''));
    expect(stored).toEqual({
      apiKeys: {},
      sitePasswords: {},
      keyring: { service: `blogctl:${dir}`, apiKeys: ['default'], sitePasswords: ['blog'] },
    });
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect([...fake.entries.values()].sort()).toEqual([SITE_PASSWORD, API_KEY].sort());

    // A fresh process reads them back through the index, even without BLOGCTL_KEYRING.
    resetKeyringState();
    const reader = storeWith(dir, fake, {}).store;
    expect(reader.readCredentials()).toEqual({
      apiKeys: { default: API_KEY },
      sitePasswords: { blog: SITE_PASSWORD },
    });
    // One batch for all of them, and read once per process.
    const callsBefore = fake.calls.length;
    reader.readCredentials();
    expect(fake.calls.length).toBe(callsBefore);
    expect(warnings).toEqual([]);
  });

  it('environment variables still win over a key in the keyring', async () => {
    const dir = tempDir();
    const fake = new FakeKeyring();
    const { store } = storeWith(dir, fake);
    await store.updateCredentials((c) => void (c.apiKeys = { default: API_KEY }));
    const fromKeyring = resolveSettings({}, {}, {}, store.readCredentials());
    expect(fromKeyring).toMatchObject({ apiKey: API_KEY, apiKeySource: 'profile' });
    const fromEnv = resolveSettings({}, { BLOGCTL_API_KEY: 'env-key-123' }, {}, store.readCredentials());
    expect(fromEnv).toMatchObject({ apiKey: 'env-key-123', apiKeySource: 'env' });
  });

  it('removing a secret deletes it from the keyring; unchanged ones are not rewritten', async () => {
    const dir = tempDir();
    const fake = new FakeKeyring();
    const { store } = storeWith(dir, fake);
    await store.updateCredentials((c) => {
      c.apiKeys = { default: API_KEY, work: 'sk_work_123456789' };
    });
    fake.calls.length = 0;
    await store.updateCredentials((c) => void delete c.apiKeys!['work']);
    expect(fake.calls.flat().filter((op) => op.op !== 'get')).toEqual([
      { op: 'delete', account: 'apiKey:work' },
    ]);
    expect(JSON.parse(fileText(dir)).keyring.apiKeys).toEqual(['default']);
    await store.updateCredentials((c) => void delete c.apiKeys!['default']);
    expect(JSON.parse(fileText(dir))).toEqual({ apiKeys: {} }); // no index left
    expect(fake.entries.size).toBe(0);
  });

  it('without BLOGCTL_KEYRING, a changed secret moves back to the file and leaves the keyring', async () => {
    const dir = tempDir();
    const fake = new FakeKeyring();
    await storeWith(dir, fake).store.updateCredentials((c) => void (c.apiKeys = { default: API_KEY }));
    resetKeyringState();
    const { store } = storeWith(dir, fake, {});
    await store.updateCredentials((c) => void (c.apiKeys = { default: 'sk_new_987654321' }));
    expect(JSON.parse(fileText(dir))).toEqual({ apiKeys: { default: 'sk_new_987654321' } });
    expect(fake.entries.size).toBe(0);
  });

  it('with BLOGCTL_KEYRING, secrets still in the file move to the keyring on the next write', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ apiKeys: { default: API_KEY } }), {
      mode: 0o600,
    });
    const fake = new FakeKeyring();
    const { store } = storeWith(dir, fake);
    await store.updateCredentials((c) => void (c.sitePasswords = { blog: SITE_PASSWORD }));
    expect(fileText(dir)).not.toContain(API_KEY);
    expect(store.readCredentials()).toEqual({
      apiKeys: { default: API_KEY },
      sitePasswords: { blog: SITE_PASSWORD },
    });
  });

  it('the default file backend never calls the keyring', async () => {
    const dir = tempDir();
    const fake = new FakeKeyring();
    const { store } = storeWith(dir, fake, {});
    await store.updateCredentials((c) => void (c.apiKeys = { default: API_KEY }));
    expect(store.readCredentials()).toEqual({ apiKeys: { default: API_KEY } });
    expect(fake.calls).toEqual([]);
  });
});

describe('falling back to the 0600 file', () => {
  it('a failing keyring: the secret is written to the file, one warning, one attempt per run', async () => {
    const dir = tempDir();
    const fake = new FakeKeyring();
    fake.fail = 'Platform failure: DBus error: no Secret Service';
    const { store, warnings } = storeWith(dir, fake);
    await store.updateCredentials((c) => void (c.apiKeys = { default: API_KEY }));
    await store.updateCredentials((c) => void (c.sitePasswords = { blog: SITE_PASSWORD }));
    expect(JSON.parse(fileText(dir))).toEqual({
      apiKeys: { default: API_KEY },
      sitePasswords: { blog: SITE_PASSWORD },
    });
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(fake.calls).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^the OS keyring is not available \(Platform failure: DBus error/);
    expect(warnings[0]).toContain('credentials.json (mode 0600)');
    expect(warnings[0]).not.toContain(API_KEY);
  });

  it('an unreadable keyring: file secrets still work, keyring ones are missing, one warning', async () => {
    const dir = tempDir();
    const fake = new FakeKeyring();
    await storeWith(dir, fake).store.updateCredentials((c) => void (c.apiKeys = { default: API_KEY }));
    const text = JSON.parse(fileText(dir));
    text.sitePasswords = { blog: SITE_PASSWORD };
    writeFileSync(join(dir, 'credentials.json'), JSON.stringify(text));

    resetKeyringState();
    fake.fail = 'no answer within 3 s';
    const { store, warnings } = storeWith(dir, fake, {});
    expect(store.readCredentials()).toEqual({ apiKeys: {}, sitePasswords: { blog: SITE_PASSWORD } });
    store.readCredentials();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cannot read a secret from the OS keyring \(no answer within 3 s\)/);
    expect(warnings[0]).toMatch(/BLOGCTL_API_KEY/);
    // Unreadable is not deleted: a later write leaves the index alone.
    await store.updateCredentials((c) => void (c.sitePasswords = {}));
    expect(JSON.parse(fileText(dir)).keyring.apiKeys).toEqual(['default']);
  });
});

describe('childProcessBackend', () => {
  function fakeModule(body: string): string {
    const path = join(tempDir(), 'fake-keyring.cjs');
    writeFileSync(path, body);
    return path;
  }

  it('runs a batch in a child process through the module given (secrets on stdin, not argv)', () => {
    const store = join(tempDir(), 'store.json');
    const modulePath = fakeModule(`
      const fs = require('node:fs');
      const file = ${JSON.stringify(store)};
      const load = () => { try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return {}; } };
      exports.Entry = class {
        constructor(service, account, options) { this.key = service + '|' + account; this.options = options; }
        getPassword() { return load()[this.key] ?? null; }
        setPassword(v) { const d = load(); d[this.key] = v; d.argv = process.argv; d.options = this.options; fs.writeFileSync(file, JSON.stringify(d)); }
        deletePassword() { const d = load(); const had = this.key in d; delete d[this.key]; fs.writeFileSync(file, JSON.stringify(d)); return had; }
      };`);
    const backend = childProcessBackend({ modulePath });
    expect(backend.run('svc', [{ op: 'set', account: 'apiKey:default', secret: API_KEY }])).toEqual([null]);
    const written = JSON.parse(readFileSync(store, 'utf8'));
    expect(JSON.stringify(written.argv)).not.toContain(API_KEY);
    // Pinned to the Secret Service on Linux: the kernel keyring would lose the key at logout.
    if (process.platform === 'linux') expect(written.options).toEqual({ linux: { store: 'secret-service' } });
    expect(
      backend.run('svc', [
        { op: 'get', account: 'apiKey:default' },
        { op: 'get', account: 'apiKey:other' },
        { op: 'delete', account: 'apiKey:default' },
        { op: 'get', account: 'apiKey:default' },
      ]),
    ).toEqual([API_KEY, null, null, null]);
  });

  it('reports the library error in one line', () => {
    const modulePath = fakeModule(`
      exports.Entry = class { constructor() { throw new Error('Platform failure: DBus error: org.freedesktop.secrets was not provided\\n  at native'); } };`);
    expect(() => childProcessBackend({ modulePath }).run('svc', [{ op: 'get', account: 'a' }])).toThrow(
      /^Platform failure: DBus error: org\.freedesktop\.secrets was not provided$/,
    );
  });

  it('a missing module is an error, not a crash', () => {
    expect(() =>
      childProcessBackend({ modulePath: join(tempDir(), 'nope.cjs') }).run('svc', [
        { op: 'get', account: 'a' },
      ]),
    ).toThrow(/Cannot find module/);
  });

  it('a keyring call that never returns is cut off at 3 s', () => {
    // Blocks the child's only thread in a synchronous call, like a D-Bus request nobody answers.
    const modulePath = fakeModule(`
      exports.Entry = class { getPassword() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); } };`);
    const started = performance.now();
    expect(() => childProcessBackend({ modulePath }).run('svc', [{ op: 'get', account: 'a' }])).toThrow(
      'no answer within 3 s',
    );
    // Cut off by the timer ("no answer within 3 s"), not before it; the loose bound only catches a wait far
    // past it on a loaded machine.
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(KEYRING_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(KEYRING_TIMEOUT_MS * 4);
  });

  it('the store survives a hanging keyring: falls back within the time limit', async () => {
    // Each call of the keyring that hangs leaves a mark first: one mark is one wait.
    const calls = join(tempDir(), 'calls');
    const modulePath = fakeModule(`
      exports.Entry = class { setPassword() {
        require('node:fs').appendFileSync(${JSON.stringify(calls)}, 'x');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      } };`);
    const dir = tempDir();
    const { store, warnings } = storeWith(dir, childProcessBackend({ modulePath }));
    const started = performance.now();
    await store.updateCredentials((c) => void (c.apiKeys = { default: API_KEY }));
    await store.updateCredentials((c) => void (c.apiKeys = { ...c.apiKeys, work: 'sk_work_123456789' }));
    // One wait, not two: the keyring that hung is not asked again. (A child the timer ends before it reaches
    // the call leaves no mark, so at most one.)
    expect(existsSync(calls) ? readFileSync(calls, 'utf8') : '').toMatch(/^x?$/);
    expect(performance.now() - started).toBeLessThan(KEYRING_TIMEOUT_MS * 4);
    expect(JSON.parse(fileText(dir))).toEqual({ apiKeys: { default: API_KEY, work: 'sk_work_123456789' } });
    expect(warnings).toEqual([
      `the OS keyring is not available (no answer within 3 s); secrets are stored in ${join(dir, 'credentials.json')} (mode 0600)`,
    ]);
  });
});
