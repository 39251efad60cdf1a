// A faithful local implementation of the service (spec sections 4–5) on node:http: API-key namespaces,
// idempotent POSTs, durable saves, and a publish relay to real (or fake) WordPress sites.
// This file starts and stops it; http-server.ts is its node:http server, dispatch.ts answers each request.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { UsageError } from '../errors.js';
import type { SandboxGenerator } from './provider.js';
import type { ConnectionLimits } from './connections.js';
import { resolveCipher } from './crypto.js';
import { createDispatch } from './dispatch.js';
import { answerRequests, createHttpServer, listen } from './http-server.js';
import { lockFile } from '../lib/file-lock.js';
import { isLoopbackAddress } from '../lib/ip-addresses.js';
import { prepareDirectory } from './persist.js';
import type { PublishShape } from './relay.js';
import { createRoutes } from './routes.js';
import { SandboxStore } from './store.js';

export interface SandboxOptions {
  host?: string;
  port?: number;
  /** None: one is generated and reported through onGeneratedKey. */
  apiKeys?: string[];
  onGeneratedKey?: (key: string) => void;
  /** Persist the store as JSON; absent: memory only. */
  dataFile?: string;
  /** AES key material; else BLOGCTL_SANDBOX_SECRET, else `<dataFile>.key`, else random per process. */
  secret?: string;
  latencyMs?: number;
  deleteStatus?: 200 | 204;
  publishShape?: PublishShape;
  /** One line per request: method, path, status, duration. Never bodies, never keys. */
  log?: (line: string) => void;
  wordpressTimeoutMs?: number;
  /**
   * With a data file: how long to wait while another process holds it (its `.lock`). The store is read
   * once at start and only this process's changes are logged after it, so two processes on one file would
   * lose each other's changes;
   * the second one waits for the first to close (the in-process `--sandbox` of overlapping commands), or
   * fails with exit 7 when the wait runs out. Default 10 s.
   */
  lockWaitMs?: number;
  /**
   * The bytes one API key's records may take (its blogs, sites and Idempotency-Key records, as stored);
   * beyond it a change is refused with 507. Default DEFAULT_QUOTA_BYTES (100 MB).
   */
  quotaBytes?: number;
  /**
   * Open connections in all and from one client address (default DEFAULT_CONNECTION_LIMITS). Past a limit,
   * the connection without a request in progress that has waited longest is closed to make room.
   */
  connectionLimits?: Partial<ConnectionLimits>;
  /** How long a client may take to send a request's headers (408 after it); default 10 s. */
  headersTimeoutMs?: number;
  /** Ends a wait for the data file's lock (Ctrl-C in the CLI). */
  signal?: AbortSignal;
  /**
   * Listening beyond loopback, the publish relay refuses sites on loopback, link-local and private addresses
   * (any key holder could otherwise make the sandbox reach this machine's services and its network); on
   * loopback it relays anywhere, as it always has. true relays anywhere wherever it listens
   * (--allow-private-relay); false refuses private addresses on loopback too.
   */
  allowPrivateRelay?: boolean;
  /** Writes posts with a model (src/sandbox/provider.ts); absent: the deterministic generator. */
  generator?: SandboxGenerator;
}

export interface RunningSandbox {
  /** Where a client on this machine reaches it (loopback for 0.0.0.0 and ::). */
  url: string;
  host: string;
  /** The address it listens on, as bound (0.0.0.0, ::, 192.168.1.5, 127.0.0.1…). */
  address: string;
  /** It listens beyond loopback: other machines may reach it. */
  exposed: boolean;
  port: number;
  apiKeys: string[];
  /** How many connections it holds open. */
  connections(): number;
  close(): Promise<void>;
}

/** Grace period for in-flight requests at close() before their connections are cut. */
const CLOSE_GRACE_MS = 5_000;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const config = validate(options);
  const release = options.dataFile
    ? await lockDataFile(options.dataFile, options.lockWaitMs, options.signal)
    : undefined;
  try {
    return await serve(options, config, release);
  } catch (error) {
    await release?.().catch(() => undefined);
    throw error;
  }
}

async function lockDataFile(
  dataFile: string,
  waitMs = 10_000,
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  await prepareDirectory(dataFile);
  return lockFile(dataFile, {
    waitMs,
    // A lock of a sandbox killed on this machine is taken over at once; any other once not touched for 5 s.
    staleMs: 5_000,
    busy: (waited) =>
      `the sandbox data file ${dataFile} is in use by another blogctl (${dataFile}.lock, waited ${Math.round(waited / 1000)} s)`,
    ...(signal && { signal }),
  });
}

