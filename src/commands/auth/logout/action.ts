// `auth logout`: removes the selected account profile: its API key and its base URL (and makes `default` the
// active profile if it was this one). The key may be stored nowhere else, so it asks first, or needs --yes.
import { DEFAULT_PROFILE } from '../../../config/store.js';
import type { Deps } from '../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../output/json.js';
import { maskSecret } from '../../../output/redact.js';
import { confirmOrYes } from '../../confirm.js';
import type { Input } from './command.js';

export interface LogoutResult {
  profile: string;
  /** Whether there was anything stored to remove. */
  removed: boolean;
  /** The profile was the active one (currentProfile); `default` is now. */
  activeUnset: boolean;
}

const LOGOUT_FIELDS = fieldsOf<LogoutResult>({ profile: true, removed: true, activeUnset: true });

export async function action({ opts, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, LOGOUT_FIELDS);
  // An unknown --profile is exit 5 here, before anyone is asked.
  const { profile } = deps.settings();
  const stored = storedOf(deps, profile);
  if (stored.baseUrl !== undefined || stored.apiKey !== undefined) {
    const what = [
      stored.apiKey !== undefined && `key ${maskSecret(stored.apiKey)}`,
      stored.baseUrl !== undefined && stored.baseUrl,
    ].filter(Boolean);
    await confirmOrYes(
      {
        yes: opts.yes,
        command: 'auth logout',
        action: 'remove an account profile',
        question: `Log out of "${profile}", removing it (${what.join(', ')})?`,
        untouched: 'nothing was removed',
      },
      deps,
    );
  }
  const result = await logoutRun(profile, deps);
  if (json.enabled) json.print(deps.io, result);
  else if (result.removed) deps.io.note(`Removed profile "${profile}": its API key and base URL.`);
  else deps.io.note(`Profile "${profile}" had nothing stored.`);
  if (result.activeUnset) deps.io.warn(`"${profile}" was the active profile; "${DEFAULT_PROFILE}" is now`);
  if (deps.env['BLOGCTL_API_KEY'])
    deps.io.warn('BLOGCTL_API_KEY is still set in the environment and will be used');
}

function storedOf(deps: Pick<Deps, 'store'>, profile: string): { baseUrl?: string; apiKey?: string } {
  const store = deps.store();
  const baseUrl = store.readConfig().profiles?.[profile]?.baseUrl;
  const apiKey = store.readCredentials().apiKeys?.[profile];
  return { ...(baseUrl !== undefined && { baseUrl }), ...(apiKey !== undefined && { apiKey }) };
}

/** The key goes first: a failure in between leaves a profile with a base URL only, which a rerun removes. */
export async function logoutRun(profile: string, deps: Pick<Deps, 'store'>): Promise<LogoutResult> {
  let removed = false;
  let activeUnset = false;
  const store = deps.store();
  await store.updateCredentials((c) => {
    if (c.apiKeys?.[profile] !== undefined) {
      delete c.apiKeys[profile];
      removed = true;
    }
  });
  await store.updateConfig((c) => {
    if (c.profiles?.[profile] !== undefined) {
      delete c.profiles[profile];
      removed = true;
    }
    if (c.currentProfile === profile) {
      delete c.currentProfile;
      activeUnset = profile !== DEFAULT_PROFILE;
    }
  });
  return { profile, removed, activeUnset };
}
