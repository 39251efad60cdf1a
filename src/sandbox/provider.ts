// The provider generator as the sandbox uses it: configured from flags or the environment, checked when
// the service starts (the URL, the model, every prompt file), and its failures turned into the service's
// answers: 403 when the provider refused the key, 503 when it could not be reached or kept failing, 502
// when it answered with something unusable; each names the provider's URL and model, never the key.
import type { GeneratedBlog, GenerationParams } from './generator.js';
import { HttpProblem } from './http-io.js';
import { ProviderError } from './provider-chat.js';
import { providerGenerator, type GenerateContext } from './provider-generate.js';
import { DEFAULTS, type ProviderSettings } from './provider-config.js';
import { loadPrompts } from './provider-prompts.js';

/** What the sandbox calls for each create-blog when a provider is configured. */
export interface SandboxGenerator {
  url: string;
  model: string;
  /** Posts written at the same time, per API key and in all: the sandbox answers 429 past either. */
  concurrency?: { perKey: number; total: number } | undefined;
  generate(params: GenerationParams, ctx: GenerateContext): Promise<GeneratedBlog>;
}

/** The generator, with its prompts read and checked now: a bad prompt file stops the start, not a request. */
export function createSandboxGenerator(settings: ProviderSettings): SandboxGenerator {
  const prompts = loadPrompts(settings.promptsDir);
  const generate = providerGenerator({
    url: settings.url,
    model: settings.model,
    serverKey: settings.serverKey,
    prompts,
    sectionsInFlight: settings.sectionsInFlight ?? DEFAULTS.sectionsInFlight,
    deadlineMs: (settings.deadlineSeconds ?? DEFAULTS.deadlineSeconds) * 1000,
    ...(settings.maxCallsPerPost !== undefined && { maxCalls: settings.maxCallsPerPost }),
    limits: {
      callTimeoutMs: (settings.timeoutSeconds ?? DEFAULTS.timeoutSeconds) * 1000,
      retryBoundMs: settings.retryBoundMs ?? DEFAULTS.retryBoundMs,
      retryBaseMs: settings.retryBaseMs ?? DEFAULTS.retryBaseMs,
    },
  });
  const url = settings.url;
  const model = settings.model;
  return {
    url,
    model,
    concurrency: {
      perKey: settings.generationsPerKey ?? DEFAULTS.generationsPerKey,
      total: settings.generationsTotal ?? DEFAULTS.generationsTotal,
    },
    async generate(params, ctx) {
      try {
        return await generate(params, ctx);
      } catch (error) {
        if (error instanceof ProviderError) throw providerProblem(error, url, model);
        throw error;
      }
    },
  };
}

const CODES = {
  auth: 'provider_key_refused',
  unavailable: 'provider_unavailable',
  invalid: 'provider_invalid_answer',
  model: 'provider_model_not_found',
} as const;

/** The service's answer to a provider's failure. */
export function providerProblem(error: ProviderError, url: string, model: string): HttpProblem {
  const status = error.kind === 'auth' ? 403 : error.kind === 'unavailable' ? 503 : 502;
  const code = CODES[error.kind];
  // A model the provider does not have is pulled or named right, not asked for again.
  const advice =
    error.kind === 'model'
      ? `; pull it (Ollama: \`ollama pull ${model}\`) or check the model's name (BLOGCTL_MODEL, --model)`
      : '';
  return new HttpProblem(
    status,
    `the text-generation provider (${url}, model ${model}) ${error.message}${advice}; no blog was stored`,
    {
      code,
      provider: {
        url,
        model,
        ...(error.providerStatus !== undefined && { status: error.providerStatus }),
      },
    },
    status === 503 && error.retryAfterSeconds !== undefined
      ? { 'retry-after': String(error.retryAfterSeconds) }
      : {},
  );
}
