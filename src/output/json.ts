// `--json` and `--json a,b,c`: the whole value, or only the named fields of each object. Every command that
// prints data reads the flag through jsonOutput(), never by testing the raw option: `--json` reaches a
// command as `true`, as a field list, or (from `--json=`) as an empty string, and a truthiness test of the
// raw value once made half the commands print text for `blogctl --json <command>`.
import { UsageError } from '../errors.js';
import type { IO } from './io.js';

export type JsonFlag = boolean | string | undefined;

/**
 * The top-level fields of a command's JSON (of each element, when it prints an array): a fixed list, which
 * `--json` is checked against before anything runs, or `{ open: 'blog' }` for records whose fields the service
 * decides, where a field no item has is only warned about.
 */
export type JsonShape = readonly string[] | { open: string };

/** The field names of T as a list, checked by the compiler both ways: none missing, none extra. */
export function fieldsOf<T>(names: { [K in keyof T]-?: true }): readonly string[] {
  return Object.keys(names);
}

/** What `--json [fields]` asks of one command; build it with jsonOutput(). */
export class JsonOutput {
  private readonly seen = new Set<string>();
  private readonly keys = new Set<string>();
  private items = 0;

  constructor(
    /** Whether --json was given at all. */
    readonly enabled: boolean,
    /** The fields named by `--json a,b`, or undefined for the whole value. */
    readonly fields: string[] | undefined,
    private readonly open: string | undefined,
  ) {}

  /** The value with only the selected fields (of each element, for an array). */
  select(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.select(v));
    const fields = this.fields;
    if (!fields || !value || typeof value !== 'object') return value;
    const picked = pick(value, fields) as Record<string, unknown>;
    if (this.open !== undefined) {
      this.items++;
      for (const f of Object.keys(picked)) this.seen.add(f);
      if (this.seen.size < fields.length) for (const k of Object.keys(value)) this.keys.add(k);
    }
    return picked;
  }

  /** One JSON document to stdout: select(value), then a warning for a requested field no item had. */
  print(io: Pick<IO, 'json' | 'warn'>, value: unknown): void {
    io.json(this.select(value));
    this.warnUnseen(io);
  }

  /**
   * For open shapes (blogs): a warning on stderr naming each requested field that no selected item had, since
   * a misspelt field would otherwise quietly print `{}`. Nothing when there were no items.
   */
  warnUnseen(io: Pick<IO, 'warn'>): void {
    if (this.open === undefined || !this.fields || !this.items) return;
    const unseen = this.fields.filter((f) => !this.seen.has(f));
    if (!unseen.length) return;
    const names = `field${unseen.length === 1 ? '' : 's'} ${unseen.map((f) => `"${f}"`).join(', ')}`;
    const which = this.items === 1 ? `the ${this.open} has no ${names}` : `no ${this.open} has the ${names}`;
    io.warn(`--json: ${which} (it has: ${[...this.keys].join(', ')})`);
  }
}

/**
 * Reads `--json [fields]` for a command whose output has the given shape. With a fixed shape, a field that is
 * not one of it fails here (exit 2, naming it and listing the available ones), before anything is read or sent.
 */
export function jsonOutput(json: JsonFlag, shape: JsonShape): JsonOutput {
  const enabled = wantsJson(json);
  const fields = enabled ? jsonFields(json) : undefined;
  if (isOpen(shape)) return new JsonOutput(enabled, fields, shape.open);
  if (fields) {
    const unknown = fields.filter((f) => !shape.includes(f) && !shape.includes(f.split('.')[0]!));
    if (unknown.length)
      throw new UsageError(
        `--json: unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((f) => `"${f}"`).join(', ')} (available: ${shape.join(', ')})`,
      );
  }
  return new JsonOutput(enabled, fields, undefined);
}

function isOpen(shape: JsonShape): shape is { open: string } {
  return !Array.isArray(shape);
}

/** The fields named by `--json a,b`, or undefined for a bare `--json`. */
export function jsonFields(json: JsonFlag): string[] | undefined {
  if (typeof json !== 'string' || json === '') return undefined;
  const fields = json
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (!fields.length)
    throw new UsageError('--json: give field names separated by commas, e.g. --json id,title');
  for (const f of fields)
    if (!/^[A-Za-z_$][\w$.-]*$/.test(f)) throw new UsageError(`--json: "${f}" is not a field name`);
  return fields;
}

export function pick(value: unknown, fields: string[] | undefined): unknown {
  if (!fields) return value;
  if (Array.isArray(value)) return value.map((v) => pick(v, fields));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = getPath(value as Record<string, unknown>, f);
    if (v !== undefined) out[f] = v;
  }
  return out;
}

function getPath(obj: Record<string, unknown>, path: string): unknown {
  if (path in obj) return obj[path];
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Whether `--json` was given, in any form (`--json`, `--json=`, `--json a,b`). */
export function wantsJson(json: JsonFlag): boolean {
  return json !== undefined && json !== false;
}

/** Whether a command line asks for JSON (--json, or --jq, which implies it), for errors reported before (or without) parsing it. */
export function argvWantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some(
    (a) => a === '--json' || a.startsWith('--json=') || a === '--jq' || a.startsWith('--jq='),
  );
}
