// `auth status`: every account profile (base URL, masked key, which is active), then whether the service
// accepts the active one (exit 4 if not). Only the active profile is checked: the others may point at
// services this machine cannot reach, and checking them would make the command as slow as the slowest.
import { accountProfiles } from '../../../config/resolve.js';
import { AuthError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../output/json.js';
import { maskSecret } from '../../../output/redact.js';
import { printTable } from '../../../output/table.js';
import type { Input } from './command.js';

/** One stored profile, as listed: never the key itself, only its masked form. */
export interface ProfileView {
  name: string;
  baseUrl: string | null;
  apiKey: string | null;
  active: boolean;
}

/** The active profile's settings in force (flag and environment included) and the service's verdict. */
export interface AuthStatus {
  profile: string;
  baseUrl: string | null;
  baseUrlSource: string | null;
  apiKey: string | null;
  apiKeySource: string | null;
  accepted: boolean | null;
  problem?: string;
  profiles: ProfileView[];
}

const STATUS_FIELDS = fieldsOf<AuthStatus>({
  profile: true,
  baseUrl: true,
  baseUrlSource: true,
  apiKey: true,
  apiKeySource: true,
  accepted: true,
  problem: true,
  profiles: true,
});

export async function action({ deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, STATUS_FIELDS);
  const status = await statusRun(deps);
  const io = deps.io;
  if (json.enabled) json.print(io, status);
  // -q: only the active profile's name; the exit code still says whether the service accepts its key.
  else if (io.quiet) io.out(status.profile);
  else {
    printTable(
      io,
      [
        { header: 'PROFILE', value: (p: ProfileView) => p.name },
        { header: 'BASE URL', value: (p) => p.baseUrl ?? '(not set)' },
        { header: 'API KEY', value: (p) => p.apiKey ?? '(none)' },
        { header: 'ACTIVE', value: (p) => (p.active ? 'yes' : '') },
      ],
      status.profiles,
    );
    // The reason in a few words: the whole of it (with what to run) is the error line, or the warning below.
    const accepted =
      status.accepted === true
        ? io.paint('green', 'accepted')
        : status.accepted === false
          ? io.paint('red', 'rejected')
          : `not checked (${status.apiKey === null ? 'no API key' : 'no base URL'})`;
    // Piped, stdout holds only the rows (one per profile, tab-separated): the check of the active profile is
    // the exit code (and the one error line), as everywhere else; --json has all of it.
    if (io.stdoutIsTTY) {
      io.out('');
      io.out(`profile:   ${status.profile} (active)`);
      io.out(
        `base URL:  ${status.baseUrl ?? '(not set)'}${status.baseUrlSource ? ` (from ${status.baseUrlSource})` : ''}`,
      );
      io.out(
        `API key:   ${status.apiKey ?? '(none)'}${status.apiKeySource ? ` (from ${status.apiKeySource})` : ''}`,
      );
      io.out(`service:   ${accepted}`);
    }
    if (status.accepted === null && status.apiKey !== null && status.problem) io.warn(status.problem);
  }
  if (status.accepted === false || status.apiKey === null) {
    throw new AuthError(status.problem ?? 'not logged in');
  }
}

/** Never holds a key: only masked forms. */
export async function statusRun(deps: Pick<Deps, 'settings' | 'blogApi' | 'store'>): Promise<AuthStatus> {
  const s = deps.settings();
  const status: AuthStatus = {
    profile: s.profile,
    baseUrl: s.sandbox ? 'in-process sandbox' : (s.baseUrl ?? null),
    baseUrlSource: s.sandbox ? 'sandbox' : (s.baseUrlSource ?? null),
    apiKey: s.sandbox ? 'sandbox' : s.apiKey ? maskSecret(s.apiKey) : null,
    apiKeySource: s.sandbox ? 'sandbox' : (s.apiKeySource ?? null),
    accepted: null,
    profiles: listProfiles(deps, s.profile),
  };
  if (!s.sandbox && !s.apiKey) {
    status.problem = 'no API key: run `blogctl auth login` or set BLOGCTL_API_KEY';
    return status;
  }
  if (!s.sandbox && !s.baseUrl) {
    status.problem = 'no base URL: run `blogctl config set base-url <url>`';
    return status;
  }
  try {
    await (await deps.blogApi()).countBlogs();
    status.accepted = true;
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    status.accepted = false;
    status.problem = `the service rejected the key (HTTP ${error.context.status ?? '401'})`;
  }
  return status;
}

/** What each profile has stored (not the flag or environment, which apply to the active one only). */
export function listProfiles(deps: Pick<Deps, 'store'>, active: string): ProfileView[] {
  const store = deps.store();
  const config = store.readConfig();
  const credentials = store.readCredentials();
  return accountProfiles(config, credentials).map((name) => {
    const key = credentials.apiKeys?.[name];
    return {
      name,
      baseUrl: config.profiles?.[name]?.baseUrl ?? null,
      apiKey: key ? maskSecret(key) : null,
      active: name === active,
    };
  });
}
