// Settings in force for one invocation. Precedence: flag, then environment, then the selected profile /
// config, then defaults.
import { UsageError } from '../errors.js';
import { DEFAULT_PROFILE, type ConfigData, type CredentialsData } from './store.js';

export interface GlobalFlags {
  baseUrl?: string;
  profile?: string;
  timeout?: string;
  retries?: string;
  sandbox?: boolean;
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
  defaultSite?: string;
  sandbox: boolean;
}

export function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
  credentials: CredentialsData,
): ResolvedSettings {
  const profile = flags.profile ?? env['BLOGCTL_PROFILE'] ?? config.currentProfile ?? DEFAULT_PROFILE;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(profile))
    throw new UsageError(`--profile: not a profile name: "${profile}"`);
  const stored = config.profiles?.[profile];
  const settings = config.settings ?? {};
  const sandbox = Boolean(flags.sandbox) || truthy(env['BLOGCTL_SANDBOX']);

  const timeoutFlag = flags.timeout ?? env['BLOGCTL_TIMEOUT'];
  const timeoutSeconds =
    timeoutFlag !== undefined
      ? parseSeconds(timeoutFlag, flags.timeout !== undefined ? '--timeout' : 'BLOGCTL_TIMEOUT')
      : undefined;
  const retriesFlag = flags.retries ?? env['BLOGCTL_RETRIES'];
  const retries = retriesFlag !== undefined ? parseRetries(retriesFlag) : (num(settings['retries']) ?? 3);

  const result: ResolvedSettings = {
    profile,
    timeoutMs: (timeoutSeconds ?? num(settings['timeout']) ?? 60) * 1000,
    connectTimeoutMs: (num(settings['connect-timeout']) ?? 10) * 1000,
    // An explicit --timeout bounds every call, generation included; otherwise generation gets its own, longer one.
    createTimeoutMs: (timeoutSeconds ?? num(settings['create-timeout']) ?? 600) * 1000,
    retries,
    concurrency: num(settings['concurrency']) ?? 4,
    sandbox,
  };
  const defaultSite = settings['default-site'];
  if (typeof defaultSite === 'string') result.defaultSite = defaultSite;

  if (flags.baseUrl) assign(result, 'baseUrl', normaliseBaseUrl(flags.baseUrl, '--base-url'), 'flag');
  else if (env['BLOGCTL_BASE_URL'])
    assign(result, 'baseUrl', normaliseBaseUrl(env['BLOGCTL_BASE_URL'], 'BLOGCTL_BASE_URL'), 'env');
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

export function normaliseBaseUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name}: not a URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${name}: must be an http(s) URL, got "${value}"`);
  return value.replace(/\/+$/, '').replace(/\/api\/v1\/public$/, '');
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

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
