// Local WordPress site profiles: the profile lives in config.json (`sites[id]`), its Application Password only
// in credentials.json (`sitePasswords[id]`). Helpers to read them, turn them into the service's credential
// and integration shapes, obtain a password from stdin / environment / prompt, and keep passwords out of output.
import type { ConfigStore, SiteProfile } from '../config/store.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { StdinReader } from '../lib/input-files.js';
import { checkUrlShape, SITE_CREDENTIALS } from '../lib/url-shape.js';
import { registerSecret } from '../output/redact.js';
import type { CredentialPorts, PromptPort } from './ports.js';
import { check } from '../schemas/validate.js';
import { credentials as credentialsSchema, type Credentials } from '../schemas/wordpress.js';
import type { PartialCredentials, SiteIntegration } from '../schemas/wordpress-settings.js';

export const PASSWORD_ENV = 'BLOGCTL_WP_PASSWORD';
const SITE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface LocalSite extends SiteProfile {
  id: string;
  /** The stored Application Password, when there is one. */
  password?: string;
}

/** What `wp sites list/show` print: never the password, only whether one is stored. */
export interface SiteView {
  id: string;
  url: string;
  username: string;
  label: string | null;
  autoPublish: boolean;
  isIntegrated: boolean | null;
  isWebsiteValid: boolean | null;
  /** When `wp sites verify` last checked the site (it also sets isWebsiteValid). */
  verifiedAt: string | null;
  password: 'stored' | 'missing';
  default: boolean;
}

export function checkSiteId(id: string, name = 'site id'): string {
  if (!SITE_ID.test(id)) {
    throw new UsageError(
      `${name}: "${id}" is not a valid site id (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64)`,
    );
  }
  return id;
}

/** An http(s) URL of a WordPress site, without trailing slashes. */
export function checkSiteUrl(value: string, name = '--url'): string {
  checkUrlShape(value, name, 'https://example.com', SITE_CREDENTIALS);
  return value.trim().replace(/\/+$/, '');
}

export function readSites(store: Pick<ConfigStore, 'readConfig' | 'readCredentials'>): LocalSite[] {
  const sites = store.readConfig().sites ?? {};
  const passwords = store.readCredentials().sitePasswords ?? {};
  return Object.entries(sites)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, profile]) => {
      const password = passwords[id];
      registerSecret(password);
      return { ...profile, id, ...(password && { password }) };
    });
}

/** A site profile by id; an unknown id is a not-found (exit 5), like an unknown blog id. */
export function loadSite(store: Pick<ConfigStore, 'readConfig' | 'readCredentials'>, id: string): LocalSite {
  const site = readSites(store).find((s) => s.id === id);
  if (!site) {
    throw new NotFoundError(`no WordPress site profile "${id}"`, {
      hints: [
        'list them with `blogctl wp sites list`, add one with `blogctl wp sites add <id> --url … --username …`',
      ],
    });
  }
  return site;
}

export function siteView(site: LocalSite, defaultSite?: string): SiteView {
  return {
    id: site.id,
    url: site.url,
    username: site.username,
    label: site.label ?? null,
    autoPublish: site.autoPublish ?? false,
    isIntegrated: site.isIntegrated ?? null,
    isWebsiteValid: site.isWebsiteValid ?? null,
    verifiedAt: site.verifiedAt ?? null,
    password: site.password ? 'stored' : 'missing',
    default: site.id === defaultSite,
  };
}

/** The typed IntegrationWordPress (spec 2.2) of a local profile, credentials included. */
export function siteIntegration(site: LocalSite): SiteIntegration {
  const credentials: PartialCredentials = { websiteUrl: site.url, username: site.username };
  if (site.password) credentials.password = site.password;
  return {
    id: site.id,
    ...(site.label !== undefined && { label: site.label }),
    ...(site.isIntegrated !== undefined && { isIntegrated: site.isIntegrated }),
    ...(site.isWebsiteValid !== undefined && { isWebsiteValid: site.isWebsiteValid }),
    ...(site.autoPublish !== undefined && { autoPublish: site.autoPublish }),
    credentials,
  };
}

/** Writes the password first: a profile must never be visible without the password it was added with. */
export async function saveSite(
  store: Pick<ConfigStore, 'updateConfig' | 'updateCredentials'>,
  id: string,
  profile: SiteProfile,
  password: string,
): Promise<void> {
  await store.updateCredentials((c) => {
    c.sitePasswords = { ...c.sitePasswords, [id]: password };
  });
  await store.updateConfig((c) => {
    c.sites = { ...c.sites, [id]: profile };
  });
}

/** Removes the profile, its password and a `default-site` naming it. Returns whether default-site was unset. */
export async function deleteSite(
  store: Pick<ConfigStore, 'updateConfig' | 'updateCredentials'>,
  id: string,
): Promise<{ defaultUnset: boolean }> {
  let defaultUnset = false;
  await store.updateConfig((c) => {
    if (c.sites) delete c.sites[id];
    if (c.settings?.['default-site'] === id) {
      delete c.settings['default-site'];
      defaultUnset = true;
    }
  });
  await store.updateCredentials((c) => {
    if (c.sitePasswords) delete c.sitePasswords[id];
  });
  return { defaultUnset };
}

/** `--password-stdin`: the first line of stdin. */
export async function stdinPassword(deps: StdinReader): Promise<string> {
  const password = (await deps.readStdin()).split(/\r?\n/)[0]!.trim();
  if (!password) throw new UsageError('--password-stdin: no password on stdin');
  registerSecret(password);
  return password;
}

