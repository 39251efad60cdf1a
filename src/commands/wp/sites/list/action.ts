// `wp sites list`: a table on a terminal, TSV when piped, `--json [fields]`. Never a password: only
// whether one is stored.
import type { Deps } from '../../../../factory.js';
import { jsonOutput } from '../../../../output/json.js';
import { printTable } from '../../../../output/table.js';
import { readSites, siteView, type SiteView } from '../../../../sites/profiles.js';
import type { Input } from './command.js';
import { SITE_VIEW_FIELDS } from '../fields.js';

export async function action({ deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, SITE_VIEW_FIELDS);
  const views = listRun(deps);
  if (json.enabled) return json.print(deps.io, views);
  // -q: only what identifies each row, as `blog list -q` prints ids (an empty list prints nothing).
  if (deps.io.quiet) {
    if (views.length) deps.io.out(views.map((v) => v.id).join('\n'));
    return;
  }
  if (!views.length) {
    deps.io.note(
      'No WordPress site profiles yet. Add one with `blogctl wp sites add <id> --url <site> --username <user>`.',
    );
    return;
  }
  printTable(
    deps.io,
    [
      // ID and URL are what a person copies: never cut. The others give way on a narrow terminal.
      {
        header: 'ID',
        value: (s: SiteView) => (s.default && deps.io.stdoutIsTTY ? `${s.id} *` : s.id),
        copy: true,
      },
      { header: 'URL', value: (s) => s.url, copy: true },
      { header: 'USERNAME', value: (s) => s.username, drop: 4 },
      { header: 'LABEL', value: (s) => s.label ?? '', flexible: true, drop: 3 },
      { header: 'AUTO-PUBLISH', value: (s) => (s.autoPublish ? 'yes' : 'no'), drop: 1 },
      { header: 'PASSWORD', value: (s) => s.password, drop: 2 },
    ],
    views,
  );
  if (deps.io.stdoutIsTTY && views.some((v) => v.default)) deps.io.note('* default-site');
}

export function listRun(deps: Pick<Deps, 'store' | 'settings'>): SiteView[] {
  const defaultSite = deps.settings().defaultSite;
  return readSites(deps.store()).map((s) => siteView(s, defaultSite));
}
