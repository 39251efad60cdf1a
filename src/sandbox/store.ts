// The sandbox's state: one namespace per API key (blogs, WordPress sites, idempotency records), kept in
// memory and, with a data file, made durable change by change: each change becomes one line of a log
// (store-format.ts, store-log.ts), so a write costs the same whatever the store's size.
//
// Handlers change a tenant through what it exposes (store-tenant.ts: blogs.push and blogs.splice, the sites
// setter; and remember() here); each of those turns the change into its log line and stages it. commit()
// writes what is staged and only then lets memory take it: a change is seen (and answered) only once it is on
// disk, and a change that cannot be written is dropped, in memory too. Each key's records may take at most
// its quota (refused with 507 beyond it). Reading a data file without a store, and setting aside what
// cannot be loaded: store-read.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Cipher, SealedSecret } from './crypto.js';
import { HttpProblem } from './http-io.js';
import { SaveQueue, readBytesIfExists, removeStaleTempFiles } from './persist.js';
import { batchLine, encodeChange, snapshotLines, StoreRefusal, type TenantData } from './store-format.js';
import { parseStore } from './store-load.js';
import { StoreFiles } from './store-log.js';
import { refuse, setAside } from './store-read.js';
import { Tenant, type Recorder } from './store-tenant.js';

/** A WordPress site as stored: the password only ever sealed. */
export interface StoredSite {
  id: string;
  label?: string;
  isIntegrated?: boolean;
  isWebsiteValid?: boolean;
  autoPublish?: boolean;
  credentials?: { websiteUrl?: string; username?: string; password?: SealedSecret };
}

/** The first 2xx answer to a POST with an Idempotency-Key, replayed for the same key within 24 h. */
export interface IdempotencyRecord {
  at: number;
  status: number;
  body?: unknown;
  /**
   * The request's fingerprint, keyed (KEYED_HASH): the same key with another request is refused. Absent in
   * older data files, and dropped at load when it is of the earlier, unkeyed form.
   */
  requestHash?: string;
}

/**
 * How a requestHash made with the store's key (Cipher.mac) starts. The earlier form, an unkeyed SHA-256 of a
 * body that may hold a WordPress password or a provider key, would let whoever holds the data file test
 * guesses of them: a hash without this mark is dropped when the store is loaded.
 */
export const KEYED_HASH = 'hmac:';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired idempotency records are looked for at most this often per tenant (not on every write). */
const SWEEP_INTERVAL_MS = 60 * 1000;

/** The bytes one API key's records may take (blogs, sites, idempotency records, as stored), by default. */
export const DEFAULT_QUOTA_BYTES = 100 * 1024 * 1024;

interface Staged {
  tenant: Tenant;
  line: string;
  growth: number;
  apply: () => void;
}

/** A change could not be written (the disk is full, say): nothing of it was applied. `cause`: why. */
export class StoreWriteError extends Error {
  constructor(cause: unknown) {
    super('the change could not be saved', { cause });
  }
}

export interface StoreOptions {
  dataFile?: string;
  cipher: Cipher;
  now?: () => number;
  /** Told about records set aside at load (never their content). */
  warn?: (line: string) => void;
  /** The bytes one API key's records may take; default DEFAULT_QUOTA_BYTES. */
  quotaBytes?: number;
}

export class SandboxStore {
  readonly now: () => number;
  readonly quotaBytes: number;
  private readonly tenants = new Map<string, Tenant>();
  private pending: Staged[] = [];
  /** The changes staged by the write() each call runs in. */
  private readonly transactions = new AsyncLocalStorage<Staged[]>();
  /** Per tenant, the exclusive write() running last (each waits for the one before). */
  private readonly exclusive = new WeakMap<Tenant, Promise<unknown>>();
  private readonly saves: SaveQueue | undefined;
  private readonly recorder: Recorder;

