// The `wp` group: local site profiles (wp sites), the service's WordPress settings (wp settings), and
// publishing. One line per verb or nested group registers it; each verb is its own folder.
import type { Command } from 'commander';
import { addVerb, examples, whenUsed, type App } from '../define.js';
import { doctor } from './doctor/command.js';
import { init } from './init/command.js';
import { publish } from './publish/command.js';
import { pull } from './pull/command.js';
import { registerSettings } from './settings/index.js';
import { registerSites } from './sites/index.js';

export function registerWp(program: Command, app: App): void {
  const wp = program
    .command('wp')
    .description('WordPress: local site profiles, integration settings, publishing');
  examples(wp, [
    'printf %s "$WP_APP_PASSWORD" | blogctl wp sites add myblog --url https://blog.example.com --username editor --password-stdin',
    'blogctl wp publish --site myblog --title "Hello" --content "<p>Hi</p>" --status draft',
  ]);
  whenUsed(wp, () => {
    registerSites(wp, app);
    registerSettings(wp, app);
    addVerb(wp, app, publish);
    addVerb(wp, app, init);
    addVerb(wp, app, pull);
    addVerb(wp, app, doctor);
  });
}
