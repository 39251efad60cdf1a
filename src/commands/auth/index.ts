import type { Command } from 'commander';
import { examples, jsonFields, lazyAction, whenUsed, type App } from '../define.js';

export function registerAuth(program: Command, app: App): void {
  const auth = program
    .command('auth')
    .description('account profiles: log in with an API key, list and check them, switch, log out');
  examples(auth, ['blogctl auth login', 'blogctl auth status', 'blogctl auth switch work']);
  whenUsed(auth, () => declareAuthVerbs(auth, app));
}

function declareAuthVerbs(auth: Command, app: App): void {
  examples(
    jsonFields(
      auth
        .command('login')
        .description('store an API key for the selected profile (hidden prompt, or stdin: --with-key)')
        .option('--with-key', 'read the API key from stdin (first line)')
        .option('--no-verify', 'store the key without checking it against the service')
        .action(lazyAction(app, () => import('./login.js'))),
      ['profile', 'baseUrl', 'key', 'verified'],
    ),
    [
      'blogctl auth login --base-url https://api.example.com',
      'printf %s "$KEY" | blogctl auth login --with-key --profile work --base-url https://api.example.com',
    ],
  );
  examples(
    jsonFields(
      auth
        .command('status')
        .description("list every profile; check that the service accepts the active one's key")
        .action(lazyAction(app, () => import('./status.js'))),
      ['profile', 'baseUrl', 'baseUrlSource', 'apiKey', 'apiKeySource', 'accepted', 'problem', 'profiles'],
    ),
    ['blogctl auth status', 'blogctl auth status --json', 'blogctl auth status -q'],
  );
  examples(
    jsonFields(
      auth
        .command('switch <profile>')
        .description('make a profile the active one (when neither --profile nor BLOGCTL_PROFILE says)')
        .action(lazyAction(app, () => import('./switch.js'))),
      ['profile', 'previous'],
    ),
    ['blogctl auth switch work'],
  );
  examples(
    jsonFields(
      auth
        .command('token')
        .description('print the API key in use, unmasked, alone on stdout (for scripts)')
        .action(lazyAction(app, () => import('./token.js'))),
      'none',
    ),
    [
      'curl -H "Authorization: Bearer $(blogctl auth token)" "$(blogctl config get base-url)/api/v1/public/get-all-blogs"',
    ],
  );
  examples(
    jsonFields(
      auth
        .command('logout')
        .description('remove the selected profile: its API key and base URL (asks, or --yes)')
        .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)')
        .action(lazyAction(app, () => import('./logout.js'))),
      ['profile', 'removed', 'activeUnset'],
    ),
    ['blogctl auth logout --profile work', 'blogctl auth logout --profile work --yes'],
  );
}
