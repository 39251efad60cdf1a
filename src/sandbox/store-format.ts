// The sandbox store on disk. `<data>` is a snapshot of the whole store; `<data>.log` holds, one JSON line
// each, the changes made since that snapshot (and `<data>.log.old`, while a compaction runs, those it is
// folding in). A log starts with a header naming the snapshot generation it continues, so a log that a later
// snapshot already holds (a compaction cut short by SIGKILL) is recognised as stale and never applied
// twice. The changes of one request share one line (batchLine), so they load together or not at all.
// A snapshot (version 3) is itself lines: a header, one change per record (the changes that would make the
// store from nothing), and an end line counting them, so no string ever holds more than one record, whatever
// the store's size. Version 1 and 2 snapshots (one JSON document) still load; version 1 as generation 0.
// Reading these files is store-load.ts; writing them, store-log.ts.
import type { GeneratedBlog } from './generator.js';
import type { IdempotencyRecord, StoredSite } from './store.js';

/**
 * How deeply one stored record may nest. JSON.stringify and the structured clone overflow the stack a few
 * thousand levels down; a record past this limit is refused when it is written and set aside when it is
 * loaded, so no single record can stop the store from saving or answering.
 */
export const MAX_RECORD_DEPTH = 1000;

export interface TenantData {
  blogs: GeneratedBlog[];
  sites: StoredSite[];
  /** A Map: a key is any string a client sends (`__proto__` included), never an object's property. */
  idempotency: Map<string, IdempotencyRecord>;
}

/** One acknowledged change, as a log line. `t` is the tenant (a hash of the API key, never the key). */
export type Change =
  | { op: 'addBlog'; t: string; blog: GeneratedBlog }
  | { op: 'deleteBlog'; t: string; id: string }
  | { op: 'setSites'; t: string; sites: StoredSite[] }
  | { op: 'remember'; t: string; key: string; record: IdempotencyRecord }
  | { op: 'forget'; t: string; keys: string[] };

/** The log line of a change; throws StoreRefusal when it cannot be one (too deep, not JSON). */
export function encodeChange(c: Change): string {
  if (exceedsDepth(c, MAX_RECORD_DEPTH + 2)) {
    throw new StoreRefusal(`it nests deeper than ${MAX_RECORD_DEPTH} levels`);
  }
  try {
    return `${JSON.stringify(c)}\n`;
  } catch {
    throw new StoreRefusal('it cannot be written as JSON');
  }
}

export class StoreRefusal extends Error {}

/**
 * One line holding several changes (those of one request: a blog and its Idempotency-Key record), so a
 * SIGKILL in the middle of writing them leaves all of them or none: `{"op":"batch","changes":[…]}`.
 */
export function batchLine(lines: readonly string[]): string {
  return `{"op":"batch","changes":[${lines.map((l) => l.slice(0, -1)).join(',')}]}\n`;
}

export function logHeaderLine(generation: number, keyCheck: string): string {
  return `${JSON.stringify({ blogctlSandboxLog: 1, generation, keyCheck })}\n`;
}

/** A tenant as the snapshot reads it. */
export interface TenantView {
  readonly blogs: readonly GeneratedBlog[];
  readonly sites: readonly StoredSite[];
  readonly idempotency: ReadonlyMap<string, IdempotencyRecord>;
}

/** The first line of a version 3 snapshot. */
export function snapshotHeaderLine(generation: number, keyCheck: string): string {
  return `${JSON.stringify({ version: 3, generation, keyCheck })}\n`;
}

/** The last line of a version 3 snapshot: how many records it holds (a snapshot without it is cut short). */
export function snapshotEndLine(records: number): string {
  return `${JSON.stringify({ end: records })}\n`;
}

/**
 * The store as snapshot lines. What it writes is taken when it is called (the lists copied, the records
 * shared: they are never changed in place), so memory may change while the lines are written.
 */
export function snapshotLines(
  generation: number,
  keyCheck: string,
  tenants: Iterable<[string, TenantView]>,
): Iterable<string> {
  const taken: [string, GeneratedBlog[], readonly StoredSite[], [string, IdempotencyRecord][]][] = [];
  for (const [id, tenant] of tenants) {
    taken.push([id, [...tenant.blogs], tenant.sites, [...tenant.idempotency]]);
  }
  return (function* () {
    yield snapshotHeaderLine(generation, keyCheck);
    let records = 0;
    for (const [t, blogs, sites, remembered] of taken) {
      if (sites.length) {
        records++;
        yield encodeChange({ op: 'setSites', t, sites: [...sites] });
      }
      for (const blog of blogs) {
        records++;
        yield encodeChange({ op: 'addBlog', t, blog });
      }
      for (const [key, record] of remembered) {
        records++;
        yield encodeChange({ op: 'remember', t, key, record });
      }
    }
    yield snapshotEndLine(records);
  })();
}

/** Without recursion, so a value of any depth is measured without overflowing the stack. */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
