// `wp sites show <id>`: one profile as `key: value` lines, or `--json [fields]`. Never the password.
import type { Deps } from '../../../../factory.js';
import { jsonOutput } from '../../../../output/json.js';
import { loadSite, siteView, type SiteView } from '../../../../sites/profiles.js';
import type { Input } from './command.js';
import { SITE_VIEW_FIELDS } from '../fields.js';

export async function action({ args, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, SITE_VIEW_FIELDS);
  const view = showRun(args[0], deps);
  if (json.enabled) return json.print(deps.io, view);
  // -q: only the id (exit 5 for an unknown one still says whether it exists).
  if (deps.io.quiet) return deps.io.out(view.id);
  const rows: [string, string][] = [
    ['id', view.id],
    ['url', view.url],
    ['username', view.username],
    ['label', view.label ?? ''],
    ['auto-publish', view.autoPublish ? 'yes' : 'no'],
    ['integrated', view.isIntegrated === null ? 'unknown' : view.isIntegrated ? 'yes' : 'no'],
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
