// The sandbox's state: one namespace per API key (blogs, WordPress sites, idempotency records), kept in
// memory and, with a data file, saved durably after every change.
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { UsageError } from '../errors.js';
import { blog } from '../schemas/blog.js';
import type { Cipher, SealedSecret } from './crypto.js';
import type { GeneratedBlog } from './generator.js';
import { SaveQueue, atomicWriteFile, readIfExists, removeStaleTempFiles } from './persist.js';

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
}

export interface Tenant {
  blogs: GeneratedBlog[];
  sites: StoredSite[];
  idempotency: Record<string, IdempotencyRecord>;
}

interface StoreData {
  version: 1;
  keyCheck?: string;
  tenants: Record<string, Tenant>;
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

// The file format is the sandbox's own, checked only enough to refuse a file that is not one of ours.
const sealed = z.object({ iv: z.string(), tag: z.string(), data: z.string() });
const storeFile = z.object({
  version: z.literal(1),
  keyCheck: z.optional(z.string()),
  tenants: z.record(
    z.string(),
    z.object({
      blogs: z.array(blog),
      sites: z.array(
        z.looseObject({
          id: z.string(),
          credentials: z.optional(z.looseObject({ password: z.optional(sealed) })),
        }),
      ),
      idempotency: z.record(
        z.string(),
        z.object({ at: z.number(), status: z.number(), body: z.optional(z.unknown()) }),
      ),
    }),
  ),
});

export interface StoreOptions {
  dataFile?: string;
  cipher: Cipher;
  now?: () => number;
}

export class SandboxStore {
  private readonly saves: SaveQueue | undefined;
  readonly now: () => number;

  private constructor(
    private readonly data: StoreData,
    readonly cipher: Cipher,
    dataFile: string | undefined,
    now: (() => number) | undefined,
  ) {
    this.now = now ?? Date.now;
    this.saves = dataFile ? new SaveQueue(() => this.save(dataFile)) : undefined;
  }

  /** Loads the data file when there is one. A file we cannot read is never overwritten: start-up fails. */
  static async open(options: StoreOptions): Promise<SandboxStore> {
    const { dataFile, cipher } = options;
    let data: StoreData = { version: 1, tenants: {} };
    if (dataFile) {
      await removeStaleTempFiles(dataFile);
      const text = await readIfExists(dataFile);
      if (text !== undefined) data = parseStoreFile(text, dataFile, cipher);
    }
    return new SandboxStore(data, cipher, dataFile, options.now);
  }

  /** The namespace of one API key, keyed by a hash so the data file never holds the key itself. */
  tenant(apiKey: string): Tenant {
    const id = tenantId(apiKey);
    return (this.data.tenants[id] ??= { blogs: [], sites: [], idempotency: {} });
  }

  /** Waits until every change made so far is on disk (immediately in memory-only mode). */
  async commit(): Promise<void> {
    await this.saves?.flush();
  }

  /** Waits for saves in progress (close()); starts none. */
  async settled(): Promise<void> {
    await this.saves?.settled();
  }

  replay(tenant: Tenant, key: string): IdempotencyRecord | undefined {
    const record = tenant.idempotency[key];
    return record && this.now() - record.at < IDEMPOTENCY_TTL_MS ? record : undefined;
  }

  remember(tenant: Tenant, key: string, status: number, body: unknown): void {
    const now = this.now();
    // Expired records are dropped here, so the file does not grow for ever.
    for (const [k, r] of Object.entries(tenant.idempotency)) {
      if (now - r.at >= IDEMPOTENCY_TTL_MS) delete tenant.idempotency[k];
    }
    tenant.idempotency[key] = { at: now, status, ...(body !== undefined && { body }) };
  }

  private async save(dataFile: string): Promise<void> {
    // Snapshot when the save starts: it holds every change made up to now.
    const text = `${JSON.stringify({ ...this.data, keyCheck: this.cipher.keyCheck })}\n`;
    await atomicWriteFile(dataFile, text);
  }
}

export function tenantId(apiKey: string): string {
  return createHash('sha256').update(`blogctl-sandbox:${apiKey}`).digest('hex').slice(0, 32);
}

function parseStoreFile(text: string, dataFile: string, cipher: Cipher): StoreData {
  const refuse = (why: string): never => {
    throw new UsageError(
      `the sandbox data file ${dataFile} ${why}; refusing to start so it is not overwritten (fix it, move it away, or pass another --data file)`,
    );
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return refuse('is not valid JSON');
  }
  const parsed = storeFile.safeParse(raw);
  if (!parsed.success) return refuse('is not a blogctl sandbox data file');
  const data = raw as StoreData;
  if (data.keyCheck && data.keyCheck !== cipher.keyCheck) {
    return refuse(
      'was written with another encryption key (BLOGCTL_SANDBOX_SECRET or its .key file), so its WordPress passwords cannot be read',
    );
  }
  return data;
}
