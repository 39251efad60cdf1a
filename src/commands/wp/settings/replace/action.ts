// `wp settings replace`: the whole list of sites as an array (spec 4.1 rule 2), from a file or from every
// local profile. It removes any site not in the list, so it asks first; without a person it needs --yes.
import * as z from 'zod/mini';
import { UsageError } from '../../../../errors.js';
import type { Deps } from '../../../../factory.js';
import { registerSecret } from '../../../../output/redact.js';
import { readSites, redactCredentials, siteIntegration } from '../../../../sites/profiles.js';
import { check, formatIssues } from '../../../../schemas/validate.js';
import {
  siteIntegration as siteIntegrationSchema,
  type SiteIntegration,
  type UpdateSettingsResponse,
} from '../../../../schemas/wordpress-settings.js';
import { confirmOrYes } from '../../../confirm.js';
import type { Input } from './command.js';
import { readJson, sourceName } from '../../../../lib/input-files.js';
import { assertApplied, printDryRun, printSettingsResult, settingsJson } from '../output.js';

export interface ReplaceOptions {
  sites: SiteIntegration[];
  yes: boolean;
}

export async function action({ opts, deps }: Input): Promise<void> {
  const json = settingsJson(deps.globals.json, Boolean(opts.dryRun));
  if ((opts.file === undefined) === !opts.fromSites)
    throw new UsageError('wp settings replace: give exactly one of -f <sites.json> or --from-sites');
  const raw =
    opts.file !== undefined
      ? sitesFromFile(await readJson(opts.file, '-f', deps), sourceName(opts.file))
      : sitesFromProfiles(deps);
  const sites = validateSites(raw);
  if (opts.dryRun) return printDryRun(deps.io, json, redactCredentials(sites));
  const response = await replaceRun({ sites, yes: Boolean(opts.yes) }, deps);
  printSettingsResult(
    deps.io,
    json,
    response,
    `Replaced the WordPress site list with ${sites.length} site${sites.length === 1 ? '' : 's'}`,
  );
}

/** `[...]` or `{"settings": [...]}`. */
export function sitesFromFile(raw: unknown, source: string): unknown[] {
  const value =
    raw && typeof raw === 'object' && !Array.isArray(raw) && 'settings' in raw
      ? (raw as { settings: unknown }).settings
      : raw;
  if (!Array.isArray(value))
    throw new UsageError(
      `${source}: expected a JSON array of sites (or {"settings": [...]}); to change one site use \`blogctl wp settings update\``,
    );
  for (const site of value) {
    const password = (site as { credentials?: { password?: unknown } } | null)?.credentials?.password;
    if (typeof password === 'string') registerSecret(password);
  }
  return value;
}

export function sitesFromProfiles(deps: Pick<Deps, 'store'>): SiteIntegration[] {
  const sites = readSites(deps.store());
  if (!sites.length)
    throw new UsageError(
      '--from-sites: there are no local site profiles (add one with `blogctl wp sites add`); refusing to send an empty list',
    );
  const withoutPassword = sites.filter((s) => !s.password).map((s) => s.id);
  if (withoutPassword.length) {
    throw new UsageError(
      `--from-sites: no stored password for ${withoutPassword.join(', ')}; re-add with \`blogctl wp sites add <id> --force\``,
    );
  }
  return sites.map(siteIntegration);
}

export function validateSites(raw: unknown[]): SiteIntegration[] {
  const result = check(z.array(siteIntegrationSchema), raw, 'settings');
  if (!result.ok) throw new UsageError(`invalid site list: ${formatIssues(result.issues)}`);
  const seen = new Set<string>();
  const duplicates = new Set(result.value.map((s) => s.id).filter((id) => seen.has(id) || !seen.add(id)));
  if (duplicates.size) throw new UsageError(`invalid site list: duplicate id ${[...duplicates].join(', ')}`);
  return result.value;
}

/** Confirms (or needs --yes), then sends. */
export async function replaceRun(
  options: ReplaceOptions,
  deps: Pick<Deps, 'io' | 'prompter' | 'blogApi'>,
): Promise<UpdateSettingsResponse> {
  const ids = options.sites.map((s) => s.id);
  const what = ids.length
    ? `${ids.length} site${ids.length === 1 ? '' : 's'} (${ids.join(', ')})`
    : 'an empty list, removing every site';
  await confirmOrYes(
    {
      yes: options.yes,
      command: 'wp settings replace',
      action: "replace the service's whole WordPress site list",
      question: `Replace the whole WordPress site list on the service with ${what}? Sites not in it are removed.`,
      untouched: 'the WordPress site list was not changed',
    },
    deps,
  );
  const api = await deps.blogApi();
  return assertApplied(await api.updateWordPressSettings(options.sites));
}
