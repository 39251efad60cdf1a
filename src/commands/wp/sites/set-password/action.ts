// `wp sites set-password <id>`: a new Application Password for a profile, kept in credentials.json only; the
// profile itself (URL, username, label, flags) stays as it was. Checked against the site first, as `wp sites
// add` does (`--no-verify` skips it): a password WordPress refuses replaces nothing.
import { jsonOutput } from '../../../../output/json.js';
import {
  checkSiteId,
  envPassword,
  loadSite,
  missingPasswordError,
  promptPassword,
  siteView,
  stdinPassword,
} from '../../../../sites/profiles.js';
import type { Input } from './command.js';
import { checkCredentials } from '../check-credentials.js';
import { SITE_VIEW_FIELDS } from '../fields.js';

export async function action({ args, opts, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, SITE_VIEW_FIELDS);
  const id = checkSiteId(args[0]);
  // An unknown id is refused before anybody types a password.
  const site = loadSite(deps.store(), id);
  const password =
    (opts.passwordStdin ? await stdinPassword(deps) : undefined) ??
    envPassword(deps.env) ??
    (await promptPassword(deps, `New Application Password for ${site.username} at ${site.url}`));
  if (!password) throw missingPasswordError(deps);

  const verifiedAt =
    opts.verify === false
      ? undefined
      : await checkCredentials(
          id,
          { url: site.url, username: site.username, password },
          deps,
          'password not changed',
        );
  const store = deps.store();
  await store.updateCredentials((c) => {
    c.sitePasswords = { ...c.sitePasswords, [id]: password };
  });
  // A new password makes the last verdict stale: a checked one is valid now, an unchecked one unknown.
  await store.updateConfig((c) => {
    const profile = c.sites?.[id];
    if (!profile) return;
    if (verifiedAt !== undefined) {
      profile.isWebsiteValid = true;
      profile.verifiedAt = verifiedAt;
    } else {
      delete profile.isWebsiteValid;
      delete profile.verifiedAt;
    }
  });
  const updated = loadSite(store, id);
  if (json.enabled) return json.print(deps.io, siteView(updated, deps.settings().defaultSite));
  deps.io.success(
    `Changed the Application Password of WordPress site "${id}"; stored in ${store.credentialsPath}; ${verifiedAt ? 'verified with the site' : `not checked: \`blogctl wp sites verify ${id}\``}`,
  );
}
