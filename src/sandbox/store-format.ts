// The sandbox store on disk. `<data>` is a snapshot of the whole store; `<data>.log` holds, one JSON line
// each, the changes made since that snapshot (and `<data>.log.old`, while a compaction runs, those it is
// folding in). A log starts with a header naming the snapshot generation it continues, so a log that a later
// snapshot already holds (a compaction cut short by SIGKILL) is recognised as stale and never applied
// twice. Version 1 snapshots (the whole store rewritten on every change) load as generation 0. Reading
// these files is store-load.ts; writing them, store-log.ts.
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
  idempotency: Record<string, IdempotencyRecord>;
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

export function logHeaderLine(generation: number, keyCheck: string): string {
  return `${JSON.stringify({ blogctlSandboxLog: 1, generation, keyCheck })}\n`;
}

/** A tenant as the snapshot reads it. */
export interface TenantView {
  readonly blogs: readonly GeneratedBlog[];
  readonly sites: readonly StoredSite[];
  readonly idempotency: Readonly<Record<string, IdempotencyRecord>>;
}

export function snapshotText(
  generation: number,
  keyCheck: string,
  tenants: Iterable<[string, TenantView]>,
): string {
  const out: Record<string, TenantView> = {};
  for (const [id, tenant] of tenants) {
    // Plain arrays and objects: what is written never depends on how memory keeps them.
    out[id] = { blogs: [...tenant.blogs], sites: tenant.sites, idempotency: tenant.idempotency };
  }
  return `${JSON.stringify({ version: 2, generation, keyCheck, tenants: out })}\n`;
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
