// A tenant of the sandbox store, as handlers see it: its blogs, sites and idempotency records. Every way it
// can change turns the change into its log line first (Recorder.encode, which may refuse the record), then
// changes memory, then queues the line: a refused record leaves nothing behind, and nothing changes unlogged.
import type { GeneratedBlog } from './generator.js';
import type { Change, TenantData } from './store-format.js';
import type { IdempotencyRecord, StoredSite } from './store.js';

/** A tenant's blogs: read like an array; changed only by push (create) and splice (delete). */
export interface StoredBlogs extends ReadonlyArray<GeneratedBlog> {
  push(...blogs: GeneratedBlog[]): number;
  splice(start: number, deleteCount?: number): GeneratedBlog[];
}

/** What tenants use to log their changes: encode first (may refuse), then enqueue once memory changed. */
export interface Recorder {
  encode(change: Change): string;
  enqueue(line: string): void;
}

export class Tenant {
  readonly blogs: StoredBlogs;
  #sites: StoredSite[];
  readonly #idempotency: Record<string, IdempotencyRecord>;
  /** When expired idempotency records were last looked for. */
  sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly id: string,
    data: TenantData,
    private readonly recorder: Recorder,
  ) {
    this.blogs = new BlogList(id, data.blogs, recorder);
    this.#sites = data.sites;
    this.#idempotency = data.idempotency;
  }

  get sites(): StoredSite[] {
    return this.#sites;
  }

  /** Sites are replaced whole (settings.ts builds a new list), never changed in place. */
  set sites(sites: StoredSite[]) {
    const line = this.recorder.encode({ op: 'setSites', t: this.id, sites });
    this.#sites = sites;
    this.recorder.enqueue(line);
  }

  get idempotency(): Readonly<Record<string, IdempotencyRecord>> {
    return this.#idempotency;
  }

  /** For SandboxStore.remember only. */
  setRecords(records: Record<string, IdempotencyRecord | undefined>): void {
    for (const [key, record] of Object.entries(records)) {
      if (record) this.#idempotency[key] = record;
      else delete this.#idempotency[key];
    }
  }
}

class BlogList extends Array<GeneratedBlog> implements StoredBlogs {
  // map, filter, slice and splice's removed items are plain arrays, not lists that log.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  readonly #tenant: string;
  readonly #recorder: Recorder;

  constructor(tenant: string, blogs: GeneratedBlog[], recorder: Recorder) {
    super();
    this.#tenant = tenant;
    this.#recorder = recorder;
    for (const blog of blogs) super.push(blog);
  }

  override push(...blogs: GeneratedBlog[]): number {
    const lines = blogs.map((blog) => this.#recorder.encode({ op: 'addBlog', t: this.#tenant, blog }));
    for (const blog of blogs) super.push(blog);
    for (const line of lines) this.#recorder.enqueue(line);
    return this.length;
  }

  override splice(start: number, deleteCount?: number, ...items: GeneratedBlog[]): GeneratedBlog[] {
    if (items.length) unsupported('splice with items');
    const removed = deleteCount === undefined ? super.splice(start) : super.splice(start, deleteCount);
    for (const blog of removed) {
      this.#recorder.enqueue(this.#recorder.encode({ op: 'deleteBlog', t: this.#tenant, id: blog._id }));
    }
    return removed;
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
