// WordPress settings updates (spec 4.1): a single object patches one site, an array replaces the list.
// Passwords are sealed on the way in and never leave again.
import * as z from 'zod/mini';
import { check, formatIssues } from '../schemas/validate.js';
import {
  siteIntegration,
  siteIntegrationPatch,
  updateSettingsRequest,
  type SiteIntegration,
  type SiteIntegrationPatch,
} from '../schemas/wordpress-settings.js';
import type { SealedSecret } from './crypto.js';
import { HttpProblem } from './http-io.js';
import type { StoredSite } from './store.js';

export type PublicSite = Omit<StoredSite, 'credentials'> & {
  credentials?: { websiteUrl?: string; username?: string; hasPassword?: true };
};

export interface SettingsResult {
  sites: StoredSite[];
  integration: PublicSite | PublicSite[];
}

/** Validates the body; the union's own error says only "invalid shape", so the matching branch explains. */
export function parseSettingsBody(body: unknown): SiteIntegrationPatch | SiteIntegration[] {
  const result = check(updateSettingsRequest, body);
  if (result.ok) return result.value.settings;
  const settings = (body as { settings?: unknown } | null)?.settings;
  const branch = Array.isArray(settings)
    ? check(z.array(siteIntegration), settings, 'settings')
    : settings && typeof settings === 'object'
      ? check(siteIntegrationPatch, settings, 'settings')
      : undefined;
  const issues = branch && !branch.ok ? branch.issues : result.issues;
  throw new HttpProblem(400, `invalid settings: ${formatIssues(issues)}`, { issues });
}

export function applySettings(
  current: readonly StoredSite[],
  settings: SiteIntegrationPatch | SiteIntegration[],
  seal: (password: string) => SealedSecret,
): SettingsResult {
  if (Array.isArray(settings)) {
    const seen = new Set<string>();
    settings.forEach((site, i) => {
      if (seen.has(site.id))
        throw new HttpProblem(400, `invalid settings: settings[${i}].id: duplicate id "${site.id}"`);
      seen.add(site.id);
    });
    // Replace means replace: a site sent without a password has none afterwards.
    const sites = settings.map((site) => mergeSite({ id: site.id }, site, seal));
    return { sites, integration: sites.map(publicSite) };
  }
  const id = settings.id ?? soleSiteId(current);
  const index = current.findIndex((s) => s.id === id);
  const updated = mergeSite(index >= 0 ? current[index]! : { id }, settings, seal);
  const sites = index >= 0 ? current.map((s, i) => (i === index ? updated : s)) : [...current, updated];
  return { sites, integration: publicSite(updated) };
}

/** Without an id, a patch applies to the only site, or creates the first one. */
function soleSiteId(sites: readonly StoredSite[]): string {
  if (sites.length === 1) return sites[0]!.id;
  if (sites.length === 0) return 'site-1';
  const ids = sites.map((s) => `"${s.id}"`).join(', ');
  throw new HttpProblem(
    400,
    `invalid settings: ${sites.length} WordPress sites are configured (${ids}); pass settings.id to say which one to update`,
  );
}

function mergeSite(
  site: StoredSite,
  patch: SiteIntegrationPatch,
  seal: (password: string) => SealedSecret,
): StoredSite {
  const next: StoredSite = { ...site };
  if (patch.label !== undefined) next.label = patch.label;
  if (patch.isIntegrated !== undefined) next.isIntegrated = patch.isIntegrated;
  if (patch.isWebsiteValid !== undefined) next.isWebsiteValid = patch.isWebsiteValid;
  if (patch.autoPublish !== undefined) next.autoPublish = patch.autoPublish;
  const c = patch.credentials;
  if (c) {
    const credentials = { ...site.credentials };
    if (c.websiteUrl !== undefined) credentials.websiteUrl = c.websiteUrl;
    if (c.username !== undefined) credentials.username = c.username;
    if (c.password !== undefined) credentials.password = seal(c.password);
    next.credentials = credentials;
  }
  return next;
}

export function publicSite(site: StoredSite): PublicSite {
  const { credentials, ...rest } = site;
  if (!credentials) return rest;
  const { password, ...visible } = credentials;
  return { ...rest, credentials: { ...visible, ...(password && { hasPassword: true as const }) } };
}
