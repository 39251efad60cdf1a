// `blogctl sandbox`: starts the sandbox, says where it listens, and runs until SIGINT/SIGTERM (or the
// caller's signal), then closes cleanly. The command wiring lives in src/commands; this only runs it.
import { open } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { writeFailure } from '../lib/write-failure.js';
import type { ProviderSettings } from './provider-config.js';
import type { SandboxGenerator } from './provider.js';
import type { PublishShape } from './relay.js';
import { startSandbox, type RunningSandbox } from './server.js';

export const KEYS_ENV = 'BLOGCTL_SANDBOX_KEYS';

export interface SandboxCommandOptions {
  host?: string;
  port?: number;
  /**
   * Keys given on the command line (--api-key): seen by every user of the machine in the process list, and
   * kept in shell history, so they are accepted with a warning. With none and no apiKeyFile:
   * BLOGCTL_SANDBOX_KEYS (comma-separated), else a generated key that is printed.
   */
  apiKeys: string[];
  /** A file of keys, one a line (--api-key-file); refused unless only its owner can read it (0600). */
  apiKeyFile?: string;
  dataFile?: string;
  latencyMs?: number;
  quotaBytes?: number;
  deleteStatus?: 200 | 204;
  publishShape?: PublishShape;
  /** Listening beyond loopback, relay publishes to private addresses too (--allow-private-relay). */
  allowPrivateRelay?: boolean;
  /** Posts written by a model through this provider; absent: the deterministic generator. */
  provider?: ProviderSettings;
  stderr: NodeJS.WritableStream;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export async function runSandboxCommand(opts: SandboxCommandOptions): Promise<void> {
  const env = opts.env ?? process.env;
  const write = (line: string): void => void opts.stderr.write(`${line}\n`);
  if (opts.apiKeys.length) {
    write(
      `warning: --api-key shows the key to every user of this machine (ps) and leaves it in your shell history; pass keys with --api-key-file FILE (mode 0600) or ${KEYS_ENV} instead`,
    );
  }
  const fromFile = opts.apiKeyFile !== undefined ? await keysFromFile(opts.apiKeyFile) : [];
  const given = [...opts.apiKeys, ...fromFile];
  const apiKeys = given.length ? given : keysFromEnv(env[KEYS_ENV]);
  // Listen for the stop signals first: one that arrives while starting still ends in a clean close.
  const stop = stopRequest(opts.signal);
  let generated: string | undefined;
  try {
    const terminal = (opts.stderr as { isTTY?: boolean }).isTTY === true;
    const generator = opts.provider && (await providerGenerator(opts.provider, write, terminal));
    const sandbox = await startSandbox({
      ...(generator && { generator }),
      host: opts.host,
      port: opts.port,
      apiKeys,
      dataFile: opts.dataFile,
      latencyMs: opts.latencyMs,
      ...(opts.quotaBytes !== undefined && { quotaBytes: opts.quotaBytes }),
      deleteStatus: opts.deleteStatus,
      publishShape: opts.publishShape,
      ...(opts.allowPrivateRelay && { allowPrivateRelay: true }),
      onGeneratedKey: (key) => (generated = key),
      log: write,
    }).catch((error: unknown) => {
      // Its data file's folder full, read-only or denied: one line naming the file, as the CLI says a
      // write it could not make (exit 9), not Node's raw error.
      const failed =
        opts.dataFile !== undefined &&
        writeFailure(
          error,
          opts.dataFile,
          'the sandbox did not start: free space (or fix the folder) and start it again',
        );
      throw failed || error;
    });
    for (const line of listeningLines(sandbox, opts.allowPrivateRelay ?? false)) write(line);
    // Only a key the sandbox made up is shown: a key the person chose is already theirs and stays off screen.
    if (generated) write(`API key: ${generated}`);
    if (generator) write(`posts are written by ${generator.model} at ${generator.url}`);
    await stop.requested;
    await sandbox.close();
  } finally {
    stop.dispose();
  }
}

/**
 * Where it listens, as bound (0.0.0.0 is every IPv4 address of the machine, not 127.0.0.1), and, beyond
 * loopback, a warning that other machines can reach it and what the publish relay does there.
 */
export function listeningLines(
  sandbox: Pick<RunningSandbox, 'url' | 'address' | 'exposed' | 'port'>,
  allowPrivateRelay: boolean,
): string[] {
  if (!sandbox.exposed) return [`blogctl sandbox listening on ${sandbox.url}`];
  const host = sandbox.address.includes(':') ? `[${sandbox.address}]` : sandbox.address;
  const every = sandbox.address === '0.0.0.0' || sandbox.address === '::';
  const relay = allowPrivateRelay
    ? 'with --allow-private-relay, the publish relay sends requests to any address, private ones included'
    : 'the publish relay refuses loopback, link-local and private addresses (--allow-private-relay allows them)';
  return [
    `blogctl sandbox listening on http://${host}:${sandbox.port}`,
    `warning: ${every ? `${sandbox.address} is every address of this machine: ` : ''}other machines that can reach ${sandbox.address} can reach the sandbox (each request still needs an API key); ${relay}`,
  ];
}

/**
 * The keys in a file, one a line (blank lines and lines starting with # skipped). Like ssh with a private
 * key, it refuses a file others may read (the keys in it would no longer be secret) or that another user
 * owns (they could put their own keys in it).
 */
async function keysFromFile(file: string): Promise<string[]> {
  let text: string;
  try {
    const handle = await open(file, 'r');
    try {
      const { mode, uid } = await handle.stat();
      const me = process.getuid?.();
      if (process.platform !== 'win32' && me !== undefined && uid !== me && uid !== 0)
        throw new UsageError(
          `--api-key-file ${file}: it belongs to another user (uid ${uid}; you are uid ${me}), who could change the keys in it; run chown ${me} ${file} if it is yours`,
        );
      if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
        throw new UsageError(
          `--api-key-file ${file}: other users may read it (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); run chmod 600 ${file}`,
        );
      }
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`--api-key-file ${file}: cannot be read (${code})`);
  }
  const keys = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (!keys.length) throw new UsageError(`--api-key-file ${file}: holds no key (one a line)`);
  return keys;
}

/**
 * The provider's generator, logging one line per post written (model, calls, tokens) and, on a terminal, a
 * line as each post's outline and sections are done.
 */
async function providerGenerator(
  settings: ProviderSettings,
  write: (line: string) => void,
  terminal: boolean,
): Promise<SandboxGenerator> {
  const { createSandboxGenerator } = await import('./provider.js');
  const generator = createSandboxGenerator(settings);
  return {
    ...generator,
    async generate(params, ctx) {
      const blog = await generator.generate(params, {
        ...ctx,
        ...(terminal && {
          progress: (line: string) => write(`create-blog ${ctx.id}: ${line} (${generator.model})`),
        }),
      });
      const usage = (blog as { usage?: { calls: number; totalTokens: number } }).usage;
      write(
        `create-blog ${ctx.id}: ${blog.wordCount} words written by ${generator.model}${usage ? ` (${usage.calls} calls, ${usage.totalTokens} tokens)` : ''}`,
      );
      return blog;
    },
  };
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
