// `blogctl __complete sites|profiles`: names from the local config, one per line, for the completion scripts.
// Runs on every TAB press: reads the JSON files directly, and on any failure (no config, a file that does not
// parse, an unknown kind) prints nothing, so a broken config never spills an error into the prompt.
import { accountProfiles } from '../../config/resolve.js';
import { ConfigStore } from '../../config/store.js';
import { configDir } from '../../config/paths.js';
import type { DynamicKind } from '../completion/model.js';
import type { Input } from './command.js';

export function completionValues(kind: string, env: NodeJS.ProcessEnv): string[] {
  try {
    const store = new ConfigStore(configDir(env));
    const k = kind as DynamicKind;
    if (k === 'sites') return Object.keys(store.readConfig().sites ?? {}).sort();
    // The same list as `auth status` and the check of --profile (`default` always exists).
    if (k === 'profiles') return accountProfiles(store.readConfig(), { apiKeys: readApiKeyNames(store) });
  } catch {
    // Nothing to offer.
  }
  return [];
}

/** A profile may exist only as a stored key; only the names are used, never the keys. */
function readApiKeyNames(store: ConfigStore): Record<string, string> {
  try {
    return store.readCredentials().apiKeys ?? {};
  } catch {
    return {};
  }
}

export async function action({ args, deps }: Input): Promise<void> {
  // The scripts split on blanks: a name holding one could not be offered as one word.
  const values = completionValues(args[0] ?? '', deps.env).filter((v) => v && !/\s/.test(v));
  if (values.length) deps.io.outRaw(`${values.join('\n')}\n`);
}
