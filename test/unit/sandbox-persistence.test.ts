// The data file: survives restarts, holds no secret in plaintext, refuses to be overwritten when damaged,
// and every acknowledged change is on disk.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { createCipher, resolveCipher, type SealedSecret } from '../../src/sandbox/crypto.js';
import { SaveQueue } from '../../src/sandbox/persist.js';
import { readStoreFiles } from '../../src/sandbox/store-read.js';
import { IDEMPOTENCY_TTL_MS, SandboxStore, tenantId } from '../../src/sandbox/store.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { blogParamsFor, startTestSandbox, TEST_KEY, type TestSandbox } from '../helpers/sandbox.js';

const dirs: string[] = [];
const running: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDataFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-sandbox-'));
  dirs.push(dir);
  return join(dir, 'state', 'data.json');
}

async function start(
  dataFile: string,
  options: Parameters<typeof startTestSandbox>[0] = {},
): Promise<TestSandbox> {
  const s = await startTestSandbox({ dataFile, ...options });
  running.push(s);
  return s;
}

async function stop(s: TestSandbox): Promise<void> {
  running.splice(running.indexOf(s), 1);
  await s.close();
}

/** The store as its files hold it (the data file and the log beside it). */
const readData = (file: string) => readStoreFiles(file);
const password = 'abcd EFGH ijkl MNOP qrst UVWX';

describe('data file', () => {
  it('keeps blogs, sites and idempotency records across a restart', async () => {
    const file = tempDataFile();
    let s = await start(file);
    const kept = await s.api().createBlog(blogParamsFor(), { idempotencyKey: 'once' });
    const gone = await s.api().createBlog(blogParamsFor());
    await s.api().deleteBlog(gone._id);
    await s.api().updateWordPressSettings({ label: 'Main', credentials: { password } });
    await stop(s);

    s = await start(file);
    expect((await s.api().listBlogs()).map((b) => b._id)).toEqual([kept._id]);
    expect(await s.api().createBlog(blogParamsFor(), { idempotencyKey: 'once' })).toEqual(kept);
    const patched = await s.api().updateWordPressSettings({ autoPublish: true });
    expect(patched.integration).toMatchObject({
      id: 'site-1',
      label: 'Main',
      autoPublish: true,
      credentials: { hasPassword: true },
    });
  });

  it('is written 0600 and holds neither the password, the provider key nor the API key in plaintext', async () => {
    const file = tempDataFile();
    const s = await start(file);
    const provider = 'sk-provider-never-store-me-42';
    await s.api().createBlog(blogParamsFor({ externalProviderApiKey: provider }));
    await s
      .api()
      .updateWordPressSettings([{ id: 'a', credentials: { websiteUrl: 'https://a.example', password } }]);
    // The snapshot and the log of changes since.
    const text = readFileSync(file, 'utf8') + readFileSync(`${file}.log`, 'utf8');
    for (const secret of [
      provider,
      password,
      password.replace(/ /g, ''),
      TEST_KEY,
      'externalProviderApiKey',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.log`).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.key`).mode & 0o777).toBe(0o600);
    expect(s.logs.join('\n')).not.toContain(provider);

    // The sealed password opens with the key file's key, and only in its own namespace.
    const { tenants } = await readData(file);
    const sealed = tenants[tenantId(TEST_KEY)]!.sites[0]!.credentials!.password as SealedSecret;
    const cipher = resolveCipher({ dataFile: file, env: {} });
    expect(cipher.open(sealed, tenantId(TEST_KEY))).toBe(password);
    expect(() => cipher.open(sealed, tenantId('another key'))).toThrow();
  });

  it('uses the given secret instead of a key file', async () => {
    const file = tempDataFile();
    let s = await start(file, { secret: 'correct horse battery staple' });
    await s.api().updateWordPressSettings({ credentials: { password } });
    await stop(s);
    expect(existsSync(`${file}.key`)).toBe(false);
    // Another secret cannot read those passwords: refuse rather than mix keys in one file.
    await expect(startSandbox({ port: 0, dataFile: file, secret: 'another secret' })).rejects.toThrow(
      /another encryption key/,
    );
    s = await start(file, { secret: 'correct horse battery staple' });
    expect((await s.api().listBlogs()).length).toBe(0);
  });

  it('refuses to start on a damaged file and leaves it untouched', async () => {
    const file = tempDataFile();
    const s = await start(file);
    await s.api().createBlog(blogParamsFor());
    await stop(s);
    for (const damaged of ['{"version":1,"tenants":{', '{"hello":"world"}']) {
      writeFileSync(file, damaged);
      const error = await startSandbox({ port: 0, dataFile: file }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(String((error as Error).message)).toMatch(/refusing to start so it is not overwritten/);
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    }
  });

  it('removes temporary files left by a killed sandbox, never others', async () => {
    const file = tempDataFile();
    await stop(await start(file));
    const dir = join(file, '..');
    writeFileSync(join(dir, '.data.json.999999999.deadbeef.tmp'), '{');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    await stop(await start(file));
    expect(readdirSync(dir).sort()).toEqual(['data.json.key', 'notes.txt']);
  });

  it('acknowledges every one of many concurrent changes only once it is on disk', async () => {
    const file = tempDataFile();
    const s = await start(file);
    const api = s.api();
    const blogs = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.createBlog(blogParamsFor({ topicKeywords: [`topic ${i}`] }))),
    );
    const sites = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.updateWordPressSettings({ id: `s${i}` })),
    );
    const onDisk = JSON.stringify(await readData(file));
    for (const b of blogs) expect(onDisk).toContain(b._id);
    expect(sites).toHaveLength(20);
    for (let i = 0; i < 20; i++) expect(onDisk).toContain(`"id":"s${i}"`);
  });

  it('answers 503 when the change cannot be saved, and keeps nothing of it', async () => {
    const file = tempDataFile();
    const s = await start(file);
    const kept = await s.api().createBlog(blogParamsFor());
    rmSync(join(file, '..'), { recursive: true });
    writeFileSync(join(file, '..'), 'a file where the directory was');
    const res = await s.fetch('/api/v1/public/integrations/wordpress/update-settings', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"settings":{"label":"x"}}',
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      message:
        'the sandbox could not save the change (ENOTDIR); nothing was changed — send the request again',
    });
    expect(s.logs.some((l) => l.startsWith('could not save the data file: ENOTDIR'))).toBe(true);
    const create = await s.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blogParams: blogParamsFor() }),
    });
    expect(create.status).toBe(503);
    expect((await s.api().listBlogs()).map((b) => b._id)).toEqual([kept._id]);
  });

  it('writes nothing in memory-only mode', async () => {
    const s = await startTestSandbox();
    running.push(s);
    await s.api().createBlog(blogParamsFor());
    expect(await s.api().listBlogs()).toHaveLength(1);
  });
});

