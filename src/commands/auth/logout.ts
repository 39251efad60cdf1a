import type { Deps } from '../../factory.js';
import { jsonOutput } from '../../output/json.js';
import type { ActionInput } from '../define.js';

export async function action({ deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['profile', 'removed']);
  const { profile, removed } = await logoutRun(deps);
  if (json.enabled) return json.print(deps.io, { profile, removed });
  if (removed) deps.io.note(`Removed the API key of profile "${profile}".`);
  else deps.io.note(`Profile "${profile}" had no stored API key.`);
  if (deps.env['BLOGCTL_API_KEY'])
    deps.io.warn('BLOGCTL_API_KEY is still set in the environment and will be used');
}

export async function logoutRun(
  deps: Pick<Deps, 'settings' | 'store'>,
): Promise<{ profile: string; removed: boolean }> {
  const { profile } = deps.settings();
  let removed = false;
  await deps.store().updateCredentials((c) => {
    if (c.apiKeys?.[profile] !== undefined) {
      delete c.apiKeys[profile];
      removed = true;
    }
  });
  return { profile, removed };
}
