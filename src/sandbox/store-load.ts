// Reading the store's files (their format: store-format.ts). Each record and each log line is checked on
// its own, so one that cannot be loaded is set aside instead of stopping the store; a file that is not
// ours at all stops the start, so that it is never overwritten.
import * as z from 'zod/mini';
import { blog } from '../schemas/blog.js';
import type { Schema } from '../schemas/validate.js';
import type { GeneratedBlog } from './generator.js';
import { exceedsDepth, MAX_RECORD_DEPTH, type Change, type TenantData } from './store-format.js';
import type { IdempotencyRecord, StoredSite } from './store.js';

const sealed = z.object({ iv: z.string(), tag: z.string(), data: z.string() });
const site = z.looseObject({
  id: z.string(),
  credentials: z.optional(z.looseObject({ password: z.optional(sealed) })),
});
const idempotencyRecord = z.looseObject({
  at: z.number(),
  status: z.number(),
  body: z.optional(z.unknown()),
  requestHash: z.optional(z.string()),
});
const snapshotHeader = z.object({
  version: z.literal(3),
  generation: z.number(),
  keyCheck: z.string(),
});
const snapshotEnd = z.object({ end: z.number() });
const snapshot = z.looseObject({
  version: z.union([z.literal(1), z.literal(2)]),
  generation: z.optional(z.number()),
  keyCheck: z.optional(z.string()),
  tenants: z.record(
    z.string(),
    z.object({
      blogs: z.array(z.unknown()),
      sites: z.array(z.unknown()),
      idempotency: z.record(z.string(), z.unknown()),
    }),
  ),
});
const logHeader = z.object({
  blogctlSandboxLog: z.literal(1),
  generation: z.number(),
  keyCheck: z.optional(z.string()),
});
const t = z.string();
const change = z.discriminatedUnion('op', [
  z.object({ op: z.literal('addBlog'), t, blog }),
  z.object({ op: z.literal('deleteBlog'), t, id: z.string() }),
  z.object({ op: z.literal('setSites'), t, sites: z.array(site) }),
  z.object({ op: z.literal('remember'), t, key: z.string(), record: idempotencyRecord }),
  z.object({ op: z.literal('forget'), t, keys: z.array(z.string()) }),
]);
/** The changes of one request, in one line: all of them load, or none does. */
const batch = z.object({ op: z.literal('batch'), changes: z.array(z.unknown()) });

/** A record that could not be loaded: kept aside in `<data>.rejected` instead of stopping the store. */
export interface Rejected {
  where: string;
  problem: string;
  record: unknown;
}

export interface ParsedStore {
  tenants: Map<string, TenantData>;
  /**
   * 1 for the old whole-file format, 2 for a snapshot in one JSON document with a log, 3 for a snapshot in
   * lines; undefined: no snapshot yet.
   */
  version: 1 | 2 | 3 | undefined;
  /** The snapshot's generation (0 without one, or for version 1). */
  generation: number;
  /** The highest generation any of the files names: the next snapshot takes a higher one. */
  highestGeneration: number;
  keyCheck: string | undefined;
  snapshotBytes: number;
  /** The log that new changes go on: its generation, valid bytes, and where a torn last line starts. */
  log: { generation: number; validBytes: number; tornAt: number | undefined } | undefined;
  /** `<data>.log.old` was applied: a compaction in the background did not finish. */
  oldLogApplied: boolean;
  rejected: Rejected[];
}

/** Refuses a whole file: thrown when what is on disk is not ours, so that it is never overwritten. */
export type Refuse = (file: string, why: string) => never;

/**
 * The store as its files describe it. Pure: reads nothing, writes nothing. A compaction in the background
 * renames the log to `<data>.log.old` (generation g, continuing snapshot g) and starts a new log of
 * generation g+1, which continues snapshot g+1 once that is written, and `<data>.log.old` plus snapshot g
 * until then. So: a log older than the snapshot is stale (the snapshot holds it); `.log.old` of the
 * snapshot's generation is applied, then the log of the next one; anything else was not written by this
 * sequence and stops the start.
 */
