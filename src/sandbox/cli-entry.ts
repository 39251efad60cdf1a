// `blogctl sandbox`: starts the sandbox, says where it listens, and runs until SIGINT/SIGTERM (or the
// caller's signal), then closes cleanly. The command wiring lives in src/commands; this only runs it.
import type { PublishShape } from './relay.js';
import { startSandbox } from './server.js';

export const KEYS_ENV = 'BLOGCTL_SANDBOX_KEYS';

export interface SandboxCommandOptions {
  host?: string;
  port?: number;
  /** Empty: BLOGCTL_SANDBOX_KEYS (comma-separated), else a generated key that is printed. */
  apiKeys: string[];
  dataFile?: string;
  latencyMs?: number;
  deleteStatus?: 200 | 204;
  publishShape?: PublishShape;
  stderr: NodeJS.WritableStream;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export async function runSandboxCommand(opts: SandboxCommandOptions): Promise<void> {
  const env = opts.env ?? process.env;
  const write = (line: string): void => void opts.stderr.write(`${line}\n`);
  const apiKeys = opts.apiKeys.length ? opts.apiKeys : keysFromEnv(env[KEYS_ENV]);
  // Listen for the stop signals first: one that arrives while starting still ends in a clean close.
  const stop = stopRequest(opts.signal);
  let generated: string | undefined;
  try {
    const sandbox = await startSandbox({
      host: opts.host,
      port: opts.port,
      apiKeys,
      dataFile: opts.dataFile,
      latencyMs: opts.latencyMs,
      deleteStatus: opts.deleteStatus,
      publishShape: opts.publishShape,
      onGeneratedKey: (key) => (generated = key),
      log: write,
    });
    write(`blogctl sandbox listening on ${sandbox.url}`);
    // Only a key the sandbox made up is shown: a key the person chose is already theirs and stays off screen.
    if (generated) write(`API key: ${generated}`);
    await stop.requested;
    await sandbox.close();
  } finally {
    stop.dispose();
  }
}

function keysFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

/** SIGINT, SIGTERM or the caller's abort; while listening, our handlers replace Node's default exit. */
function stopRequest(signal: AbortSignal | undefined): { requested: Promise<void>; dispose(): void } {
  let fire: () => void = () => undefined;
  const requested = new Promise<void>((resolve) => (fire = resolve));
  const onStop = (): void => fire();
  process.on('SIGINT', onStop);
  process.on('SIGTERM', onStop);
  if (signal?.aborted) fire();
  signal?.addEventListener('abort', onStop, { once: true });
  return {
    requested,
    dispose() {
      process.off('SIGINT', onStop);
      process.off('SIGTERM', onStop);
      signal?.removeEventListener('abort', onStop);
    },
  };
}
