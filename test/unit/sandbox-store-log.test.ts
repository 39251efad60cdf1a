// The store's log beside its snapshot: a write appends one line whatever the store's size, a torn last line
// or a compaction cut short loses and doubles nothing, the first data files still load, and no single record
// (one nested too deep to write as JSON) can stop the store from saving or loading.
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCipher } from '../../src/sandbox/crypto.js';
import { generateBlog, type GeneratedBlog } from '../../src/sandbox/generator.js';
import { HttpProblem } from '../../src/sandbox/http-io.js';
import { encodeChange, logHeaderLine, snapshotLines } from '../../src/sandbox/store-format.js';
import { readStoreFiles } from '../../src/sandbox/store-read.js';
import { SandboxStore, tenantId } from '../../src/sandbox/store.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const dirs: string[] = [];
const running: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDataFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-store-log-'));
  dirs.push(dir);
  return join(dir, 'data.json');
}

const cipher = createCipher(Buffer.alloc(32, 7));
const KEY = 'store-log-key';
let counter = 0;
function newBlog(extra: Partial<GeneratedBlog> = {}): GeneratedBlog {
  const { externalProviderApiKey: _, ...params } = blogParamsFor({ topicKeywords: [`topic ${counter}`] });
  const id = (0x6a000000 + counter++).toString(16) + randomBytes(8).toString('hex');
  return { ...generateBlog(params, id, new Date(0).toISOString()), ...extra };
}

/** An object nested `depth` levels deep: `{"a":{"a":…{}}}`. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

const ids = (blogs: readonly { _id: string }[]) => blogs.map((b) => b._id);
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A data file in the first format (version 1: the whole store in one file, rewritten on every save). */
function writeVersion1(file: string, blogs: GeneratedBlog[], extra: Record<string, unknown> = {}): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const tenant = { blogs, sites: [], idempotency: {}, ...extra };
  writeFileSync(
    file,
    `${JSON.stringify({ version: 1, keyCheck: cipher.keyCheck, tenants: { [tenantId(KEY)]: tenant } })}\n`,
    { mode: 0o600 },
  );
}

