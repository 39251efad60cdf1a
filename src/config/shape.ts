// The shape config.json and credentials.json must have before blogctl uses or rewrites them. A file of the
// wrong shape (`{"profiles": "nope"}`, `{"sites": [1, 2]}`) would otherwise be used silently: a login that
// stores nothing, or a site list rewritten into `{"0": 1, "1": 2, …}`. Unknown keys are kept (a newer
// blogctl may have written them); only the fields this version reads are checked.
//
// Checked by hand rather than with zod: every command reads config.json on its way in, and commands that use
// zod nowhere else (`config get`, `wp sites list`, `auth logout`) must not load it for this. Values never
// appear in a message: credentials.json holds secrets, and config.json may hold a pasted one.
import { CONFIG_KEYS } from './keys.js';

type Check = (value: unknown, field: string) => string | undefined;

const text: Check = (v, field) =>
  typeof v === 'string' ? undefined : `"${field}" must be text, not ${kind(v)}`;
const flag: Check = (v, field) =>
  typeof v === 'boolean' ? undefined : `"${field}" must be true or false, not ${kind(v)}`;
const textList: Check = (v, field) =>
  Array.isArray(v) && v.every((item) => typeof item === 'string')
    ? undefined
    : `"${field}" must be a list of names, not ${kind(v)}`;

/** An object with these fields (required ones marked), any other keys left alone. */
function object(fields: Record<string, Check>, required: string[] = []): Check {
  return (v, field) => {
    if (!isObject(v)) return `"${field}" must be an object, not ${kind(v)}`;
    for (const name of required) if (v[name] === undefined) return `"${join(field, name)}" is missing`;
    for (const [name, check] of Object.entries(fields)) {
      if (v[name] === undefined) continue;
      const problem = check(v[name], join(field, name));
      if (problem) return problem;
    }
    return undefined;
  };
}

/** An object whose every value passes `each` (profiles by name, sites by id). */
function recordOf(each: Check, what: string): Check {
  return (v, field) => {
    if (!isObject(v)) return `"${field}" must be an object of ${what} by name, not ${kind(v)}`;
    for (const [name, value] of Object.entries(v)) {
      const problem = each(value, join(field, name));
      if (problem) return problem;
    }
    return undefined;
  };
}

/** A setting blogctl knows must be what `config set` would have stored for it; others are kept as they are. */
const setting: Check = (v, field) => {
  const name = field.slice(field.indexOf('.') + 1);
  const key = CONFIG_KEYS.find((k) => k.name === name && k.scope === 'global');
  if (!key)
    return typeof v === 'string' || typeof v === 'number' ? undefined : `"${field}" must be text or a number`;
  if (typeof v !== 'string' && typeof v !== 'number')
    return `"${field}" must be text or a number, not ${kind(v)}`;
  let stored: string | number;
  try {
    stored = key.parse(String(v));
  } catch {
    return `"${field}" is not a valid ${name}`;
  }
  if (typeof stored !== typeof v)
    return `"${field}" must be ${typeof stored === 'number' ? 'a number' : 'text'}`;
  return undefined;
};

const configFile = object({
  currentProfile: text,
  profiles: recordOf(object({ baseUrl: text }), 'profiles'),
  settings: recordOf(setting, 'settings'),
  sites: recordOf(
    object(
      {
        url: text,
        username: text,
        label: text,
        autoPublish: flag,
        isIntegrated: flag,
        isWebsiteValid: flag,
        verifiedAt: text,
      },
      ['url', 'username'],
    ),
    'site profiles',
  ),
});

const credentialsFile = object({
  apiKeys: recordOf(text, 'API keys'),
  sitePasswords: recordOf(text, 'passwords'),
  keyring: object({ service: text, apiKeys: textList, sitePasswords: textList }, ['service']),
});

/** What is wrong with config.json's content (already known to be a JSON object), or undefined. */
export function configShapeProblem(data: Record<string, unknown>): string | undefined {
  return configFile(data, '');
}

/** The same for credentials.json. */
export function credentialsShapeProblem(data: Record<string, unknown>): string | undefined {
  return credentialsFile(data, '');
}

function join(parent: string, name: string): string {
  return parent ? `${parent}.${name}` : name;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return typeof v;
}
