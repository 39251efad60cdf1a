// `--json` and `--json a,b,c`: the whole value, or only the named fields of each object.
import { UsageError } from '../errors.js';

/** The fields named by `--json a,b`, or undefined for a bare `--json`. */
export function jsonFields(json: boolean | string | undefined): string[] | undefined {
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

export function wantsJson(json: boolean | string | undefined): boolean {
  return json !== undefined && json !== false;
}