describe('the log beside the snapshot', () => {
  it('a write to a large store appends one line and leaves the snapshot alone', async () => {
    const file = tempDataFile();
    const seed = Array.from({ length: 1500 }, () => newBlog());
    writeVersion1(file, seed);
    const store = await SandboxStore.open({ dataFile: file, cipher });
    const tenant = store.tenant(KEY);
    // The first save turns the version 1 file into a snapshot (once); every later one only appends.
    tenant.blogs.push(newBlog());
    await store.commit();
    const snapshot = { ino: statSync(file).ino, size: statSync(file).size, sha: sha(file) };
    expect(snapshot.size).toBeGreaterThan(3_000_000);

    for (let i = 0; i < 20; i++) {
      const before = existsSync(`${file}.log`) ? statSync(`${file}.log`).size : 0;
      const blog = newBlog();
      tenant.blogs.push(blog);
      await store.commit();
      const grown = statSync(`${file}.log`).size - before;
      // One line: the change and its record, never the store.
      expect(grown).toBeGreaterThan(JSON.stringify(blog).length);
      expect(grown).toBeLessThan(JSON.stringify(blog).length + 200);
    }
    const deleted = tenant.blogs[5]!._id;
    tenant.blogs.splice(5, 1);
    await store.commit();
    expect({ ino: statSync(file).ino, size: statSync(file).size, sha: sha(file) }).toEqual(snapshot);
    await store.settled();

    const reopened = await SandboxStore.open({ dataFile: file, cipher });
    expect(ids(reopened.tenant(KEY).blogs)).toEqual(ids(tenant.blogs));
    expect(ids(reopened.tenant(KEY).blogs)).not.toContain(deleted);
    expect(reopened.tenant(KEY).blogs).toHaveLength(1500 + 1 + 20 - 1);
    await reopened.settled();
  });

  it('compacts once the log passes half the snapshot, and loads the same store after', async () => {
    const file = tempDataFile();
    const store = await SandboxStore.open({ dataFile: file, cipher });
    const tenant = store.tenant(KEY);
    for (let i = 0; i < 200; i++) {
      tenant.blogs.push(newBlog());
      await store.commit();
    }
    const files = await readStoreFiles(file);
    // 200 blogs of about 3 KB: the 256 KiB floor passed at least once.
    expect(files.generation).toBeGreaterThan(1);
    expect(ids(files.tenants[tenantId(KEY)]!.blogs)).toEqual(ids(tenant.blogs));
    expect(statSync(`${file}.log`).size).toBeLessThan(statSync(file).size);
    await store.settled();
  });

  it('keeps every change made while compactions run in the background', async () => {
    const file = tempDataFile();
    const store = await SandboxStore.open({ dataFile: file, cipher });
    const tenant = store.tenant(KEY);
    const write = async (i: number): Promise<void> => {
      await new Promise((r) => setTimeout(r, i % 7));
      if (i % 4 === 3 && tenant.blogs.length > 0) tenant.blogs.splice(i % tenant.blogs.length, 1);
      else tenant.blogs.push(newBlog());
      if (i % 5 === 0) store.remember(tenant, `key ${i}`, 201, { i });
      await store.commit();
    };
    for (let wave = 0; wave < 12; wave++) {
      await Promise.all(Array.from({ length: 40 }, (_, i) => write(wave * 40 + i)));
    }
    await store.settled();
    const files = await readStoreFiles(file);
    expect(files.generation).toBeGreaterThan(2);
    expect(ids(files.tenants[tenantId(KEY)]!.blogs)).toEqual(ids(tenant.blogs));
    expect(files.tenants[tenantId(KEY)]!.idempotency).toEqual(Object.fromEntries(tenant.idempotency));
    expect(existsSync(`${file}.log.old`)).toBe(false);
  });

  it("writes a request's changes as one line: cut short by a SIGKILL, none of them loads", async () => {
    const file = tempDataFile();
    let s = await startTestSandbox({ dataFile: file });
    running.push(s);
    const create = (key: string, keyword: string) =>
      s.fetch('/api/v1/public/create-blog', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ blogParams: blogParamsFor({ topicKeywords: [keyword] }) }),
      });
    const first = (await (await create('one', 'first')).json()) as GeneratedBlog;
    expect((await create('two', 'second')).status).toBe(201);
    running.splice(running.indexOf(s), 1);
    await s.close();
    // A SIGKILL while the last request's blog and Idempotency-Key record were being written.
    const log = readFileSync(`${file}.log`);
    writeFileSync(`${file}.log`, log.subarray(0, log.length - 20));

    s = await startTestSandbox({ dataFile: file });
    running.push(s);
    expect(ids(await s.api().listBlogs())).toEqual([first._id]);
    // Never answered, so sent again: made once, not a blog without its key and then another.
    const again = await create('two', 'second');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await s.api().listBlogs()).toHaveLength(2);
  });

  it('ignores a torn last line, and cuts it off before the next append', async () => {
    const file = tempDataFile();
    let store = await SandboxStore.open({ dataFile: file, cipher });
    for (let i = 0; i < 3; i++) store.tenant(KEY).blogs.push(newBlog());
    await store.commit();
    store.tenant(KEY).blogs.push(newBlog());
    await store.commit();
    const kept = ids(store.tenant(KEY).blogs);
    await store.settled();
    // A SIGKILL during an append: part of a line, no newline (never acknowledged).
    appendFileSync(`${file}.log`, `{"op":"addBlog","t":"${tenantId(KEY)}","blog":{"_id":"torn","ti`);

    store = await SandboxStore.open({ dataFile: file, cipher });
    expect(ids(store.tenant(KEY).blogs)).toEqual(kept);
    const after = newBlog();
    store.tenant(KEY).blogs.push(after);
    await store.commit();
    await store.settled();
    const lines = readFileSync(`${file}.log`, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(ids((await readStoreFiles(file)).tenants[tenantId(KEY)]!.blogs)).toEqual([...kept, after._id]);
  });

  it('skips a log that a compaction cut short already put in the snapshot (nothing twice)', async () => {
    const file = tempDataFile();
    const store = await SandboxStore.open({ dataFile: file, cipher });
    store.tenant(KEY).blogs.push(newBlog());
    await store.commit(); // the first snapshot
    store.tenant(KEY).blogs.push(newBlog(), newBlog());
    store.remember(store.tenant(KEY), 'once', 201, { ok: true });
    await store.commit(); // in the log
    const expected = ids(store.tenant(KEY).blogs);
    copyFileSync(`${file}.log`, `${file}.log.saved`);
    await store.compact();
    expect(existsSync(`${file}.log`)).toBe(false);
    await store.settled();
    // SIGKILL after the new snapshot was in place, before the log was removed.
    copyFileSync(`${file}.log.saved`, `${file}.log`);

    const reopened = await SandboxStore.open({ dataFile: file, cipher });
    expect(ids(reopened.tenant(KEY).blogs)).toEqual(expected);
    expect([...reopened.tenant(KEY).idempotency.keys()]).toEqual(['once']);
    // The stale log is replaced, never appended to.
    reopened.tenant(KEY).blogs.splice(0, 1);
    await reopened.commit();
    await reopened.settled();
    expect(ids((await readStoreFiles(file)).tenants[tenantId(KEY)]!.blogs)).toEqual(expected.slice(1));
  });

  it('reads every state a compaction in the background can be cut at, each change once', async () => {
    const t = tenantId(KEY);
    const [a, b, c, d, e] = [newBlog(), newBlog(), newBlog(), newBlog(), newBlog()];
    const snap = (generation: number, blogs: GeneratedBlog[]) =>
      [
        ...snapshotLines(generation, cipher.keyCheck, [[t, { blogs, sites: [], idempotency: new Map() }]]),
      ].join('');
    const log = (generation: number, ...blogs: GeneratedBlog[]) =>
      logHeaderLine(generation, cipher.keyCheck) +
      blogs.map((blog) => encodeChange({ op: 'addBlog', t, blog })).join('');
    const states: { name: string; data: string; old?: string; log?: string; holds: GeneratedBlog[] }[] = [
      { name: 'before the rename', data: snap(1, [a]), log: `${log(1, b, c)}{"op":"ad`, holds: [a, b, c] },
      { name: 'renamed, no new log yet', data: snap(1, [a]), old: log(1, b, c), holds: [a, b, c] },
      {
        name: 'new log begun, new snapshot not in place',
        data: snap(1, [a]),
        old: log(1, b, c),
        log: log(2, d),
        holds: [a, b, c, d],
      },
      {
        name: 'new snapshot in place, .log.old not yet removed',
        data: snap(2, [a, b, c]),
        old: log(1, b, c),
        log: log(2, d),
        holds: [a, b, c, d],
      },
      { name: 'done', data: snap(2, [a, b, c]), log: log(2, d), holds: [a, b, c, d] },
    ];
    for (const state of states) {
      const file = tempDataFile();
      writeFileSync(file, state.data);
      if (state.old) writeFileSync(`${file}.log.old`, state.old);
      if (state.log) writeFileSync(`${file}.log`, state.log);
      expect(ids((await readStoreFiles(file)).tenants[t]!.blogs), state.name).toEqual(ids(state.holds));
      const store = await SandboxStore.open({ dataFile: file, cipher });
      expect(ids(store.tenant(KEY).blogs), state.name).toEqual(ids(state.holds));
      store.tenant(KEY).blogs.push(e);
      await store.commit();
      await store.settled();
      const after = await readStoreFiles(file);
      expect(ids(after.tenants[t]!.blogs), state.name).toEqual(ids([...state.holds, e]));
      const again = await SandboxStore.open({ dataFile: file, cipher });
      expect(ids(again.tenant(KEY).blogs), state.name).toEqual(ids([...state.holds, e]));
      await again.settled();
    }
    // A new log without the .log.old it continues: something else changed these files.
    const file = tempDataFile();
    writeFileSync(file, snap(1, [a]));
    writeFileSync(`${file}.log`, log(2, d));
    await expect(SandboxStore.open({ dataFile: file, cipher })).rejects.toThrow(
      `the sandbox data file ${file}.log does not continue the data file ${file} (was one of them replaced?); refusing to start`,
    );
  });

  it('refuses a log that continues a newer snapshot than the data file (a data file put back)', async () => {
    const file = tempDataFile();
    const store = await SandboxStore.open({ dataFile: file, cipher });
    store.tenant(KEY).blogs.push(newBlog());
    await store.commit();
    copyFileSync(file, `${file}.old`);
    await store.compact();
    store.tenant(KEY).blogs.push(newBlog());
    await store.commit();
    await store.settled();
    copyFileSync(`${file}.old`, file);
    const log = readFileSync(`${file}.log`);
    await expect(SandboxStore.open({ dataFile: file, cipher })).rejects.toThrow(
      /does not continue the data file.*refusing to start/,
    );
    expect(readFileSync(`${file}.log`)).toEqual(log);
  });

  it('a save that failed applies nothing, and the next one appends (no whole snapshot)', async () => {
    const file = join(tempDataFile(), '..', 'state', 'data.json');
    const state = join(file, '..');
    mkdirSync(state);
    const store = await SandboxStore.open({ dataFile: file, cipher });
    const tenant = store.tenant(KEY);
    tenant.blogs.push(newBlog());
    await store.commit();
    tenant.blogs.push(newBlog());
    await store.commit();
    await store.settled(); // the log is closed: the next save must open it again
    const before = ids(tenant.blogs);
    const generation = (await readStoreFiles(file)).generation;
    const snapshot = sha(file);
    renameSync(state, `${state}.away`);
    writeFileSync(state, 'a file where the directory was');
    tenant.blogs.push(newBlog());
    await expect(store.commit()).rejects.toThrow(/ENOTDIR/);
    // Not written, so not there: in memory either.
    expect(ids(tenant.blogs)).toEqual(before);
    rmSync(state);
    renameSync(`${state}.away`, state);
    const after = newBlog();
    tenant.blogs.push(after);
    await store.commit();
    await store.settled();
    const files = await readStoreFiles(file);
    expect(files.generation).toBe(generation);
    expect(sha(file)).toBe(snapshot);
    expect(ids(files.tenants[tenantId(KEY)]!.blogs)).toEqual([...before, after._id]);
    expect(ids(tenant.blogs)).toEqual([...before, after._id]);
  });

  it('loads a version 1 data file, and writes it as a snapshot with a log from the first save on', async () => {
    const file = tempDataFile();
    const old = [newBlog(), newBlog()];
    const sealed = cipher.seal('abcd EFGH ijkl MNOP qrst UVWX', tenantId(KEY));
    writeVersion1(file, old, {
      sites: [{ id: 'main', label: 'Main', credentials: { username: 'ed', password: sealed } }],
      idempotency: { k1: { at: Date.now(), status: 201, body: old[0] } },
    });
    const store = await SandboxStore.open({ dataFile: file, cipher });
    const tenant = store.tenant(KEY);
    expect(ids(tenant.blogs)).toEqual(ids(old));
    expect(tenant.sites[0]!.label).toBe('Main');
    expect(cipher.open(tenant.sites[0]!.credentials!.password!, tenantId(KEY))).toBe(
      'abcd EFGH ijkl MNOP qrst UVWX',
    );
    expect(store.replay(tenant, 'k1')?.body).toEqual(old[0]);
    const added = newBlog();
    tenant.blogs.push(added);
    await store.commit();
    tenant.blogs.push(newBlog());
    await store.commit();
    await store.settled();
    const files = await readStoreFiles(file);
    expect(files.version).toBe(3);
    expect(ids(files.tenants[tenantId(KEY)]!.blogs)).toEqual(ids(tenant.blogs));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.log`).mode & 0o777).toBe(0o600);
  });
});

describe('one record never stops the store', () => {
  it('refuses a record nested too deep when it is written, and later writes still save', async () => {
    const file = tempDataFile();
    const store = await SandboxStore.open({ dataFile: file, cipher });
    const tenant = store.tenant(KEY);
    const first = newBlog();
    tenant.blogs.push(first);
    await store.commit();
    // 4,500 levels overflowed JSON.stringify inside the old whole-store save; 50,000 overflow it alone.
    for (const depth of [1_500, 4_500, 50_000]) {
      const poison = newBlog({ metaData: nested(depth) });
      let error: unknown;
      try {
        tenant.blogs.push(newBlog(), poison);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(HttpProblem);
      expect((error as HttpProblem).status).toBe(400);
      expect((error as HttpProblem).message).toBe(
        'the record cannot be stored: it nests deeper than 1000 levels',
      );
      expect(() => store.remember(tenant, `k${depth}`, 201, poison)).toThrow(HttpProblem);
      expect(() => (tenant.sites = [{ id: 's', label: nested(depth) as unknown as string }])).toThrow(
        HttpProblem,
      );
    }
    expect(ids(tenant.blogs)).toEqual([first._id]);
    expect(tenant.idempotency.size).toBe(0);
    expect(tenant.sites).toEqual([]);
    const later = newBlog({ metaData: nested(50) });
    tenant.blogs.push(later);
    await store.commit();
    await store.compact();
    await store.settled();
    expect(ids((await readStoreFiles(file)).tenants[tenantId(KEY)]!.blogs)).toEqual([first._id, later._id]);
  });

  it('over HTTP: a request whose record is too deep to store gets a 400; every later one still works', async () => {
    for (const dataFile of [tempDataFile(), undefined]) {
      const s = await startTestSandbox({ ...(dataFile && { dataFile }) });
      running.push(s);
      // Written by hand: the test's own JSON.stringify would overflow first.
      const create = (metaData: string) =>
        s.fetch('/api/v1/public/create-blog', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"blogParams":${JSON.stringify(blogParamsFor()).slice(0, -1)},"metaData":${metaData}}}`,
        });
      // Deep enough for the store's limit, not so deep that the request fails before the store sees it
      // (the request body's own depth limit, in http-io.ts, answers those).
      const deep = await create(`${'{"a":'.repeat(1_500)}{}${'}'.repeat(1_500)}`);
      expect(deep.status).toBe(400);
      const ok = await create('{"note":"fine"}');
      expect(ok.status).toBe(201);
      const { _id } = (await ok.json()) as { _id: string };
      const list = await s.fetch('/api/v1/public/get-all-blogs');
      expect(list.status).toBe(200);
      expect(ids((await list.json()) as { _id: string }[])).toEqual([_id]);
      const settings = await s.api().updateWordPressSettings({ label: 'after' });
      expect(settings.success).toBe(true);
      if (dataFile) {
        await s.close();
        running.splice(running.indexOf(s), 1);
        const again = await startTestSandbox({ dataFile });
        running.push(again);
        expect(ids(await again.api().listBlogs())).toEqual([_id]);
      }
    }
  });

  it('sets aside a record it cannot load (in <data>.rejected, 0600) and loads the rest', async () => {
    const file = tempDataFile();
    const good = [newBlog(), newBlog()];
    const bad = newBlog({ metaData: nested(2_000) });
    writeVersion1(file, [good[0]!, bad, good[1]!]);
    const warnings: string[] = [];
    const store = await SandboxStore.open({ dataFile: file, cipher, warn: (l) => warnings.push(l) });
    expect(ids(store.tenant(KEY).blogs)).toEqual(ids(good));
    expect(warnings).toEqual([
      `the sandbox data file ${file}: 1 record(s) could not be loaded (the first: tenant ${tenantId(KEY)}, blog nests deeper than 1000 levels); set aside in ${file}.rejected`,
    ]);
    const aside = readFileSync(`${file}.rejected`, 'utf8').trim().split('\n');
    expect(aside).toHaveLength(1);
    expect((JSON.parse(aside[0]!) as { record: { _id: string } }).record._id).toBe(bad._id);
    expect(statSync(`${file}.rejected`).mode & 0o777).toBe(0o600);
    store.tenant(KEY).blogs.push(newBlog());
    await store.commit();
    await store.settled();

    // Written back without it: the next start sets nothing aside again.
    const again = await SandboxStore.open({ dataFile: file, cipher, warn: (l) => warnings.push(l) });
    expect(again.tenant(KEY).blogs).toHaveLength(3);
    expect(warnings).toHaveLength(1);
    expect(readFileSync(`${file}.rejected`, 'utf8').trim().split('\n')).toHaveLength(1);
    await again.settled();
  });
});

