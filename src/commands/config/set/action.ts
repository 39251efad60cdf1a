import { findKey } from '../../../config/keys.js';
import { NotFoundError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { jsonOutput } from '../../../output/json.js';
import { setRun } from '../stored.js';
import type { Input } from './command.js';

export async function action({ args, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['key', 'value']);
  const key = findKey(args[0]);
  const value = key.parse(args[1]);
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