export function envPassword(env: NodeJS.ProcessEnv): string | undefined {
  const value = env[PASSWORD_ENV]?.trim();
  if (!value) return undefined;
  registerSecret(value);
  return value;
}

/** Asks with a hidden prompt when a person is there; undefined otherwise. */
export async function promptPassword(deps: PromptPort, message: string): Promise<string | undefined> {
  if (!deps.io.canPrompt) return undefined;
  const password = (
    await deps
      .prompter()
      .password(message, { validate: (v) => (v.trim() ? true : 'enter the Application Password') })
  ).trim();
  registerSecret(password);
  return password;
}

export function missingPasswordError(deps: Pick<PromptPort, 'io'>): UsageError {
  const why = deps.io.noInputReason ? ` (cannot prompt: ${deps.io.noInputReason})` : '';
  return new UsageError(
    `no WordPress Application Password${why}: pipe it in with --password-stdin or set ${PASSWORD_ENV}`,
  );
}

/** A copy with every `credentials.password` shown as "***" (for --dry-run). */
export function redactCredentials<T>(value: T): T {
  return walk(value, (key, v) =>
    key === 'credentials' && isRecord(v) && 'password' in v ? { ...v, password: '***' } : v,
  ) as T;
}

/** A copy without any `password` field (for the service's answers, which should hold none anyway). */
export function stripPasswords<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => stripPasswords(v)) as T;
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'password') out[k] = stripPasswords(v);
  return out as T;
}

function walk(value: unknown, visit: (key: string, value: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, visit));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = walk(visit(k, v), visit);
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface CredentialSources {
  /** --site: a profile id. */
  site?: string;
  /** --url / --username. */
  url?: string;
  username?: string;
  /** --password-stdin. */
  passwordStdin?: boolean;
  /** `credentials` of a `-f` payload file, and the file's name for errors. */
  file?: Record<string, unknown>;
  fileName?: string;
}

/**
 * The credentials of a publish. A site profile (--site, or default-site when nothing else names a site) gives
 * URL and username; its password is the first of --password-stdin, BLOGCTL_WP_PASSWORD, the stored one, a
 * prompt (flag, then environment, then profile). Otherwise --url/--username over the file's credentials,
 * and the password from --password-stdin, the file, BLOGCTL_WP_PASSWORD, then a prompt.
 */
export async function resolveCredentials(
  input: CredentialSources,
  deps: CredentialPorts,
): Promise<{ credentials: Credentials; site?: string }> {
  if (input.site !== undefined && (input.url !== undefined || input.username !== undefined)) {
    throw new UsageError('give either --site <id> or --url and --username, not both');
  }
  const explicit = input.url !== undefined || input.username !== undefined || input.file !== undefined;
  const siteId = input.site ?? (explicit ? undefined : deps.settings().defaultSite);
  const filePassword = typeof input.file?.['password'] === 'string' ? input.file['password'] : undefined;
  registerSecret(filePassword);
  const fileName = input.fileName ?? '-f';

  let partial: Record<string, unknown>;
  let names: Record<string, string>;
  let password: () => Promise<string | undefined>;
  const fromStdin = async () => (input.passwordStdin ? stdinPassword(deps) : undefined);
  if (siteId !== undefined) {
    const site = loadSite(
      deps.store(),
      checkSiteId(
        siteId,
        input.site !== undefined
          ? '--site'
          : deps.settings().defaultSiteSource === 'env'
            ? 'BLOGCTL_SITE'
            : 'default-site',
      ),
    );
    partial = { websiteUrl: site.url, username: site.username };
    names = {
      websiteUrl: `site "${site.id}" url`,
      username: `site "${site.id}" username`,
      password: 'password',
    };
    password = async () => (await fromStdin()) ?? envPassword(deps.env) ?? site.password;
  } else if (explicit) {
    partial = { ...input.file };
    names = {
      websiteUrl: `${fileName}: credentials.websiteUrl`,
      username: `${fileName}: credentials.username`,
      password: `${fileName}: credentials.password`,
    };
    if (input.url !== undefined) {
      partial['websiteUrl'] = checkSiteUrl(input.url);
      names['websiteUrl'] = '--url';
    }
    if (input.username !== undefined) {
      partial['username'] = input.username;
      names['username'] = '--username';
    }
    const missing = [
      partial['websiteUrl'] === undefined && '--url',
      partial['username'] === undefined && '--username',
    ].filter(Boolean);
    if (missing.length)
      throw new UsageError(
        `missing ${missing.join(' and ')}: publishing without --site needs the site URL and username`,
      );
    password = async () => (await fromStdin()) ?? filePassword ?? envPassword(deps.env);
  } else {
    throw new UsageError(
      'no WordPress site: pass --site <id>, or --url and --username, or set one with `blogctl config set default-site <id>`',
    );
  }

  const given = await password();
  const url = typeof partial['websiteUrl'] === 'string' ? partial['websiteUrl'] : 'the site';
  const value =
    given ??
    (await promptPassword(deps, `Application Password for ${String(partial['username'])} at ${url}`));
  if (!value) throw missingPasswordError(deps);
  partial['password'] = value;

  const result = check(credentialsSchema, partial);
  if (!result.ok) {
    const message = result.issues
      .map((issue) => {
        const field = issue.path.split('.')[0]!;
        return `${names[field] ?? (issue.path === '(body)' ? fileName : `credentials.${field}`)}: ${issue.message}`;
      })
      .join('; ');
    throw new UsageError(`invalid WordPress credentials: ${message}`);
  }
  return { credentials: result.value, ...(siteId !== undefined && { site: siteId }) };
}
