import { UsageError } from '../../errors.js';
import type { Input } from './command.js';

export async function action({ opts, deps, app }: Input): Promise<void> {
  // Ctrl-C / SIGTERM is how a server is meant to stop: exit 0 after a clean shutdown.
  app.stopOnSignal();
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port: expected 0–65535, got "${opts.port}"`);
  const latencyMs = Number(opts.latency);
  if (!Number.isFinite(latencyMs) || latencyMs < 0)
    throw new UsageError(`--latency: expected milliseconds, got "${opts.latency}"`);
  const quotaMb = Number(opts.quota);
  if (!Number.isFinite(quotaMb) || quotaMb <= 0)
    throw new UsageError(`--quota: expected megabytes above 0, got "${opts.quota}"`);
  // A provider (src/sandbox/provider.ts): the flags over BLOGCTL_PROVIDER_URL, BLOGCTL_MODEL and
  // BLOGCTL_PROMPTS_DIR; its key from --provider-key-stdin (first line, or a hidden prompt on a terminal),
  // else BLOGCTL_PROVIDER_API_KEY, used for requests that bring none.
  const { providerFromEnv, PROVIDER_ENV } = await import('../../sandbox/provider-config.js');
  const provider = providerFromEnv(deps.env, {
    url: opts.providerUrl,
    model: opts.model,
    promptsDir: opts.prompts,
  });
  if (opts.providerKeyStdin && !provider)
    throw new UsageError('--provider-key-stdin needs a provider: set --provider-url and --model too');
  if (provider) {
    let key = deps.env[PROVIDER_ENV.key]?.trim() || undefined;
    if (opts.providerKeyStdin) {
      if (deps.io.stdinIsTTY) {
        // Reading a terminal would echo the key as it is typed: ask with a hidden prompt instead.
        if (!deps.io.canPrompt)
          throw new UsageError(
            `--provider-key-stdin: pipe the key in, or set ${PROVIDER_ENV.key} (cannot ask: ${deps.io.noInputReason})`,
          );
        key = (
          await deps
            .prompter()
            .password('Provider API key', { validate: (v) => (v.trim() ? true : 'enter the key') })
        ).trim();
      } else key = (await deps.readStdin()).split(/\r?\n/)[0]?.trim() || undefined;
      if (!key) throw new UsageError('--provider-key-stdin: no key on the first line of stdin');
    }
    if (key) {
      const { registerSecret } = await import('../../output/redact.js');
      registerSecret(key);
      provider.serverKey = key;
    }
  }
  const { runSandboxCommand } = await import('../../sandbox/cli-entry.js');
  await runSandboxCommand({
    host: opts.host,
    port,
    apiKeys: opts.apiKey ?? [],
    ...(opts.apiKeyFile !== undefined && { apiKeyFile: opts.apiKeyFile }),
    ...(opts.data && { dataFile: opts.data }),
    latencyMs,
    quotaBytes: Math.round(quotaMb * 1024 * 1024),
    deleteStatus: Number(opts.deleteStatus) as 200 | 204,
    publishShape: opts.publishShape,
    ...(opts.allowPrivateRelay && { allowPrivateRelay: true }),
    ...(provider && { provider }),
    stderr: deps.io.stderr,
    signal: deps.signal,
  });
}
