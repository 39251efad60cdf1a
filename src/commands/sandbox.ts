import { UsageError } from '../errors.js';
import type { ActionInput } from './define.js';

interface SandboxFlags {
  port: string;
  host: string;
  apiKey?: string[];
  apiKeyFile?: string;
  data?: string;
  latency: string;
  quota: string;
  deleteStatus: '200' | '204';
  publishShape: 'typed' | 'alt';
  allowPrivateRelay?: true;
}

export async function action({ opts, deps, app }: ActionInput<SandboxFlags>): Promise<void> {
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
  const { runSandboxCommand } = await import('../sandbox/cli-entry.js');
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
    stderr: deps.io.stderr,
    signal: deps.signal,
  });
}
