// Where the provider generator is configured: `blogctl sandbox` flags, or the environment (the in-process
// --sandbox, and `blogctl sandbox` beside its flags). Light on purpose: a --sandbox command reads this
// before it knows whether the generator (and the Markdown library with it) is needed at all.
import { UsageError } from '../errors.js';
import { msFromEnv } from '../lib/env-values.js';

export const PROVIDER_ENV = {
  url: 'BLOGCTL_PROVIDER_URL',
  model: 'BLOGCTL_MODEL',
  prompts: 'BLOGCTL_PROMPTS_DIR',
  key: 'BLOGCTL_PROVIDER_API_KEY',
  timeout: 'BLOGCTL_PROVIDER_TIMEOUT',
  retryBound: 'BLOGCTL_PROVIDER_RETRY_MAX_MS',
  retryBase: 'BLOGCTL_PROVIDER_RETRY_BASE_MS',
  deadline: 'BLOGCTL_PROVIDER_DEADLINE',
  maxCalls: 'BLOGCTL_PROVIDER_MAX_CALLS',
  perKey: 'BLOGCTL_GENERATIONS_PER_KEY',
  total: 'BLOGCTL_GENERATIONS_TOTAL',
} as const;

export interface ProviderSettings {
  url: string;
  model: string;
  /** Used when a request carries no externalProviderApiKey. */
  serverKey?: string | undefined;
  promptsDir?: string | undefined;
  /** Per call, seconds. */
  timeoutSeconds?: number | undefined;
  retryBoundMs?: number | undefined;
  retryBaseMs?: number | undefined;
  sectionsInFlight?: number | undefined;
  /** The whole post, every call and wait included, seconds. */
  deadlineSeconds?: number | undefined;
  /** Provider calls (retries included) one post may make; default: by its length (maxCallsFor). */
  maxCallsPerPost?: number | undefined;
  /** Posts written at the same time for one API key, and in all (429 past either). */
  generationsPerKey?: number | undefined;
  generationsTotal?: number | undefined;
}

export const DEFAULTS = {
  timeoutSeconds: 300,
  retryBoundMs: 120_000,
  retryBaseMs: 1_000,
  sectionsInFlight: 2,
  deadlineSeconds: 1_800,
  generationsPerKey: 2,
  generationsTotal: 8,
} as const;

/**
 * The provider settings of the environment (the in-process --sandbox, and `blogctl sandbox` beside its
 * flags): undefined when no provider URL is set. A URL without a model, or a model without a URL, is refused.
 */
export function providerFromEnv(
  env: NodeJS.ProcessEnv,
  flags: { url?: string | undefined; model?: string | undefined; promptsDir?: string | undefined } = {},
): ProviderSettings | undefined {
  const url = flags.url ?? (env[PROVIDER_ENV.url]?.trim() || undefined);
  const model = flags.model ?? (env[PROVIDER_ENV.model]?.trim() || undefined);
  const promptsDir = flags.promptsDir ?? (env[PROVIDER_ENV.prompts]?.trim() || undefined);
  const urlFrom = flags.url !== undefined ? '--provider-url' : PROVIDER_ENV.url;
  const modelFrom = flags.model !== undefined ? '--model' : PROVIDER_ENV.model;
  if (!url) {
    if (model)
      throw new UsageError(`${modelFrom} needs a provider: set --provider-url or ${PROVIDER_ENV.url} too`);
    if (promptsDir)
      throw new UsageError(
        `--prompts (${PROVIDER_ENV.prompts}) needs a provider: set --provider-url or ${PROVIDER_ENV.url} too`,
      );
    return undefined;
  }
  if (!model)
    throw new UsageError(
      `${urlFrom} needs a model: set --model or ${PROVIDER_ENV.model} (the name the provider knows it by, e.g. llama3.2)`,
    );
  const timeout = env[PROVIDER_ENV.timeout]?.trim();
  let timeoutSeconds: number | undefined;
  if (timeout) {
    timeoutSeconds = Number(timeout);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > 3600)
      throw new UsageError(`${PROVIDER_ENV.timeout}: expected seconds from 1 to 3600, got "${timeout}"`);
  }
  return {
    url: providerUrl(url, urlFrom),
    model,
    promptsDir,
    timeoutSeconds,
    retryBoundMs: msFromEnv(env, PROVIDER_ENV.retryBound),
    retryBaseMs: msFromEnv(env, PROVIDER_ENV.retryBase),
    deadlineSeconds: wholeFromEnv(env, PROVIDER_ENV.deadline, 1, 86_400, 'seconds'),
    maxCallsPerPost: wholeFromEnv(env, PROVIDER_ENV.maxCalls, 1, 1_000, 'calls'),
    generationsPerKey: wholeFromEnv(env, PROVIDER_ENV.perKey, 1, 1_000, 'posts'),
    generationsTotal: wholeFromEnv(env, PROVIDER_ENV.total, 1, 10_000, 'posts'),
  };
}

/** A whole number from the environment within [min, max]; an unreadable value is refused, not ignored. */
function wholeFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  min: number,
  max: number,
  unit: string,
): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${name}: expected a whole number of ${unit} from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** An http(s) base URL without credentials, query or fragment; the trailing slash dropped. */
export function providerUrl(raw: string, from: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`${from}: not a URL: "${raw}" (for Ollama: http://127.0.0.1:11434/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${from}: use an http:// or https:// URL, not ${url.protocol}`);
  if (url.username || url.password)
    throw new UsageError(`${from}: put no credentials in the URL (the key goes in ${PROVIDER_ENV.key})`);
  if (url.search || url.hash) throw new UsageError(`${from}: the base URL takes no query or fragment`);
  return url.toString().replace(/\/+$/, '');
}
