import { findKey } from '../../../config/keys.js';
import { jsonOutput } from '../../../output/json.js';
import { setRun } from '../stored.js';
import type { Input } from './command.js';

export async function action({ args, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['key', 'removed']);
  const key = findKey(args[0]);
  const before = await setRun(key, undefined, deps);
  // `removed`: whether there was a value to remove (unsetting an unset key is not an error).
  if (json.enabled) return json.print(deps.io, { key: key.name, removed: before !== undefined });
  deps.io.success(`${key.name} unset`);
}
