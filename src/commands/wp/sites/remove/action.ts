// `wp sites remove <id>`: deletes the profile and its password (and a default-site that named it). The
// Application Password may exist nowhere else (WordPress shows it once), so it asks first, or needs --yes.
import type { Deps } from '../../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../../output/json.js';
import { deleteSite, loadSite } from '../../../../sites/profiles.js';
import { confirmOrYes } from '../../../confirm.js';
import type { Input } from './command.js';

export interface RemoveResult {
  id: string;
  removed: true;
  defaultUnset: boolean;
}

const REMOVE_FIELDS = fieldsOf<RemoveResult>({ id: true, removed: true, defaultUnset: true });

export async function action({ args, opts, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, REMOVE_FIELDS);
  const id = args[0];
  // An unknown id is exit 5 before anyone is asked about it.
  const site = loadSite(deps.store(), id);
  await confirmOrYes(
    {
      yes: opts.yes,
      command: 'wp sites remove',
      action: 'remove a site profile and its stored password',
      question: `Remove WordPress site "${id}" (${site.url}, user ${site.username}) and its stored Application Password?`,
      untouched: 'nothing was removed',
    },
    deps,
  );
  const result = await removeRun(id, deps);
  if (json.enabled) return json.print(deps.io, result);
  if (result.defaultUnset) deps.io.warn(`default-site was "${result.id}"; it is now unset`);
  deps.io.success(`Removed WordPress site "${result.id}" and its stored password`);
}

/** An unknown id fails with exit 5 (not found), before anything is written. */
export async function removeRun(id: string, deps: Pick<Deps, 'store'>): Promise<RemoveResult> {
  const store = deps.store();
  loadSite(store, id);
  const { defaultUnset } = await deleteSite(store, id);
  return { id, removed: true, defaultUnset };
}
