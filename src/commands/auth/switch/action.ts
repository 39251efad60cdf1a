// `auth switch <profile>`: makes an existing account profile the one used when neither --profile nor
// BLOGCTL_PROFILE names one (config.json's currentProfile). Changes nothing else.
import { accountProfiles } from '../../../config/resolve.js';
import { DEFAULT_PROFILE } from '../../../config/store.js';
import { NotFoundError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { jsonOutput } from '../../../output/json.js';
import type { Input } from './command.js';

export interface SwitchResult {
  profile: string;
  previous: string;
}

export async function action({ args, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['profile', 'previous']);
  const result = await switchRun(args[0], deps);
  if (json.enabled) json.print(deps.io, result);
  else deps.io.success(`Active account profile: "${result.profile}" (was "${result.previous}")`);
  // The environment wins over the stored choice: say so, or the switch would seem not to work.
  const fromEnv = deps.env['BLOGCTL_PROFILE'];
  if (fromEnv && fromEnv !== result.profile)
    deps.io.warn(`BLOGCTL_PROFILE=${fromEnv} is set in the environment and wins over the active profile`);
}

/** An unknown profile is exit 5 naming the ones that exist, and nothing is written. */
export async function switchRun(name: string, deps: Pick<Deps, 'store'>): Promise<SwitchResult> {
  const store = deps.store();
  let previous = '';
  await store.updateConfig((config) => {
    const known = accountProfiles(config, store.readCredentials());
    if (!known.includes(name))
      throw new NotFoundError(`no account profile "${name}" (profiles: ${known.join(', ')})`, {
        hints: [`create it with \`blogctl auth login --profile ${name} --base-url <url>\``],
      });
    previous = config.currentProfile ?? DEFAULT_PROFILE;
    config.currentProfile = name;
  });
  return { profile: name, previous };
}
