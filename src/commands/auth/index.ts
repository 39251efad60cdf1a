import type { Command } from 'commander';
import { examples, lazyAction, whenUsed, type App } from '../define.js';

export function registerAuth(program: Command, app: App): void {
  const auth = program.command('auth').description('log in with an API key, check it, log out');
  examples(auth, ['blogctl auth login', 'blogctl auth status']);
  whenUsed(auth, () => declareAuthVerbs(auth, app));
}

function declareAuthVerbs(auth: Command, app: App): void {
  examples(
    auth
      .command('login')
      .description('store an API key for the selected profile (hidden prompt, or stdin: --with-key)')
      .option('--with-key', 'read the API key from stdin (first line)')
      .option('--no-verify', 'store the key without checking it against the service')
      .action(lazyAction(app, () => import('./login.js'))),
    [
      'blogctl auth login --base-url https://api.example.com',
      'printf %s "$KEY" | blogctl auth login --with-key --profile work',
    ],
  );
  examples(
    auth
      .command('status')
      .description('show the base URL, the masked API key and whether the service accepts it')
      .action(lazyAction(app, () => import('./status.js'))),
    ['blogctl auth status', 'blogctl auth status --json'],
  );
  examples(
    auth
      .command('logout')
      .description('remove the stored API key of the selected profile')
      .action(lazyAction(app, () => import('./logout.js'))),
    ['blogctl auth logout --profile work'],
  );
}
