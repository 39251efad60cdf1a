// A tenant of the sandbox store, as handlers see it: its blogs, sites and idempotency records. Every way it
// can change turns the change into its log line first (Recorder.encode, which may refuse the record), then
// stages it (Recorder.stage, which may refuse it over the key's quota); memory takes a staged change only once
// it is on disk (SandboxStore.commit), so what a request reads is always durable, and a change whose write
// failed leaves nothing behind.
import type { GeneratedBlog } from './generator.js';
import type { Change, TenantData } from './store-format.js';
import type { IdempotencyRecord, StoredSite } from './store.js';

/**
 * A tenant's blogs: read like an array; changed only by push (create) and splice (delete), which stage the
 * change: the list shows it once it is committed.
 */
export interface StoredBlogs extends ReadonlyArray<GeneratedBlog> {
  push(...blogs: GeneratedBlog[]): number;
  /** Stages the deletion of these blogs, and returns them. */
  splice(start: number, deleteCount?: number): GeneratedBlog[];
}

/** What tenants use to log their changes. */
export interface Recorder {
  /** The change's log line; throws when it cannot be stored. */
  encode(change: Change): string;
  /**
   * Queues the line; `apply` changes memory once it is on disk, and is never called if it cannot be
   * written. `growth`: the bytes it adds to the tenant's storage (refused over the quota).
   */
  stage(tenant: Tenant, line: string, growth: number, apply: () => void): void;
}

const lineBytes = (line: string): number => Buffer.byteLength(line);

export class Tenant {
  readonly blogs: StoredBlogs;
  #sites: StoredSite[];
  #sitesBytes = 0;
  readonly #idempotency: Map<string, IdempotencyRecord>;
  readonly #recordBytes = new Map<string, number>();
  /** The bytes its records take, as log lines (the quota counts these). */
  usedBytes = 0;
  /** The bytes staged changes would add, until they are applied or dropped. */
  stagedBytes = 0;
  /** When expired idempotency records were last looked for. */
  sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly id: string,
    data: TenantData,
    private readonly recorder: Recorder,
  ) {
    this.blogs = new BlogList(this, data.blogs, recorder);
    this.#sites = data.sites;
    this.#idempotency = data.idempotency;
    if (data.sites.length) {
      this.#sitesBytes = lineBytes(recorder.encode({ op: 'setSites', t: id, sites: data.sites }));
      this.usedBytes += this.#sitesBytes;
    }
    for (const [key, record] of data.idempotency) {
      const bytes = lineBytes(recorder.encode({ op: 'remember', t: id, key, record }));
      this.#recordBytes.set(key, bytes);
      this.usedBytes += bytes;
    }
  }

  get sites(): readonly StoredSite[] {
    return this.#sites;
  }

  /** Sites are replaced whole (settings.ts builds a new list), never changed in place. */
  set sites(sites: StoredSite[]) {
    const line = this.recorder.encode({ op: 'setSites', t: this.id, sites });
    const bytes = lineBytes(line);
    this.recorder.stage(this, line, Math.max(0, bytes - this.#sitesBytes), () => {
      this.usedBytes += bytes - this.#sitesBytes;
      this.#sites = sites;
      this.#sitesBytes = bytes;
    });
  }

  get idempotency(): ReadonlyMap<string, IdempotencyRecord> {
    return this.#idempotency;
  }

  /** For SandboxStore.remember only: stages one record. */
  remember(key: string, record: IdempotencyRecord): void {
    const line = this.recorder.encode({ op: 'remember', t: this.id, key, record });
    const bytes = lineBytes(line);
    this.recorder.stage(this, line, bytes, () => {
      this.usedBytes += bytes - (this.#recordBytes.get(key) ?? 0);
      this.#recordBytes.set(key, bytes);
      this.#idempotency.set(key, record);
    });
  }

  /** For SandboxStore.remember only: stages dropping these records. */
  forget(keys: string[]): void {
    const line = this.recorder.encode({ op: 'forget', t: this.id, keys });
    this.recorder.stage(this, line, 0, () => {
      for (const key of keys) {
        this.usedBytes -= this.#recordBytes.get(key) ?? 0;
        this.#recordBytes.delete(key);
        this.#idempotency.delete(key);
      }
    });
  }
}

/** The bytes of each blog's line, for the tenant's usage when it is deleted. */
const blogBytes = new WeakMap<GeneratedBlog, number>();

class BlogList extends Array<GeneratedBlog> implements StoredBlogs {
  // map, filter, slice and splice's removed items are plain arrays, not lists that log.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  readonly #tenant: Tenant;
  readonly #recorder: Recorder;

  constructor(tenant: Tenant, blogs: GeneratedBlog[], recorder: Recorder) {
    super();
    this.#tenant = tenant;
    this.#recorder = recorder;
    for (const blog of blogs) {
      const bytes = lineBytes(recorder.encode({ op: 'addBlog', t: tenant.id, blog }));
      blogBytes.set(blog, bytes);
      tenant.usedBytes += bytes;
      super.push(blog);
    }
  }

  /** Stages the blogs; returns the length the list will have once they are committed. */
  override push(...blogs: GeneratedBlog[]): number {
    const tenant = this.#tenant;
    const lines = blogs.map((blog) => this.#recorder.encode({ op: 'addBlog', t: tenant.id, blog }));
    blogs.forEach((blog, i) => {
      const bytes = lineBytes(lines[i]!);
      this.#recorder.stage(tenant, lines[i]!, bytes, () => {
        blogBytes.set(blog, bytes);
        tenant.usedBytes += bytes;
        Array.prototype.push.call(this, blog);
      });
    });
    return this.length + blogs.length;
  }

  override splice(start: number, deleteCount?: number, ...items: GeneratedBlog[]): GeneratedBlog[] {
    if (items.length) unsupported('splice with items');
    const doomed = deleteCount === undefined ? this.slice(start) : this.slice(start, start + deleteCount);
    const tenant = this.#tenant;
    for (const blog of doomed) {
      const line = this.#recorder.encode({ op: 'deleteBlog', t: tenant.id, id: blog._id });
      this.#recorder.stage(tenant, line, 0, () => {
        const index = this.indexOf(blog);
        if (index < 0) return;
        Array.prototype.splice.call(this, index, 1);
        tenant.usedBytes -= blogBytes.get(blog) ?? 0;
      });
    }
    return doomed;
  }

  // Every other way to change the list would go unlogged.
  override pop(): never {
    return unsupported('pop');
  }
  override shift(): never {
    return unsupported('shift');
  }
  override unshift(): never {
    return unsupported('unshift');
  }
  override sort(): never {
    return unsupported('sort');
  }
  override reverse(): never {
    return unsupported('reverse');
  }
  override fill(): never {
    return unsupported('fill');
  }
  override copyWithin(): never {
    return unsupported('copyWithin');
  }
}

function unsupported(method: string): never {
  throw new Error(`a tenant's blogs change only through push and splice, not ${method}`);
}