export function parseStore(
  dataFile: string,
  snapshotBytes: Buffer | undefined,
  logBytes: Buffer | undefined,
  refuse: Refuse,
  oldLogBytes?: Buffer,
): ParsedStore {
  const parsed: ParsedStore = {
    tenants: new Map(),
    version: undefined,
    generation: 0,
    highestGeneration: 0,
    keyCheck: undefined,
    snapshotBytes: 0,
    log: undefined,
    oldLogApplied: false,
    rejected: [],
  };
  if (snapshotBytes !== undefined) readSnapshot(dataFile, snapshotBytes, parsed, refuse);
  parsed.highestGeneration = parsed.generation;
  let expected = parsed.generation;
  const old = oldLogBytes && splitLog(`${dataFile}.log.old`, oldLogBytes, parsed, refuse);
  if (old && old.generation >= parsed.generation) {
    if (old.generation > parsed.generation) refuse(old.file, newerThan(dataFile));
    applyLog(old, parsed, refuse);
    parsed.oldLogApplied = true;
    expected = parsed.generation + 1;
  }
  const log = logBytes && splitLog(`${dataFile}.log`, logBytes, parsed, refuse);
  if (log && log.generation >= parsed.generation) {
    if (log.generation !== expected) refuse(log.file, newerThan(dataFile));
    applyLog(log, parsed, refuse);
    parsed.log = { generation: log.generation, validBytes: log.validBytes, tornAt: log.tornAt };
  }
  return parsed;
}

function newerThan(dataFile: string): string {
  return `does not continue the data file ${dataFile} (was one of them replaced?)`;
}

function readSnapshot(dataFile: string, bytes: Buffer, parsed: ParsedStore, refuse: Refuse): void {
  parsed.snapshotBytes = bytes.length;
  const first = bytes.indexOf(0x0a);
  let head: unknown;
  try {
    head = JSON.parse(bytes.subarray(0, first < 0 ? bytes.length : first).toString('utf8'));
  } catch {
    // Not a line of JSON: a version 1 or 2 snapshot, one JSON document over several lines.
  }
  const lines = snapshotHeader.safeParse(head);
  if (lines.success) return readSnapshotLines(dataFile, bytes, lines.data, parsed, refuse);
  readSnapshotDocument(dataFile, bytes.toString('utf8'), parsed, refuse);
}

/** A version 3 snapshot: its records are changes, applied to an empty store like a log's. */
function readSnapshotLines(
  dataFile: string,
  bytes: Buffer,
  header: z.infer<typeof snapshotHeader>,
  parsed: ParsedStore,
  refuse: Refuse,
): void {
  parsed.version = 3;
  parsed.generation = header.generation;
  parsed.keyCheck = header.keyCheck;
  const { lines, tornAt } = splitLines(bytes);
  let end: z.infer<typeof snapshotEnd> | undefined;
  try {
    const e = snapshotEnd.safeParse(JSON.parse(lines.at(-1) ?? ''));
    if (e.success) end = e.data;
  } catch {
    // No end line: refused below.
  }
  // Written whole (temp file, fsync, rename) or not at all: a snapshot without its end was cut short since.
  if (tornAt !== undefined || !end || end.end !== lines.length - 2) refuse(dataFile, 'is cut short');
  applyLines(dataFile, lines.slice(1, -1), 2, parsed);
}

function readSnapshotDocument(dataFile: string, text: string, parsed: ParsedStore, refuse: Refuse): void {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    refuse(dataFile, 'is not valid JSON');
  }
  const head = snapshot.safeParse(raw);
  if (!head.success) refuse(dataFile, 'is not a blogctl sandbox data file');
  const file = head.data;
  parsed.version = file.version;
  parsed.generation = file.generation ?? 0;
  parsed.keyCheck = file.keyCheck;
  const keep = <T>(where: string, schema: Schema<T>, value: unknown): value is T => {
    const problem = recordProblem(schema, value, MAX_RECORD_DEPTH);
    if (problem) parsed.rejected.push({ where, problem, record: value });
    return !problem;
  };
  for (const [id, tenant] of Object.entries(file.tenants)) {
    const where = `tenant ${id}`;
    parsed.tenants.set(id, {
      blogs: tenant.blogs.filter((b): b is GeneratedBlog => keep(`${where}, blog`, blog, b)),
      sites: tenant.sites.filter((s): s is StoredSite => keep(`${where}, site`, site, s)),
      idempotency: new Map(
        Object.entries(tenant.idempotency).filter((e): e is [string, IdempotencyRecord] =>
          keep(`${where}, idempotency record`, idempotencyRecord, e[1]),
        ),
      ),
    });
  }
}

