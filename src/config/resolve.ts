// Settings in force for one invocation. Precedence: flag, then environment, then the selected profile /
// config, then defaults.
import { NotFoundError, UsageError } from '../errors.js';
import { truthy } from '../lib/env-values.js';
import { serviceBaseUrl } from '../lib/url-shape.js';
import { CONFIG_DEFAULTS } from './keys.js';
import { DEFAULT_PROFILE, type ConfigData, type CredentialsData } from './store.js';

export interface GlobalFlags {
  baseUrl?: string;
  profile?: string;
  timeout?: string;
  retries?: string;
  sandbox?: boolean;
}

export interface ResolveOptions {
  /** `auth login`: the selected profile may be one that does not exist yet (login creates it). */
  allowNewProfile?: boolean;
}

export interface ResolvedSettings {
  profile: string;
  baseUrl?: string;
  baseUrlSource?: 'flag' | 'env' | 'profile' | 'sandbox';
  apiKey?: string;
  apiKeySource?: 'env' | 'profile' | 'sandbox';
  timeoutMs: number;
  connectTimeoutMs: number;
  createTimeoutMs: number;
  retries: number;
  concurrency: number;
  /** The site a publish uses when none is named: BLOGCTL_SITE, then `default-site`. */
  defaultSite?: string;
  defaultSiteSource?: 'env' | 'config';
  sandbox: boolean;
}

export function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
  credentials: CredentialsData,
  options: ResolveOptions = {},
): ResolvedSettings {
  // Where the name came from, for the error that names it.
  const profileSource: keyof typeof PROFILE_SOURCE_NAMES =
    flags.profile !== undefined
      ? 'flag'
      : env['BLOGCTL_PROFILE']
        ? 'env'
        : config.currentProfile !== undefined
          ? 'config'
          : 'default';
  const profile = flags.profile ?? (env['BLOGCTL_PROFILE'] || config.currentProfile) ?? DEFAULT_PROFILE;
  const profileName = PROFILE_SOURCE_NAMES[profileSource];
  if (!PROFILE_NAME.test(profile)) throw new UsageError(`${profileName}: not a profile name: "${profile}"`);
  const known = accountProfiles(config, credentials);
  // A profile that does not exist is an error, never a new, empty profile: only `auth login` creates one —
  // unless the environment brings the account (BLOGCTL_API_KEY): a fresh CI runner naming its profile has
  // nothing stored.
  if (!options.allowNewProfile && !known.includes(profile) && !env['BLOGCTL_API_KEY']) {
    throw new NotFoundError(
      `${profileName}: no account profile "${profile}" (profiles: ${known.join(', ')})`,
      {
        hints: [`create it with \`blogctl auth login --profile ${profile} --base-url <url>\``],
      },
    );
  }
  const stored = config.profiles?.[profile];
  const settings = config.settings ?? {};
  const sandbox = Boolean(flags.sandbox) || truthy(env['BLOGCTL_SANDBOX']);

  const timeoutFlag = flags.timeout ?? env['BLOGCTL_TIMEOUT'];
  const timeoutSeconds =
    timeoutFlag !== undefined
      ? parseSeconds(timeoutFlag, flags.timeout !== undefined ? '--timeout' : 'BLOGCTL_TIMEOUT')
      : undefined;
  const retriesFlag = flags.retries ?? env['BLOGCTL_RETRIES'];
  const retries =
    retriesFlag !== undefined
      ? parseRetries(retriesFlag)
      : (num(settings['retries']) ?? CONFIG_DEFAULTS.retries);

  const result: ResolvedSettings = {
    profile,
    timeoutMs: (timeoutSeconds ?? num(settings['timeout']) ?? CONFIG_DEFAULTS.timeout) * 1000,
    connectTimeoutMs: (num(settings['connect-timeout']) ?? CONFIG_DEFAULTS['connect-timeout']) * 1000,
    // An explicit --timeout bounds every call, generation included; otherwise generation gets its own, longer one.
    createTimeoutMs:
      (timeoutSeconds ?? num(settings['create-timeout']) ?? CONFIG_DEFAULTS['create-timeout']) * 1000,
    retries,
    concurrency: num(settings['concurrency']) ?? CONFIG_DEFAULTS.concurrency,
    sandbox,
  };
  const defaultSite = settings['default-site'];
  if (env['BLOGCTL_SITE']) {
    result.defaultSite = env['BLOGCTL_SITE'];
    result.defaultSiteSource = 'env';
  } else if (typeof defaultSite === 'string') {
    result.defaultSite = defaultSite;
    result.defaultSiteSource = 'config';
  }

  if (flags.baseUrl) assign(result, 'baseUrl', serviceBaseUrl(flags.baseUrl, '--base-url'), 'flag');
  else if (env['BLOGCTL_BASE_URL'])
    assign(result, 'baseUrl', serviceBaseUrl(env['BLOGCTL_BASE_URL'], 'BLOGCTL_BASE_URL'), 'env');
  else if (stored?.baseUrl) assign(result, 'baseUrl', stored.baseUrl, 'profile');

  if (env['BLOGCTL_API_KEY']) {
    result.apiKey = env['BLOGCTL_API_KEY'];
    result.apiKeySource = 'env';
  } else if (credentials.apiKeys?.[profile]) {
    result.apiKey = credentials.apiKeys[profile];
    result.apiKeySource = 'profile';
  }
  return result;
}

function assign(
  r: ResolvedSettings,
  _key: 'baseUrl',
  value: string,
  source: ResolvedSettings['baseUrlSource'],
): void {
  r.baseUrl = value;
  if (source) r.baseUrlSource = source;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const PROFILE_SOURCE_NAMES = {
  flag: '--profile',
  env: 'BLOGCTL_PROFILE',
  config: 'currentProfile in config.json',
  default: 'profile',
} as const;

/**
 * Every account profile that exists, sorted: one with a stored base URL or API key, the current one, and
 * `default`, which always exists (it is what a fresh machine uses before any login).
 */
export function accountProfiles(config: ConfigData, credentials: Pick<CredentialsData, 'apiKeys'>): string[] {
  const names = new Set([
    DEFAULT_PROFILE,
    ...Object.keys(config.profiles ?? {}),
    ...Object.keys(credentials.apiKeys ?? {}),
  ]);
  if (config.currentProfile) names.add(config.currentProfile);
  return [...names].sort();
}

function parseSeconds(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400)
    throw new UsageError(`${name}: expected seconds (e.g. 30 or 0.5), got "${value}"`);
  return n;
}

function parseRetries(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10)
    throw new UsageError(`--retries: expected a whole number from 0 to 10, got "${value}"`);
  return n;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
