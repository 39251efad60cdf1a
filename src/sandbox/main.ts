// Standalone entry (dist/sandbox-server.js): the sandbox as its own process, without the CLI's parser,
// for tests that must kill it hard and for running it under a process manager.
//   node dist/sandbox-server.js [--port N] [--host H] [--api-key-file F] [--api-key K]... [--data FILE]
//                               [--latency MS]
//                               [--delete-status 200|204] [--publish-shape typed|alt] [--allow-private-relay]
//                               [--quota MB]
//                               [--provider-url URL --model NAME [--prompts DIR]]
import { parseArgs } from 'node:util';
import { BlogctlError } from '../errors.js';
import { providerFromEnv, PROVIDER_ENV } from './provider-config.js';
import { runSandboxCommand } from './cli-entry.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'api-key-file': { type: 'string' },
      data: { type: 'string' },
      latency: { type: 'string' },
      quota: { type: 'string' },
      'delete-status': { type: 'string' },
      'publish-shape': { type: 'string' },
      'allow-private-relay': { type: 'boolean' },
      'provider-url': { type: 'string' },
      model: { type: 'string' },
      prompts: { type: 'string' },
    },
    strict: true,
  });
  // The provider key only from the environment (BLOGCTL_PROVIDER_API_KEY), never from argv.
  const provider = providerFromEnv(process.env, {
    url: values['provider-url'],
    model: values.model,
    promptsDir: values.prompts,
  });
  const key = process.env[PROVIDER_ENV.key]?.trim();
  if (provider && key) provider.serverKey = key;
  await runSandboxCommand({
    ...(provider && { provider }),
    ...(values.host !== undefined && { host: values.host }),
    ...(values.port !== undefined && { port: Number(values.port) }),
    apiKeys: values['api-key'] ?? [],
    ...(values['api-key-file'] !== undefined && { apiKeyFile: values['api-key-file'] }),
    ...(values.data !== undefined && { dataFile: values.data }),
    ...(values.latency !== undefined && { latencyMs: Number(values.latency) }),
    ...(values.quota !== undefined && { quotaBytes: Math.round(Number(values.quota) * 1024 * 1024) }),
    ...(values['delete-status'] !== undefined && {
      deleteStatus: Number(values['delete-status']) as 200 | 204,
    }),
    ...(values['publish-shape'] !== undefined && {
      publishShape: values['publish-shape'] as 'typed' | 'alt',
    }),
    ...(values['allow-private-relay'] && { allowPrivateRelay: true }),
    stderr: process.stderr,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`blogctl sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof BlogctlError ? error.exitCode : 1;
});
