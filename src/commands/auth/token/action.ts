// `auth token`: the API key in use (BLOGCTL_API_KEY, or the active profile's stored one), alone on stdout, for
// scripts: `curl -H "Authorization: Bearer $(blogctl auth token)" …`. The one place blogctl prints a secret,
// and only because it was asked to: it is written past redact() (which would print `***`), and never to
// stderr, a note or the --debug log.
import { AuthError, UsageError } from '../../../errors.js';
import { SANDBOX_KEY, type Deps } from '../../../factory.js';
import type { Input } from './command.js';

export async function action({ deps }: Input): Promise<void> {
  // A key inside JSON would be one more shape of it to leak into logs; a script wants the bare key.
  if (deps.globals.json !== undefined)
    throw new UsageError('auth token prints only the bare key: --json is not accepted here');
  const key = tokenRun(deps);
  deps.io.stdout.write(`${key}\n`);
}

export function tokenRun(deps: Pick<Deps, 'settings'>): string {
  const s = deps.settings();
  if (s.sandbox) return SANDBOX_KEY;
  if (!s.apiKey)
    throw new AuthError(
      `no API key for profile "${s.profile}": run \`blogctl auth login\` or set BLOGCTL_API_KEY`,
    );
  return s.apiKey;
}
