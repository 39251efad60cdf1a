// The `wp sites` group: local WordPress site profiles. One line per verb registers it; each verb is its own
// folder.
import type { Command } from 'commander';
import { addVerb, examples, type App } from '../../define.js';
import { add } from './add/command.js';
import { list } from './list/command.js';
import { remove } from './remove/command.js';
import { setPassword } from './set-password/command.js';
import { show } from './show/command.js';
import { verify } from './verify/command.js';

export function registerSites(wp: Command, app: App): void {
  const sites = wp
    .command('sites')
    .description('local WordPress site profiles (URL, username, Application Password)');
  examples(sites, [
    'blogctl wp sites list',
    'blogctl wp sites show myblog --json',
    'blogctl wp sites verify myblog',
  ]);
  addVerb(sites, app, add);
  addVerb(sites, app, list);
  addVerb(sites, app, show);
  addVerb(sites, app, verify);
  addVerb(sites, app, setPassword);
  addVerb(sites, app, remove);
}
