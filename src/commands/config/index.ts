// The `config` group: local settings. One line per verb registers it; each verb is its own folder.
import type { Command } from 'commander';
import { addVerb, examples, whenUsed, type App } from '../define.js';
import { get } from './get/command.js';
import { list } from './list/command.js';
import { path } from './path/command.js';
import { set } from './set/command.js';
import { unset } from './unset/command.js';

export function registerConfig(program: Command, app: App): void {
  const config = program
    .command('config')
    .description('read and change local settings (base-url, timeout, default-site, …)');
  examples(config, ['blogctl config set base-url https://api.example.com', 'blogctl config list']);
  whenUsed(config, () => {
    addVerb(config, app, get);
    addVerb(config, app, set);
    addVerb(config, app, unset);
    addVerb(config, app, list);
    addVerb(config, app, path);
  });
}