  private constructor(
    readonly cipher: Cipher,
    private readonly files: StoreFiles | undefined,
    loaded: Map<string, TenantData>,
    options: Pick<StoreOptions, 'now' | 'quotaBytes'>,
  ) {
    this.now = options.now ?? Date.now;
    this.quotaBytes = options.quotaBytes ?? DEFAULT_QUOTA_BYTES;
    this.saves = files ? new SaveQueue(() => this.save(files)) : undefined;
    this.recorder = {
      encode: (change) => {
        try {
          return encodeChange(change);
        } catch (error) {
          if (error instanceof StoreRefusal) {
            throw new HttpProblem(400, `the record cannot be stored: ${error.message}`);
          }
          throw error;
        }
      },
      stage: (tenant, line, growth, apply) => {
        if (growth > 0 && tenant.usedBytes + tenant.stagedBytes + growth > this.quotaBytes) {
          throw new HttpProblem(
            507,
            `this API key's storage quota is full: it holds ${megabytes(tenant.usedBytes)} of its ${megabytes(this.quotaBytes)}, and this change needs ${megabytes(growth)} more; delete blogs to make room`,
          );
        }
        tenant.stagedBytes += growth;
        (this.transactions.getStore() ?? this.pending).push({ tenant, line, growth, apply });
      },
    };
    for (const [id, data] of loaded) this.tenants.set(id, new Tenant(id, data, this.recorder));
  }

  /**
   * Loads the data file and its log when there are. A file we cannot read is never overwritten: start-up
   * fails. One record that cannot be loaded does not stop the rest: it is set aside in `<data>.rejected`.
   */
  static async open(options: StoreOptions): Promise<SandboxStore> {
    const { dataFile, cipher } = options;
    if (!dataFile) return new SandboxStore(cipher, undefined, new Map(), options);
    await removeStaleTempFiles(dataFile);
    const snapshot = await readBytesIfExists(dataFile);
    const log = await readBytesIfExists(`${dataFile}.log`);
    const oldLog = await readBytesIfExists(`${dataFile}.log.old`);
    const parsed = parseStore(dataFile, snapshot, log, refuse, oldLog);
    if (parsed.keyCheck && parsed.keyCheck !== cipher.keyCheck) {
      refuse(
        dataFile,
        'was written with another encryption key (BLOGCTL_SANDBOX_SECRET or its .key file), so its WordPress passwords cannot be read',
      );
    }
    const unkeyed = dropUnkeyedHashes(parsed.tenants);
    const files = new StoreFiles(dataFile, cipher.keyCheck, parsed);
    const store = new SandboxStore(cipher, files, parsed.tenants, options);
    if (parsed.rejected.length) {
      const aside = await setAside(dataFile, parsed.rejected);
      const first = parsed.rejected[0]!;
      options.warn?.(
        `the sandbox data file ${dataFile}: ${parsed.rejected.length} record(s) could not be loaded (the first: ${first.where} ${first.problem}); set aside in ${aside}`,
      );
    }
    // Write the store without them now: records set aside are not set aside again at the next start, and
    // unkeyed hashes leave the disk (their records are replayed as records without a hash always were).
    if (parsed.rejected.length || unkeyed) await store.compact();
    return store;
  }

  /** The namespace of one API key, keyed by a hash so the data file never holds the key itself. */
  tenant(apiKey: string): Tenant {
    const id = tenantId(apiKey);
    let tenant = this.tenants.get(id);
    if (!tenant) {
      tenant = new Tenant(id, { blogs: [], sites: [], idempotency: new Map() }, this.recorder);
      this.tenants.set(id, tenant);
    }
    return tenant;
  }

  /**
   * Runs `change` (a request's handler), then writes what it staged and applies it once it is on disk, and
   * only then returns its result: the changes of one call are written together or not at all. When `change`
   * throws, or they cannot be written (StoreWriteError), none of them is applied. With `exclusive`, calls for
   * that tenant run one at a time: for changes computed from what the tenant holds (a delete, a settings
   * patch), which must see the change before them.
   */
  async write<T>(change: () => Promise<T>, exclusive?: Tenant): Promise<T> {
    if (!exclusive) return this.transact(change);
    const before = this.exclusive.get(exclusive);
    const run = (async () => {
      await before?.catch(() => undefined);
      return this.transact(change);
    })();
    this.exclusive.set(exclusive, run);
    try {
      return await run;
    } finally {
      if (this.exclusive.get(exclusive) === run) this.exclusive.delete(exclusive);
    }
  }

