// `wp sites show <id>`: one profile as `key: value` lines, or `--json [fields]`. Never the password.
import type { Deps } from '../../../../factory.js';
import { jsonOutput } from '../../../../output/json.js';
import { loadSite, siteView, type SiteView } from '../../../../sites/profiles.js';
import type { Input } from './command.js';
import { SITE_VIEW_FIELDS } from '../fields.js';

export async function action({ args, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, SITE_VIEW_FIELDS);
  const site = loadSite(deps.store(), args[0]);
  const view = siteView(site, deps.settings().defaultSite);
  if (json.enabled) return json.print(deps.io, view);
  // -q: only the id (exit 5 for an unknown one still says whether it exists).
  if (deps.io.quiet) return deps.io.out(view.id);
  // The service's fields only for a profile the service has heard of (`wp settings update`): a local one
  // (`wp sites add`) has none, and "auto-publish: no" would read as a setting made.
  const local = site.autoPublish === undefined && site.isIntegrated === undefined;
  const rows: [string, string][] = [
    ['id', view.id],
    ['url', view.url],
    ['username', view.username],
    ['label', view.label ?? ''],
    ...(local
      ? []
      : ([
          ['auto-publish', view.autoPublish ? 'yes' : 'no'],
          ['integrated', view.isIntegrated === null ? 'unknown' : view.isIntegrated ? 'yes' : 'no'],
        ] as [string, string][])),
    ['website valid', view.isWebsiteValid === null ? 'unknown' : view.isWebsiteValid ? 'yes' : 'no'],
    ['verified at', view.verifiedAt ?? 'never (blogctl wp sites verify ' + view.id + ')'],
    ['password', view.password],
    ['default', view.default ? 'yes' : 'no'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  deps.io.out(rows.map(([k, v]) => `${`${k}:`.padEnd(width)}${v}`).join('\n'));
}

/** An unknown id fails with exit 5 (not found). */
export function showRun(id: string, deps: Pick<Deps, 'store' | 'settings'>): SiteView {
  return siteView(loadSite(deps.store(), id), deps.settings().defaultSite);
}
