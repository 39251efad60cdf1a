import { CONFIG_KEYS } from '../../../config/keys.js';
import { jsonOutput } from '../../../output/json.js';
import { printTable } from '../../../output/table.js';
import { readKey } from '../stored.js';
import type { Input } from './command.js';

export async function action({ deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, ['profile', 'settings', 'defaults']);
  const data = deps.store().readConfig();
  const { profile } = deps.settings();
  const rows = CONFIG_KEYS.map((k) => ({
    key: k.name,
    value: readKey(data, k, profile) ?? null,
    default: k.default ?? null,
    scope: k.scope === 'profile' ? `profile ${profile}` : 'global',
    description: k.description,
  }));
  // `settings` holds what is stored (null: unset); `defaults` what applies to an unset key.
  if (json.enabled)
    return json.print(deps.io, {
      profile,
      settings: Object.fromEntries(rows.map((r) => [r.key, r.value])),
      defaults: Object.fromEntries(rows.filter((r) => r.default !== null).map((r) => [r.key, r.default])),
    });
  // -q: only the keys, the identifying column.
  if (deps.io.quiet) return deps.io.out(rows.map((r) => r.key).join('\n'));
  printTable(
    deps.io,
    [
      { header: 'KEY', value: (r: (typeof rows)[number]) => r.key, copy: true },
      {
        header: 'VALUE',
        value: (r) => r.value ?? (r.default !== null ? `${r.default} (default)` : ''),
        copy: true,
      },
      { header: 'SCOPE', value: (r) => r.scope, drop: 1 },
      { header: 'DESCRIPTION', value: (r) => r.description, wrap: true, min: 24 },
    ],
    rows,
  );
}