/**
 * The whole lines of a file, each decoded on its own (no string holds more than a line), and where a last
 * line without its newline starts.
 */
function splitLines(bytes: Buffer): { lines: string[]; validBytes: number; tornAt: number | undefined } {
  const lines: string[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, nl).toString('utf8'));
    start = nl + 1;
  }
  return { lines, validBytes: start, tornAt: start < bytes.length ? start : undefined };
}

interface SplitLog {
  file: string;
  generation: number;
  keyCheck: string | undefined;
  lines: string[];
  validBytes: number;
  tornAt: number | undefined;
}

/** A log's header and whole lines; undefined when not even its header is whole (nothing in it). */
function splitLog(file: string, bytes: Buffer, parsed: ParsedStore, refuse: Refuse): SplitLog | undefined {
  // Only whole lines count: a line without its newline was being written when the process died, and was
  // never acknowledged (an answer waits for the fsync of its line, newline included).
  const { lines, validBytes, tornAt } = splitLines(bytes);
  if (lines.length === 0) return undefined;
  let header: z.infer<typeof logHeader>;
  try {
    const h = logHeader.safeParse(JSON.parse(lines[0]!));
    if (!h.success) throw new Error();
    header = h.data;
  } catch {
    return refuse(file, 'is not a blogctl sandbox log');
  }
  parsed.highestGeneration = Math.max(parsed.highestGeneration, header.generation);
  return {
    file,
    generation: header.generation,
    keyCheck: header.keyCheck,
    lines: lines.slice(1),
    validBytes,
    tornAt,
  };
}

function applyLog(log: SplitLog, parsed: ParsedStore, refuse: Refuse): void {
  if (parsed.keyCheck === undefined) parsed.keyCheck = log.keyCheck;
  else if (log.keyCheck !== undefined && log.keyCheck !== parsed.keyCheck) {
    refuse(log.file, 'was written with another encryption key than its data file');
  }
  applyLines(log.file, log.lines, 2, parsed);
}

/** Applies change lines; one that cannot be read is set aside (`<file> line <n>`), the rest still apply. */
function applyLines(file: string, lines: string[], firstLine: number, parsed: ParsedStore): void {
  lines.forEach((line, i) => {
    const where = `${file} line ${i + firstLine}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      parsed.rejected.push({ where, problem: 'is not valid JSON', record: line });
      return;
    }
    const grouped = batch.safeParse(value);
    const changes = grouped.success ? grouped.data.changes : [value];
    // The change wraps its record in two more levels.
    const problem = changes.map((c) => recordProblem(change, c, MAX_RECORD_DEPTH + 2)).find(Boolean);
    if (problem) parsed.rejected.push({ where, problem, record: value });
    else for (const c of changes) applyChange(parsed.tenants, c as Change);
  });
}

export function applyChange(tenants: Map<string, TenantData>, c: Change): void {
  let tenant = tenants.get(c.t);
  if (!tenant) tenants.set(c.t, (tenant = { blogs: [], sites: [], idempotency: new Map() }));
  switch (c.op) {
    case 'addBlog':
      tenant.blogs.push(c.blog);
      break;
    case 'deleteBlog': {
      const index = tenant.blogs.findIndex((b) => b._id === c.id);
      if (index >= 0) tenant.blogs.splice(index, 1);
      break;
    }
    case 'setSites':
      tenant.sites = c.sites;
      break;
    case 'remember':
      tenant.idempotency.set(c.key, c.record);
      break;
    case 'forget':
      for (const key of c.keys) tenant.idempotency.delete(key);
      break;
  }
}

/** Why a record cannot be loaded, if it cannot: too deep, or not the shape this sandbox writes. */
function recordProblem(schema: Schema, value: unknown, maxDepth: number): string | undefined {
  if (exceedsDepth(value, maxDepth)) return `nests deeper than ${MAX_RECORD_DEPTH} levels`;
  return schema.safeParse(value).success ? undefined : 'is not a record this sandbox writes';
}