describe('a damaged line inside the log', () => {
  it('is set aside like a record, and every other change loads', async () => {
    const file = tempDataFile();
    const store = await SandboxStore.open({ dataFile: file, cipher });
    const blogs = [newBlog(), newBlog(), newBlog(), newBlog()];
    for (const blog of blogs) {
      store.tenant(KEY).blogs.push(blog);
      await store.commit();
    }
    await store.settled();
    const lines = readFileSync(`${file}.log`, 'utf8').split('\n');
    expect(lines).toHaveLength(5); // the header, three changes, the final newline
    lines[2] = lines[2]!.slice(0, 40);
    writeFileSync(`${file}.log`, lines.join('\n'));
    const warnings: string[] = [];
    const reopened = await SandboxStore.open({ dataFile: file, cipher, warn: (l) => warnings.push(l) });
    expect(ids(reopened.tenant(KEY).blogs)).toEqual(ids([blogs[0]!, blogs[1]!, blogs[3]!]));
    expect(warnings).toEqual([
      `the sandbox data file ${file}: 1 record(s) could not be loaded (the first: ${file}.log line 3 is not valid JSON); set aside in ${file}.rejected`,
    ]);
    await reopened.settled();
    expect((await readStoreFiles(file)).rejected).toEqual([]);
  });
});

