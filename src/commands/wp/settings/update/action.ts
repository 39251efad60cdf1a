// `wp settings update`: one settings object with only the fields given (spec 4.1 rule 1). Sources, later
// winning: `-f settings.json`, the --site profile's credentials (--with-credentials, its password overridden
// by BLOGCTL_WP_PASSWORD), then the flags.
import { UsageError } from '../../../../errors.js';
import type { Deps } from '../../../../factory.js';
import { registerSecret } from '../../../../output/redact.js';
import {
  checkSiteId,
  checkSiteUrl,
  envPassword,
  loadSite,
  redactCredentials,
  stdinPassword,
} from '../../../../sites/profiles.js';
import { check, formatIssues } from '../../../../schemas/validate.js';
import {
  siteIntegrationPatch,
  type SiteIntegrationPatch,
  type UpdateSettingsResponse,
} from '../../../../schemas/wordpress-settings.js';
import type { Input } from './command.js';
import { readJson, sourceName } from '../../../../lib/input-files.js';
import { assertApplied, printDryRun, printSettingsResult, settingsJson } from '../output.js';

export interface UpdateOptions {
  settings: SiteIntegrationPatch;
}

const FIELD_FLAGS =
  '--label, --integrated/--no-integrated, --website-valid/--no-website-valid, --auto-publish/--no-auto-publish, --url, --username, --password-stdin, --with-credentials or -f settings.json';

export async function action({ opts, deps }: Input): Promise<void> {
  const json = settingsJson(deps.globals.json, Boolean(opts.dryRun));
  if (opts.file === '-' && opts.passwordStdin)
    throw new UsageError(
      '-f - and --password-stdin both want stdin; put the password in the file or the file on disk',
    );
  const layers: Record<string, unknown>[] = [];
  if (opts.file !== undefined)
    layers.push(settingsFromFile(await readJson(opts.file, '-f', deps), sourceName(opts.file)));

  const site = opts.site === undefined ? undefined : checkSiteId(opts.site, '--site');
  const credentials: Record<string, unknown> = {};
  if (opts.withCredentials) {
    if (!site)
      throw new UsageError(
        '--with-credentials takes the credentials of a site profile: also pass --site <id>',
      );
    const profile = loadSite(deps.store(), site);
    Object.assign(credentials, { websiteUrl: profile.url, username: profile.username });
    // The password wp publish --site would use: --password-stdin (below), BLOGCTL_WP_PASSWORD, the stored one.
    const password = opts.passwordStdin ? undefined : (envPassword(deps.env) ?? profile.password);
    if (password) credentials['password'] = password;
    else if (!opts.passwordStdin)
      deps.io.warn(`site "${site}" has no stored password; sending the URL and username only`);
  }
  if (opts.url !== undefined) credentials['websiteUrl'] = checkSiteUrl(opts.url);
  if (opts.username !== undefined) credentials['username'] = opts.username;
  if (opts.passwordStdin) credentials['password'] = await stdinPassword(deps);

  const flags: Record<string, unknown> = {};
  if (site !== undefined) flags['id'] = site;
  if (opts.label !== undefined) flags['label'] = opts.label;
  if (opts.integrated !== undefined) flags['isIntegrated'] = opts.integrated;
  if (opts.websiteValid !== undefined) flags['isWebsiteValid'] = opts.websiteValid;
  if (opts.autoPublish !== undefined) flags['autoPublish'] = opts.autoPublish;
  if (Object.keys(credentials).length) flags['credentials'] = credentials;
  layers.push(flags);

  const settings = buildSettingsPatch(layers);
  if (opts.dryRun) return printDryRun(deps.io, json, redactCredentials(settings));
  const response = await updateRun({ settings }, deps);
  printSettingsResult(
    deps.io,
    json,
    response,
    `Updated WordPress settings${settings.id ? ` of "${settings.id}"` : ''}`,
  );
}

/** `{...}` or `{"settings": {...}}`; an array belongs to `replace`. */
export function settingsFromFile(raw: unknown, source: string): Record<string, unknown> {
  const value = isRecord(raw) && Object.keys(raw).length === 1 && 'settings' in raw ? raw['settings'] : raw;
  if (Array.isArray(value))
    throw new UsageError(
      `${source}: holds a list of sites; to replace the whole list use \`blogctl wp settings replace -f ${source}\``,
    );
  if (!isRecord(value))
    throw new UsageError(
      `${source}: expected a JSON object of settings (id, label, isIntegrated, isWebsiteValid, autoPublish, credentials)`,
    );
  registerSecret(
    isRecord(value['credentials']) && typeof value['credentials']['password'] === 'string'
      ? value['credentials']['password']
      : undefined,
  );
  return value;
}

/** Merges the layers (credentials member by member), validates, and refuses a patch that changes nothing. */
export function buildSettingsPatch(layers: Record<string, unknown>[]): SiteIntegrationPatch {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      merged[key] =
        key === 'credentials' && isRecord(merged[key]) && isRecord(value)
          ? { ...merged[key], ...value }
          : value;
    }
  }
  const result = check(siteIntegrationPatch, merged, 'settings');
  if (!result.ok) throw new UsageError(`invalid settings: ${formatIssues(result.issues)}`);
  const fields = Object.keys(result.value).filter((k) => k !== 'id');
  if (!fields.length) throw new UsageError(`nothing to update: give at least one of ${FIELD_FLAGS}`);
  return result.value;
}

/**
 * Sends the patch. A successful update of a site that also has a local profile copies the flags (label, isIntegrated, isWebsiteValid, autoPublish)
 * into it, so a later `replace --from-sites` does not undo them.
 */
export async function updateRun(
  options: UpdateOptions,
  deps: Pick<Deps, 'blogApi' | 'store'>,
): Promise<UpdateSettingsResponse> {
  const api = await deps.blogApi();
  const response = assertApplied(await api.updateWordPressSettings(options.settings));
  const { id, label, isIntegrated, isWebsiteValid, autoPublish } = options.settings;
  if (id && deps.store().readConfig().sites?.[id]) {
    const flags = { label, isIntegrated, isWebsiteValid, autoPublish };
    if (Object.values(flags).some((v) => v !== undefined)) {
      await deps.store().updateConfig((c) => {
        const profile = c.sites?.[id];
        if (!profile) return;
        for (const [k, v] of Object.entries(flags))
          if (v !== undefined) (profile as unknown as Record<string, unknown>)[k] = v;
      });
    }
  }
  return response;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