describe('store internals', () => {
  it('forgets idempotency records after 24 h', async () => {
    let now = 1_000_000;
    const store = await SandboxStore.open({ cipher: createCipher(Buffer.alloc(32, 1)), now: () => now });
    const tenant = store.tenant('k');
    store.remember(tenant, 'a', 201, { ok: 1 });
    await store.commit();
    now += IDEMPOTENCY_TTL_MS - 1;
    expect(store.replay(tenant, 'a')).toEqual({ at: 1_000_000, status: 201, body: { ok: 1 } });
    now += 1;
    expect(store.replay(tenant, 'a')).toBeUndefined();
    store.remember(tenant, 'b', 200, {});
    await store.commit();
    expect([...tenant.idempotency.keys()]).toEqual(['b']);
  });

  it('groups saves: callers during a save share the next one, which starts after their change', async () => {
    const started: number[] = [];
    let release: () => void = () => undefined;
    let version = 0;
    const queue = new SaveQueue(async () => {
      started.push(version);
      await new Promise<void>((resolve) => (release = resolve));
    });
    version = 1;
    const first = queue.flush();
    await Promise.resolve();
    await Promise.resolve();
    version = 2;
    const second = queue.flush();
    version = 3;
    const third = queue.flush();
    expect(third).toBe(second);
    release();
    await first;
    await new Promise((r) => setTimeout(r, 0));
    release();
    await Promise.all([second, third]);
    expect(started).toEqual([1, 3]);
  });
});