describe('a log that is not ours', () => {
  it('refuses to start on a log without its header, and leaves both files untouched', async () => {
    const file = tempDataFile();
    const store = await SandboxStore.open({ dataFile: file, cipher });
    store.tenant(KEY).blogs.push(newBlog());
    await store.commit();
    await store.settled();
    const snapshot = readFileSync(file);
    writeFileSync(`${file}.log`, 'some notes\n');
    await expect(SandboxStore.open({ dataFile: file, cipher })).rejects.toThrow(
      `the sandbox data file ${file}.log is not a blogctl sandbox log; refusing to start`,
    );
    expect(readFileSync(`${file}.log`, 'utf8')).toBe('some notes\n');
    expect(readFileSync(file)).toEqual(snapshot);
    // A log whose header never reached the disk whole holds nothing: it is replaced.
    writeFileSync(`${file}.log`, '{"blogctlSandboxLog":1,"gener');
    const reopened = await SandboxStore.open({ dataFile: file, cipher });
    expect(reopened.tenant(KEY).blogs).toHaveLength(1);
    reopened.tenant(KEY).blogs.push(newBlog());
    await reopened.commit();
    await reopened.settled();
    expect((await readStoreFiles(file)).tenants[tenantId(KEY)]!.blogs).toHaveLength(2);
  });
});
