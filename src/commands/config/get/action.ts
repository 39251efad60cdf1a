import { findKey } from '../../../config/keys.js';
import { UsageError } from '../../../errors.js';
import { jsonOutput } from '../../../output/json.js';
import { readKey } from '../stored.js';
import type { Input } from './command.js';

export async function action({ args, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['key', 'value', 'default']);
  const key = findKey(args[0]);
  const stored = readKey(deps.store().readConfig(), key, deps.settings().profile);
  // An unset key with a default is not an error: the default is the value in force.
  const value = stored ?? key.default;
  const isDefault = stored === undefined && key.default !== undefined;
  if (json.enabled) return json.print(deps.io, { key: key.name, value: value ?? null, default: isDefault });
  if (value === undefined) throw new UsageError(`${key.name} is not set`);
  deps.io.out(String(value));
  if (isDefault) deps.io.note(`(${key.name} is not set: ${value} is the default)`);
}
