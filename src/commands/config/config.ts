// config get|set|unset|list|path. Small enough to share one file; each verb is its own exported action.
import { CONFIG_KEYS, findKey, type ConfigKey } from '../../config/keys.js';
import type { ConfigData } from '../../config/store.js';
import { NotFoundError, UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { jsonOutput } from '../../output/json.js';
import { printTable } from '../../output/table.js';
import type { ActionInput } from '../define.js';

export function readKey(data: ConfigData, key: ConfigKey, profile: string): string | number | undefined {
  if (key.name === 'base-url') return data.profiles?.[profile]?.baseUrl;
  return data.settings?.[key.name];
}

export async function getAction({ args, deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['key', 'value', 'default']);
  const key = findKey(String(args[0]));
  const stored = readKey(deps.store().readConfig(), key, deps.settings().profile);
  // An unset key with a default is not an error: the default is the value in force.
  const value = stored ?? key.default;
  const isDefault = stored === undefined && key.default !== undefined;
  if (json.enabled) return json.print(deps.io, { key: key.name, value: value ?? null, default: isDefault });
  if (value === undefined) throw new UsageError(`${key.name} is not set`);
  deps.io.out(String(value));
  if (isDefault) deps.io.note(`(${key.name} is not set: ${value} is the default)`);
}

export async function setAction({ args, deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['key', 'value']);
  const key = findKey(String(args[0]));
  const value = key.parse(String(args[1]));
  if (key.name === 'default-site') checkSiteExists(String(value), deps);
  await setRun(key, value, deps);
  // The value as stored: a number for the numeric settings.
  if (json.enabled) return json.print(deps.io, { key: key.name, value });
  deps.io.success(`${key.name} = ${value}`);
}

/** A default-site naming no site profile would fail every later publish: exit 5 now, naming the ones there are. */
function checkSiteExists(id: string, deps: Pick<Deps, 'store'>): void {
  const sites = Object.keys(deps.store().readConfig().sites ?? {}).sort();
  if (sites.includes(id)) return;
  throw new NotFoundError(
    `default-site: no WordPress site profile "${id}" (${sites.length ? `sites: ${sites.join(', ')}` : 'there are none yet'})`,
    { hints: [`add it first with \`blogctl wp sites add ${id} --url <site> --username <user>\``] },
  );
}

/** Stores (or, with undefined, removes) the setting; returns the value it had before. */
export async function setRun(
  key: ConfigKey,
  value: string | number | undefined,
  deps: Pick<Deps, 'store' | 'settings'>,
): Promise<string | number | undefined> {
  const { profile } = deps.settings();
  let before: string | number | undefined;
  await deps.store().updateConfig((c) => {
    before = readKey(c, key, profile);
    if (key.scope === 'profile') {
      c.profiles ??= {};
      const p = { ...c.profiles[profile] };
      if (value === undefined) delete p.baseUrl;
      else p.baseUrl = String(value);
      c.profiles[profile] = p;
    } else {
      c.settings ??= {};
      if (value === undefined) delete c.settings[key.name];
      else c.settings[key.name] = value;
    }
  });
  return before;
}

export async function unsetAction({ args, deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['key', 'removed']);
  const key = findKey(String(args[0]));
  const before = await setRun(key, undefined, deps);
  // `removed`: whether there was a value to remove (unsetting an unset key is not an error).
  if (json.enabled) return json.print(deps.io, { key: key.name, removed: before !== undefined });
  deps.io.success(`${key.name} unset`);
}

export async function listAction({ deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['profile', 'settings', 'defaults']);
  const data = deps.store().readConfig();
  const { profile } = deps.settings();
  const rows = CONFIG_KEYS.map((k) => ({
    key: k.name,
    value: readKey(data, k, profile) ?? null,
    default: k.default ?? null,
    scope: k.scope === 'profile' ? `profile ${profile}` : 'global',
    description: k.description,
  }));
  // `settings` holds what is stored (null: unset); `defaults` what applies to an unset key.
  if (json.enabled)
    return json.print(deps.io, {
      profile,
      settings: Object.fromEntries(rows.map((r) => [r.key, r.value])),
      defaults: Object.fromEntries(rows.filter((r) => r.default !== null).map((r) => [r.key, r.default])),
    });
  // -q: only the keys, the identifying column.
  if (deps.io.quiet) return deps.io.out(rows.map((r) => r.key).join('\n'));
  printTable(
    deps.io,
    [
      { header: 'KEY', value: (r: (typeof rows)[number]) => r.key, copy: true },
      {
        header: 'VALUE',
        value: (r) => r.value ?? (r.default !== null ? `${r.default} (default)` : ''),
        copy: true,
      },
      { header: 'SCOPE', value: (r) => r.scope, drop: 1 },
      { header: 'DESCRIPTION', value: (r) => r.description, wrap: true, min: 24 },
    ],
    rows,
  );
}

export async function pathAction({ deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['dir', 'config', 'credentials']);
  const store = deps.store();
  if (json.enabled)
    return json.print(deps.io, {
      dir: store.dir,
      config: store.configPath,
      credentials: store.credentialsPath,
    });
  deps.io.out(store.dir);
}
