import { AuthError, BlogctlError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { fieldsOf, jsonOutput } from '../../output/json.js';
import { maskSecret } from '../../output/redact.js';
import type { ActionInput } from '../define.js';

export interface AuthStatus {
  profile: string;
  baseUrl: string | null;
  baseUrlSource: string | null;
  apiKey: string | null;
  apiKeySource: string | null;
  accepted: boolean | null;
  problem?: string;
}

const STATUS_FIELDS = fieldsOf<AuthStatus>({
  profile: true,
  baseUrl: true,
  baseUrlSource: true,
  apiKey: true,
  apiKeySource: true,
  accepted: true,
  problem: true,
});

export async function action({ deps }: ActionInput): Promise<void> {
  const json = jsonOutput(deps.globals.json, STATUS_FIELDS);
  const status = await statusRun(deps);
  if (json.enabled) json.print(deps.io, status);
  else {
    const io = deps.io;
    const accepted =
      status.accepted === true
        ? io.paint('green', 'accepted')
        : status.accepted === false
          ? io.paint('red', 'rejected')
          : 'not checked';
    io.out(`profile:   ${status.profile}`);
    io.out(
      `base URL:  ${status.baseUrl ?? '(not set)'}${status.baseUrlSource ? ` (from ${status.baseUrlSource})` : ''}`,
    );
    io.out(
      `API key:   ${status.apiKey ?? '(none)'}${status.apiKeySource ? ` (from ${status.apiKeySource})` : ''}`,
    );
    io.out(`service:   ${accepted}${status.problem ? ` — ${status.problem}` : ''}`);
  }
  if (status.accepted === false || status.apiKey === null) {
    throw new AuthError(status.problem ?? 'not logged in');
  }
}

/** Never prints the key: only its masked form. */
export async function statusRun(deps: Pick<Deps, 'settings' | 'blogApi'>): Promise<AuthStatus> {
  const s = deps.settings();
  const status: AuthStatus = {
    profile: s.profile,
    baseUrl: s.sandbox ? 'in-process sandbox' : (s.baseUrl ?? null),
    baseUrlSource: s.sandbox ? 'sandbox' : (s.baseUrlSource ?? null),
    apiKey: s.sandbox ? 'sandbox' : s.apiKey ? maskSecret(s.apiKey) : null,
    apiKeySource: s.sandbox ? 'sandbox' : (s.apiKeySource ?? null),
    accepted: null,
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
    if (error instanceof AuthError) {
      status.accepted = false;
      status.problem = `the service rejected the key (HTTP ${error.context.status ?? '401'})`;
    } else if (error instanceof BlogctlError) {
      throw error;
    } else throw error;
  }
  return status;
}