async function serve(
  options: SandboxOptions,
  config: ReturnType<typeof validate>,
  release: (() => Promise<void>) | undefined,
): Promise<RunningSandbox> {
  const log = options.log ?? (() => undefined);
  const cipher = resolveCipher({ secret: options.secret, dataFile: options.dataFile });
  const store = await SandboxStore.open({
    dataFile: options.dataFile,
    cipher,
    warn: log,
    ...(config.quotaBytes !== undefined && { quotaBytes: config.quotaBytes }),
  });
  const apiKeys = resolveApiKeys(options);

  const shutdown = new AbortController();
  // Until the bound address is known, the relay refuses private addresses (nothing is served before then).
  let publicOnlyRelay = options.allowPrivateRelay !== true;
  const routes = createRoutes({
    store,
    ...config,
    publicOnlyRelay: () => publicOnlyRelay,
    shutdown: shutdown.signal,
    generator: options.generator,
  });
  const dispatch = createDispatch({ routes, store, apiKeys, log });
  const onRequest = answerRequests(dispatch, log, () => shutdown.signal.aborted);
  const { server, guard } = createHttpServer(options, onRequest, log);

  await listen(server, config.host, config.port);
  const bound = server.address();
  const address = typeof bound === 'object' && bound ? bound.address : config.host;
  const port = typeof bound === 'object' && bound ? bound.port : config.port;
  const exposed = !isLoopbackAddress(address);
  publicOnlyRelay = options.allowPrivateRelay === undefined ? exposed : !options.allowPrivateRelay;
  const url = `http://${urlHost(address)}:${port}`;

  return {
    url,
    host: config.host,
    address,
    exposed,
    port,
    apiKeys: [...apiKeys],
    connections: () => guard.size,
    close: closer(server, store, shutdown, release),
  };
}

/** The keys given (trimmed, blanks dropped), or one generated and reported through onGeneratedKey. */
function resolveApiKeys(options: SandboxOptions): string[] {
  const apiKeys = (options.apiKeys ?? []).map((k) => k.trim()).filter(Boolean);
  if (apiKeys.length) return apiKeys;
  const generated = `sbx_${randomBytes(18).toString('base64url')}`;
  options.onGeneratedKey?.(generated);
  return [generated];
}

/**
 * close(), once however often it is called: requests in flight get CLOSE_GRACE_MS, then the last save is
 * awaited, and only then is the data file's lock released.
 */
function closer(
  server: Server,
  store: SandboxStore,
  shutdown: AbortController,
  release: (() => Promise<void>) | undefined,
): () => Promise<void> {
  let closed: Promise<void> | undefined;
  return () =>
    (closed ??= new Promise<void>((resolve, reject) => {
      shutdown.abort(new Error('the service is shutting down'));
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      server.close((error) => {
        clearTimeout(force);
        if (error) reject(error);
        else resolve();
      });
      // Busy connections end after their reply, which carries `Connection: close` from now on.
      server.closeIdleConnections();
    })
      .then(() => store.settled())
      // Only once the last save is on disk may another process read the file.
      .finally(() => release?.().catch(() => undefined)));
}

function validate(options: SandboxOptions) {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 4010;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`invalid port ${port}: use 0–65535`);
  }
  const latencyMs = options.latencyMs ?? 0;
  if (!Number.isFinite(latencyMs) || latencyMs < 0) {
    throw new UsageError(`invalid latency ${latencyMs}: use 0 or more ms`);
  }
  const deleteStatus = options.deleteStatus ?? 200;
  if (deleteStatus !== 200 && deleteStatus !== 204) {
    throw new UsageError(`invalid delete status ${String(deleteStatus)}: use 200 or 204`);
  }
  const publishShape = options.publishShape ?? 'typed';
  if (publishShape !== 'typed' && publishShape !== 'alt') {
    throw new UsageError(`invalid publish shape ${String(publishShape)}: use typed or alt`);
  }
  const wordpressTimeoutMs = options.wordpressTimeoutMs ?? 30_000;
  const quotaBytes = options.quotaBytes;
  if (quotaBytes !== undefined && !(Number.isFinite(quotaBytes) && quotaBytes > 0)) {
    throw new UsageError(`invalid quota ${quotaBytes}: use a size above 0`);
  }
  return { host, port, latencyMs, deleteStatus, publishShape, wordpressTimeoutMs, quotaBytes } as const;
}

/** The host of a URL that reaches `address` from this machine. */
function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}