  private async transact<T>(change: () => Promise<T>): Promise<T> {
    const staged: Staged[] = [];
    let result: T;
    try {
      result = await this.transactions.run(staged, change);
    } catch (error) {
      settle(staged, false);
      throw error;
    }
    if (!staged.length) return result;
    // One line for all of them: a SIGKILL while it is written leaves all or none.
    if (staged.length > 1) {
      staged[0]!.line = batchLine(staged.map((c) => c.line));
      for (const c of staged.slice(1)) c.line = '';
    }
    this.pending.push(...staged);
    try {
      await this.commit();
    } catch (error) {
      throw new StoreWriteError(error);
    }
    return result;
  }

  /**
   * Writes every change staged so far and applies it to memory once it is on disk (at once in memory-only
   * mode); throws when they cannot be written, and then none of them is applied.
   */
  async commit(): Promise<void> {
    if (this.saves) return this.saves.flush();
    const batch = this.pending;
    this.pending = [];
    settle(batch, true);
  }

  /**
   * Writes the whole store as a new snapshot and drops the logs, once the saves before it are done; throws
   * when the snapshot cannot be written.
   */
  async compact(): Promise<void> {
    if (!this.files || !this.saves) return;
    await this.saves.settled();
    this.files.requireCompaction();
    await this.saves.flush();
    if (this.files.compactionError !== undefined) throw this.files.compactionError;
  }

  /**
   * Waits for saves in progress and a compaction in the background (close(): the data file's lock is
   * released after); starts none. Closes the log (a later save opens it again).
   */
  async settled(): Promise<void> {
    await this.saves?.settled();
    await this.files?.close();
  }

  replay(tenant: Tenant, key: string): IdempotencyRecord | undefined {
    const record = tenant.idempotency.get(key);
    return record && this.now() - record.at < IDEMPOTENCY_TTL_MS ? record : undefined;
  }

  /** Stages an idempotency record (committed with the change it answers). */
  remember(tenant: Tenant, key: string, status: number, body: unknown, requestHash?: string): void {
    const now = this.now();
    const record: IdempotencyRecord = {
      at: now,
      status,
      ...(body !== undefined && { body }),
      ...(requestHash !== undefined && { requestHash }),
    };
    tenant.remember(key, record);
    // Expired records are dropped now and then, so the store does not grow for ever.
    if (now - tenant.sweptAt >= SWEEP_INTERVAL_MS) {
      tenant.sweptAt = now;
      const expired = [...tenant.idempotency]
        .filter(([k, r]) => k !== key && now - r.at >= IDEMPOTENCY_TTL_MS)
        .map(([k]) => k);
      if (expired.length) tenant.forget(expired);
    }
  }

  private async save(files: StoreFiles): Promise<void> {
    // Every change staged up to now.
    const batch = this.pending;
    this.pending = [];
    try {
      await files.save(
        batch.map((c) => c.line).join(''),
        () => settle(batch, true),
        (generation) => snapshotLines(generation, this.cipher.keyCheck, this.tenants),
      );
    } catch (error) {
      settle(batch, false);
      throw error;
    }
  }
}

/** Applies the staged changes (written) or drops them (not written); either way they are staged no more. */
function settle(batch: Staged[], written: boolean): void {
  for (const c of batch) {
    c.tenant.stagedBytes -= c.growth;
    if (written) c.apply();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;
}

/** Removes the requestHash of every record whose hash is not keyed; how many there were. */
function dropUnkeyedHashes(tenants: Map<string, TenantData>): number {
  let dropped = 0;
  for (const tenant of tenants.values()) {
    for (const record of tenant.idempotency.values()) {
      if (record.requestHash !== undefined && !record.requestHash.startsWith(KEYED_HASH)) {
        delete record.requestHash;
        dropped++;
      }
    }
  }
  return dropped;
}

export function tenantId(apiKey: string): string {
  return createHash('sha256').update(`blogctl-sandbox:${apiKey}`).digest('hex').slice(0, 32);
}
