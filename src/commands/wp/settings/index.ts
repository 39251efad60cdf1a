// The `wp settings` group: the service's WordPress integration settings. One line per verb registers it;
// each verb is its own folder.
import type { Command } from 'commander';
import { addVerb, examples, type App } from '../../define.js';
import { replace } from './replace/command.js';
import { update } from './update/command.js';

export function registerSettings(wp: Command, app: App): void {
  const settings = wp.command('settings').description("change the service's WordPress integration settings");
  examples(settings, [
    'blogctl wp settings update --site myblog --auto-publish',
    'blogctl wp settings replace --from-sites --yes',
  ]);
  addVerb(settings, app, update);
  addVerb(settings, app, replace);
}
