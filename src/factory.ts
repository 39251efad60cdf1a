// Lazy getters for everything a command may need. Nothing here touches the network, the config files or a
// heavy library until a command asks, so `--help` and parse errors stay at the Node floor.
import { join } from 'node:path';
import type { BlogApi } from './api/blog-api.js';
import { configDir } from './config/paths.js';
import { resolveSettings, type ResolvedSettings, type ResolveOptions } from './config/resolve.js';
import { ConfigStore } from './config/store.js';
import { AuthError, UsageError } from './errors.js';
import type { HttpClient } from './http/client.js';
import type { HttpClientOptions } from './http/spec.js';
import { IO } from './output/io.js';
import { setDiscovery } from './project/trust.js';
import { decodeUtf8 } from './lib/utf8.js';
import { registerSecret } from './output/redact.js';
import type { Prompter } from './prompts/prompter.js';
import type { WordPressClient, WordPressSite } from './wordpress/client.js';

/** Options every command accepts (commander's optsWithGlobals()). */
export interface GlobalOptions {
  baseUrl?: string;
  profile?: string;
  json?: boolean | string;
  color?: boolean;
  input?: boolean;
  timeout?: string;
  retries?: string;
  debug?: boolean;
  quiet?: boolean;
  sandbox?: boolean;
  /** --jq <expression> (src/cli/jq.ts runs it over the JSON the command prints). */
  jq?: string;
}

export interface Deps {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  signal: AbortSignal;
  store(): ConfigStore;
  /** An unknown --profile is exit 5, unless allowNewProfile (`auth login`, which creates it). */
  settings(options?: ResolveOptions): ResolvedSettings;
  prompter(): Prompter;
  /** The service client: needs a base URL and an API key (or --sandbox). */
  blogApi(options?: { connections?: number }): Promise<BlogApi>;
  /** The base URL the service client uses (after starting the in-process sandbox when --sandbox). */
  serviceUrl(): Promise<string>;
  wordpress(site: WordPressSite): Promise<WordPressClient>;
  httpOptions(): Omit<HttpClientOptions, 'baseUrl'>;
  readStdin(): Promise<string>;
  /**
   * With --sandbox and a provider (BLOGCTL_PROVIDER_URL): `listener` hears a short line as the in-process
   * sandbox writes a post ("3/6 sections"); returns the function that stops it.
   */
  watchGeneration?(listener: (line: string) => void): () => void;
  cleanup(): Promise<void>;
}

export const SANDBOX_KEY = 'sandbox-local-key';

export interface FactoryInput {
  globals: GlobalOptions;
  env: NodeJS.ProcessEnv;
  io?: IO;
  signal: AbortSignal;
}

