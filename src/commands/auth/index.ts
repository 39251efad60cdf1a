// The `auth` group: account profiles. One line per verb registers it; each verb is its own folder.
import type { Command } from 'commander';
import { addVerb, examples, whenUsed, type App } from '../define.js';
import { login } from './login/command.js';
import { logout } from './logout/command.js';
import { status } from './status/command.js';
import { switchProfile } from './switch/command.js';
import { token } from './token/command.js';

export function registerAuth(program: Command, app: App): void {
  const auth = program
    .command('auth')
    .description('account profiles: log in with an API key, list and check them, switch, log out');
  examples(auth, ['blogctl auth login', 'blogctl auth status', 'blogctl auth switch work']);
  whenUsed(auth, () => {
    addVerb(auth, app, login);
    addVerb(auth, app, status);
    addVerb(auth, app, switchProfile);
    addVerb(auth, app, token);
    addVerb(auth, app, logout);
  });
}
