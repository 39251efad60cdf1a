// `wp sites list`: a table on a terminal, TSV when piped, `--json [fields]`. Never a password: only
// whether one is stored.
import type { Deps } from '../../../factory.js';
import { jsonOutput } from '../../../output/json.js';
import { printTable } from '../../../output/table.js';
import { readSites, siteView, type SiteView } from '../../../sites/profiles.js';
import type { ActionInput } from '../../define.js';
import { SITE_VIEW_FIELDS } from './fields.js';

export async function action({ deps }: ActionInput): Promise<void> {
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
      { header: 'ID', value: (s: SiteView) => (s.default && deps.io.stdoutIsTTY ? `${s.id} *` : s.id) },
      { header: 'URL', value: (s) => s.url, flexible: true },
      { header: 'USERNAME', value: (s) => s.username },
      { header: 'LABEL', value: (s) => s.label ?? '', flexible: true },
      { header: 'AUTO-PUBLISH', value: (s) => (s.autoPublish ? 'yes' : 'no') },
      { header: 'PASSWORD', value: (s) => s.password },
    ],
    views,
  );
  if (deps.io.stdoutIsTTY && views.some((v) => v.default)) deps.io.note('* default-site');
}

export function listRun(deps: Pick<Deps, 'store' | 'settings'>): SiteView[] {
  const defaultSite = deps.settings().defaultSite;
  return readSites(deps.store()).map((s) => siteView(s, defaultSite));
}