export function createDeps(input: FactoryInput): Deps {
  const { globals, env, signal } = input;
  const io =
    input.io ??
    new IO({
      env,
      noColor: globals.color === false,
      noInput: globals.input === false,
      quiet: Boolean(globals.quiet),
      debug: Boolean(globals.debug),
    });
  let store: ConfigStore | undefined;
  let settings: ResolvedSettings | undefined;
  let prompter: Prompter | undefined;
  let api: Promise<{ api: BlogApi; http: HttpClient; url: string }> | undefined;
  const closers: (() => Promise<void>)[] = [];
  const generationWatchers = new Set<(line: string) => void>();

  for (const name of ['BLOGCTL_API_KEY', 'BLOGCTL_WP_PASSWORD', 'BLOGCTL_PROVIDER_API_KEY'])
    registerSecret(env[name]);
  // Project discovery says on stderr which project file it skipped (another user's, or in a shared folder).
  setDiscovery(env, (line) => io.warn(line));

  const deps: Deps = {
    io,
    env,
    globals,
    signal,
    store: () => (store ??= new ConfigStore(configDir(env), { env, warn: (m) => io.warn(m), signal })),
    settings(options) {
      if (!settings) {
        const s = deps.store();
        const credentials = s.readCredentials();
        for (const key of Object.values(credentials.apiKeys ?? {})) registerSecret(key);
        for (const pw of Object.values(credentials.sitePasswords ?? {})) registerSecret(pw);
        settings = resolveSettings(
          {
            baseUrl: globals.baseUrl,
            profile: globals.profile,
            timeout: globals.timeout,
            retries: globals.retries,
            sandbox: globals.sandbox,
          },
          env,
          s.readConfig(),
          credentials,
          options,
        );
      }
      return settings;
    },
    prompter() {
      if (!prompter) {
        // Loaded here, not at start-up: the prompt library is only for a person at a terminal.
        const lazy = import('./prompts/prompter.js').then((m) =>
          m.inquirerPrompter({ input: io.stdin, output: io.stderr, color: io.colorErr }),
        );
        const call =
          <K extends keyof Prompter>(k: K) =>
          (...args: Parameters<Prompter[K]>) =>
            lazy.then((p) => (p[k] as (...a: unknown[]) => Promise<unknown>)(...args));
        prompter = {
          input: call('input'),
          password: call('password'),
          select: call('select'),
          confirm: call('confirm'),
        } as Prompter;
      }
      return prompter;
    },
    httpOptions() {
      const s = deps.settings();
      return {
        connectTimeoutMs: s.connectTimeoutMs,
        timeoutMs: s.timeoutMs,
        retry: { retries: s.retries },
        signal,
        // The run's environment, not this process's: the same thing for the CLI, and exact for a run in-process.
        env,
        // Only when someone reads it: the client then skips putting together a line per request.
        ...(io.debugEnabled && { debug: (line: string) => io.debug(line) }),
      };
    },
    blogApi(options = {}) {
      api ??= (async () => {
        const s = deps.settings();
        let baseUrl = s.baseUrl;
        let apiKey = s.apiKey;
        if (s.sandbox) {
          const { startSandbox } = await import('./sandbox/server.js');
          const generator = await inProcessGenerator(env, (line) => {
            for (const listener of generationWatchers) listener(line);
          });
          if (generator)
            io.debug(`in-process sandbox: posts written by ${generator.model} at ${generator.url}`);
          const stateDir = join(deps.store().dir, 'sandbox');
          const sandbox = await startSandbox({
            ...(generator && { generator }),
            port: 0,
            apiKeys: [SANDBOX_KEY],
            dataFile: join(stateDir, 'data.json'),
            // Overlapping commands (cron) take turns on the data file instead of losing each other's changes.
            lockWaitMs: 120_000,
            signal,
          }).catch(async (error: unknown) => {
            const { writeFailure } = await import('./lib/write-failure.js');
            throw writeFailure(error, stateDir, 'nothing was sent') ?? error;
          });
          closers.push(() => sandbox.close());
          baseUrl = sandbox.url;
          apiKey = SANDBOX_KEY;
          io.debug(`in-process sandbox at ${sandbox.url}`);
        }
        if (!baseUrl) {
          throw new UsageError(
            'no service base URL configured: pass --base-url, set BLOGCTL_BASE_URL, run `blogctl config set base-url <url>`, or try it out with --sandbox',
          );
        }
        if (!apiKey) {
          throw new AuthError(
            `no API key for profile "${s.profile}": run \`blogctl auth login\` or set BLOGCTL_API_KEY`,
          );
        }
        registerSecret(apiKey);
        const [{ HttpClient }, { BlogApi }] = await Promise.all([
          import('./http/client.js'),
          import('./api/blog-api.js'),
        ]);
        const http = new HttpClient({
          ...deps.httpOptions(),
          baseUrl,
          headers: { authorization: `Bearer ${apiKey}` },
          // One pool for the run: bulk verbs ask for --concurrency connections on their first call.
          connections: options.connections ?? 16,
          // The in-process sandbox is on loopback: never through HTTP_PROXY.
          ...(s.sandbox ? { proxy: false } : { advice: baseUrlAdvice(baseUrl, s.baseUrlSource) }),
        });
        closers.push(() => http.close());
        return { api: new BlogApi(http), http, url: baseUrl };
      })();
      return api.then((a) => a.api);
    },
    async serviceUrl() {
      await deps.blogApi();
      return (await api!).url;
    },
    async wordpress(site) {
      registerSecret(site.password);
      const { WordPressClient } = await import('./wordpress/client.js');
      const client = new WordPressClient(site, deps.httpOptions());
      closers.push(() => client.close());
      return client;
    },
    readStdin: () => readAll(io.stdin, signal),
    watchGeneration(listener) {
      generationWatchers.add(listener);
      return () => generationWatchers.delete(listener);
    },
    async cleanup() {
      for (const close of closers.reverse()) await close().catch(() => undefined);
      closers.length = 0;
    },
  };
  return deps;
}

/** All of stdin; Ctrl-C ends the wait (a pipe that is never closed must not outlast the first one). */
async function readAll(stream: NodeJS.ReadableStream, signal: AbortSignal): Promise<string> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const read = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return decodeUtf8(Buffer.concat(chunks), 'stdin');
  })();
  try {
    return await Promise.race([read, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/**
 * The in-process sandbox's provider generator, when BLOGCTL_PROVIDER_URL (with BLOGCTL_MODEL) is set; loaded
 * only then. The provider key travels in each request (BLOGCTL_PROVIDER_API_KEY, --provider-key-stdin).
 */
async function inProcessGenerator(
  env: NodeJS.ProcessEnv,
  progress: (line: string) => void,
): Promise<import('./sandbox/provider.js').SandboxGenerator | undefined> {
  if (
    !env['BLOGCTL_PROVIDER_URL']?.trim() &&
    !env['BLOGCTL_MODEL']?.trim() &&
    !env['BLOGCTL_PROMPTS_DIR']?.trim()
  )
    return undefined;
  const { providerFromEnv } = await import('./sandbox/provider-config.js');
  const settings = providerFromEnv(env);
  if (!settings) return undefined;
  const { createSandboxGenerator } = await import('./sandbox/provider.js');
  const generator = createSandboxGenerator(settings);
  return {
    ...generator,
    generate: (params, ctx) => generator.generate(params, { ...ctx, progress }),
  };
}

/** What to check when the service's base URL answers a web page or cannot be reached, naming where it came from. */
function baseUrlAdvice(
  baseUrl: string,
  source: ResolvedSettings['baseUrlSource'],
): { html: string; unreachable: string; redirect: string } {
  const where =
    source === 'flag'
      ? '--base-url'
      : source === 'env'
        ? 'BLOGCTL_BASE_URL'
        : '`blogctl config get base-url`';
  return {
    html: `this looks like a web page, not the blogctl API: check --base-url (${baseUrl}, from ${where}); it is the address before /api/v1/public`,
    unreachable: `check the base URL (${baseUrl}, from ${where}), that the service is up and this machine may reach it (a VPN, firewall or HTTPS_PROXY); \`blogctl --sandbox\` works without one`,
    redirect: `if the service moved, use its new address as the base URL (${where})`,
  };
}
