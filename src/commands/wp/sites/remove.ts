// `wp sites remove <id>`: deletes the profile and its password (and a default-site that named it). Local
// only, and re-creatable with `sites add`, so it does not ask for confirmation.
import type { Deps } from '../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../output/json.js';
import { deleteSite, loadSite } from '../../../sites/profiles.js';
import type { ActionInput } from '../../define.js';

export interface RemoveResult {
  id: string;
  removed: true;
  defaultUnset: boolean;
}

const REMOVE_FIELDS = fieldsOf<RemoveResult>({ id: true, removed: true, defaultUnset: true });

export async function action({ args, deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, REMOVE_FIELDS);
  const result = await removeRun(String(args[0]), deps);
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
