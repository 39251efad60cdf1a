// What `config get`, `set`, `unset` and `list` share: a key's stored value, read and written.
import type { ConfigKey } from '../../config/keys.js';
import type { ConfigData } from '../../config/store.js';
import type { Deps } from '../../factory.js';

export function readKey(data: ConfigData, key: ConfigKey, profile: string): string | number | undefined {
  if (key.name === 'base-url') return data.profiles?.[profile]?.baseUrl;
  return data.settings?.[key.name];
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
