import type { Command } from 'commander';
import { examples, jsonFields, lazyAction, whenUsed, type App } from '../define.js';

export function registerConfig(program: Command, app: App): void {
  const config = program
    .command('config')
    .description('read and change local settings (base-url, timeout, default-site, …)');
  examples(config, ['blogctl config set base-url https://api.example.com', 'blogctl config list']);
  whenUsed(config, () => declareConfigVerbs(config, app));
}

function declareConfigVerbs(config: Command, app: App): void {
  const load = () => import('./config.js');
  examples(
    jsonFields(
      config
        .command('get <key>')
        .description('print one setting (an unset one: its default, said so on stderr)')
        .action(lazyAction(app, () => load().then((m) => ({ action: m.getAction })))),
      ['key', 'value', 'default'],
    ),
    ['blogctl config get base-url'],
  );
  examples(
    jsonFields(
      config
        .command('set <key> <value>')
        .description('change a setting (default-site must name an existing site profile)')
        .action(lazyAction(app, () => load().then((m) => ({ action: m.setAction })))),
      ['key', 'value'],
    ),
    [
      'blogctl config set base-url https://api.example.com',
      'blogctl config set timeout 120',
      'blogctl config set default-site myblog',
    ],
  );
  examples(
    jsonFields(
      config
        .command('unset <key>')
        .description('remove a setting')
        .action(lazyAction(app, () => load().then((m) => ({ action: m.unsetAction })))),
      ['key', 'removed'],
    ),
    ['blogctl config unset default-site'],
  );
  examples(
    jsonFields(
      config
        .command('list')
        .description('show every setting and its value (or default); -q: only the keys')
        .action(lazyAction(app, () => load().then((m) => ({ action: m.listAction })))),
      ['profile', 'settings', 'defaults'],
    ),
    ['blogctl config list', 'blogctl config list --json'],
  );
  examples(
    jsonFields(
      config
        .command('path')
        .description('print where the config lives')
        .action(lazyAction(app, () => load().then((m) => ({ action: m.pathAction })))),
      ['dir', 'config', 'credentials'],
    ),
    ['blogctl config path'],
  );
}
