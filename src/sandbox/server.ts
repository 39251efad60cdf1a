// A faithful local implementation of the service (spec sections 4–5) on node:http: API-key namespaces,
// idempotent POSTs, durable saves, and a publish relay to real (or fake) WordPress sites.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, maxHeaderSize, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { UsageError } from '../errors.js';
import type { SandboxGenerator } from './provider.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { ConnectionGuard, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connections.js';
import { resolveCipher, type Cipher } from './crypto.js';
import { answerClientError, HttpProblem, readJsonBody, sendReply, type Reply } from './http-io.js';
import { lockFile } from '../lib/file-lock.js';
import { isLoopbackAddress } from '../lib/ip-addresses.js';
import { prepareDirectory } from './persist.js';
import type { PublishShape } from './relay.js';
import { createRoutes, type Outcome, type Route } from './routes.js';
import { KEYED_HASH, SandboxStore, StoreWriteError, tenantId, type Tenant } from './store.js';

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
const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, body included (a 5 MB body over a slow link fits). */
const REQUEST_TIMEOUT_MS = 60_000;

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

  let apiKeys = (options.apiKeys ?? []).map((k) => k.trim()).filter(Boolean);
  if (!apiKeys.length) {
    const generated = `sbx_${randomBytes(18).toString('base64url')}`;
    apiKeys = [generated];
    options.onGeneratedKey?.(generated);
  }
  const keyDigests = apiKeys.map(digest);

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
  const inflight = new Map<string, Promise<Outcome>>();
  let closing = false;

  const authenticate = (req: IncomingMessage): string => {
    const header = req.headers['authorization'];
    const challenge = { 'www-authenticate': 'Bearer realm="blogctl-sandbox"' };
    const key = header && /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!key) throw new HttpProblem(401, 'missing API key: send Authorization: Bearer <key>', {}, challenge);
    const d = digest(key);
    // Compare digests in constant time, so a wrong key reveals nothing about a right one.
    if (!keyDigests.some((k) => timingSafeEqual(k, d))) {
      throw new HttpProblem(401, 'unknown API key', {}, challenge);
    }
    return key;
  };

  const dispatch = async (req: IncomingMessage, method: string, path: string): Promise<Reply> => {
    const found = matchRoute(routes, path);
    if (!found) throw new HttpProblem(404, `no route for ${method} ${path}`);
    const handler = found.route.methods[method];
    if (!handler) {
      const allowed = Object.keys(found.route.methods).join(', ');
      throw new HttpProblem(
        405,
        `${method} is not allowed on ${path}; use ${allowed}`,
        {},
        { allow: allowed },
      );
    }
    const apiKey = authenticate(req);
    const tenant = store.tenant(apiKey);
    let body: Promise<unknown> | undefined;
    const ctx = {
      body: () => (body ??= readJsonBody(req)),
      tenant,
      tenantId: tenantId(apiKey),
      params: found.params,
    };
    const exclusive = found.route.exclusive?.includes(method) ? tenant : undefined;
    const idempotencyKey = method === 'POST' ? readIdempotencyKey(req) : undefined;
    if (!idempotencyKey) return write(store, log, () => handler(ctx), exclusive);
    // Read first: the same key is answered again only for the same request (Stripe's rule), else 422.
    const fingerprint = requestFingerprint(store.cipher, method, path, await ctx.body());
    // Requests with the same key wait for each other, so a retry racing its original never acts twice.
    const slot = `${ctx.tenantId}\n${idempotencyKey}`;
    for (let running = inflight.get(slot); running; running = inflight.get(slot)) {
      await running.catch(() => undefined);
    }
    // Only what is on disk is replayed: a record is seen once it and the change it answers are written.
    const earlier = store.replay(tenant, idempotencyKey);
    if (earlier) {
      // A record saved before fingerprints were kept has none, nor has one whose unkeyed hash was dropped at
      // load (store.ts, KEYED_HASH): it is replayed as it always was.
      if (earlier.requestHash !== undefined && earlier.requestHash !== fingerprint) {
        throw new HttpProblem(
          422,
          `Idempotency-Key "${idempotencyKey}" was already used with a different request body; send a new key for a new request`,
        );
      }
      return { status: earlier.status, body: earlier.body, headers: { 'idempotent-replayed': 'true' } };
    }
    // The change and its record are written together, or neither is.
    const run = write(
      store,
      log,
      async () => {
        const outcome = await handler(ctx);
        // Only answers that did something are remembered; a refused request may simply be sent again — a
        // publish WordPress refused (`isPublished: false`, `success: false`) included.
        if (outcome.status < 300 && !refusedPublish(outcome.body)) {
          store.remember(tenant, idempotencyKey, outcome.status, outcome.body, fingerprint);
        }
        return outcome;
      },
      exclusive,
    );
    inflight.set(slot, run);
    try {
      return await run;
    } finally {
      if (inflight.get(slot) === run) inflight.delete(slot);
    }
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const path = safePath(req.url);
    let reply: Reply;
    try {
      reply = await dispatch(req, method, path);
    } catch (error) {
      if (error instanceof HttpProblem) reply = error.toReply();
      else {
        log(`internal error in ${method} ${path}: ${describe(error)}`);
        reply = { status: 500, body: { message: 'internal error' } };
      }
    }
    if (closing) reply = { ...reply, headers: { ...reply.headers, connection: 'close' } };
    sendReply(req, res, reply);
    log(`${method} ${path} ${reply.status} ${Math.round(performance.now() - started)}ms`);
  };

  // Responses still to be written on each connection, and the answer to a request Node's parser refused
  // after them (clientError): written straight to the socket, it must not cut into one of theirs.
  const responding = new WeakMap<Duplex, number>();
  const afterResponses = new WeakMap<Duplex, () => void>();
  /** The last request read on each connection. */
  const lastRequest = new WeakMap<Duplex, IncomingMessage>();
  const guard = new ConnectionGuard({ ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits });
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer(
    {
      keepAliveTimeout: 5_000,
      headersTimeout,
      requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout + 1),
      // How often those two are checked: a fraction of the headers' time, so a slow client is cut near it.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
    (req, res) => {
      const socket = req.socket;
      lastRequest.set(socket, req);
      guard.busy(socket as Socket);
      responding.set(socket, (responding.get(socket) ?? 0) + 1);
      res.once('close', () => {
        const left = (responding.get(socket) ?? 1) - 1;
        responding.set(socket, left);
        if (left > 0) return;
        guard.idle(socket as Socket);
        const answer = afterResponses.get(socket);
        afterResponses.delete(socket);
        answer?.();
      });
      // onRequest answers every error itself; this only guards against a throwing log sink.
      onRequest(req, res).catch(() => res.destroy());
    },
  );
  server.on('connection', (socket: Socket) => guard.admit(socket));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = (): void => {
      const status = answerClientError(error, socket, maxHeaderSize);
      try {
        if (status) log(`request refused by the HTTP parser: ${status} (${error.code ?? 'unknown'})`);
      } catch {
        // A throwing log sink must not take the server down from an event handler.
      }
    };
    if ((responding.get(socket) ?? 0) === 0) return answer();
    // The connection ended (or broke) inside a request's body: the body will never come, so that request can
    // never be answered; closing is all there is to do, and what frees the connection.
    if (lastRequest.get(socket)?.complete === false) {
      socket.destroy();
      return;
    }
    afterResponses.set(socket, answer);
  });
  await listen(server, config.host, config.port);
  const bound = server.address();
  const address = typeof bound === 'object' && bound ? bound.address : config.host;
  const port = typeof bound === 'object' && bound ? bound.port : config.port;
  const exposed = !isLoopbackAddress(address);
  publicOnlyRelay = options.allowPrivateRelay === undefined ? exposed : !options.allowPrivateRelay;
  const url = `http://${urlHost(address)}:${port}`;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= new Promise<void>((resolve, reject) => {
      closing = true;
      shutdown.abort();
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

  return {
    url,
    host: config.host,
    address,
    exposed,
    port,
    apiKeys: [...apiKeys],
    connections: () => guard.size,
    close,
  };
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

function matchRoute(routes: Route[], path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (m) return { route, params: m.slice(1) };
  }
  return undefined;
}

/**
 * What makes two requests the same one: method, path and the body as JSON with its keys sorted (so key order
 * and white space do not matter). Keyed with the store's key (an HMAC, not a plain hash): a publish body holds
 * the WordPress password and a create-blog body may hold a provider key, and a plain hash beside the rest
 * of the request in the data file would let anyone holding that file test guesses of them.
 */
function requestFingerprint(cipher: Cipher, method: string, path: string, body: unknown): string {
  return `${KEYED_HASH}${cipher.mac(`${method} ${path}\n${canonicalJson(body)}`)}`;
}

function readIdempotencyKey(req: IncomingMessage): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const key = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!key || key.length > 255) throw new HttpProblem(400, 'Idempotency-Key must be 1–255 characters');
  return key;
}

/**
 * Runs a handler as one store write (SandboxStore.write): answered once its changes are on disk. A change
 * that cannot be written is answered 507 (a full disk) or 503, and nothing of it is kept, in memory either.
 */
async function write(
  store: SandboxStore,
  log: (line: string) => void,
  handler: () => Promise<Outcome>,
  exclusive: Tenant | undefined,
): Promise<Outcome> {
  try {
    return await store.write(handler, exclusive);
  } catch (error) {
    if (!(error instanceof StoreWriteError)) throw error;
    const cause = error.cause as NodeJS.ErrnoException;
    log(`could not save the data file: ${describe(cause)}`);
    const code = cause?.code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      throw new HttpProblem(
        507,
        `the sandbox could not save the change: its disk is full (${code}); nothing was changed — free space and send the request again`,
      );
    }
    throw new HttpProblem(
      503,
      `the sandbox could not save the change${code ? ` (${code})` : ''}; nothing was changed — send the request again`,
    );
  }
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is in use (pass port 0 for any free port)'
          : (error.code ?? error.message);
      reject(new UsageError(`the sandbox cannot listen on ${host}:${port}: ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * The path only: a query string could carry anything, and it never reaches a log. Taken as sent, not through
 * a URL, which would resolve `delete-blog/%2E%2E` (the id "..") to `/api/v1/public/`.
 */
function safePath(url: string | undefined): string {
  // An absolute-form request line (`GET http://host/path`) names the path after its authority.
  const path = (url ?? '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  return path.split(/[?#]/, 1)[0] || '/';
}

/** The host of a URL that reaches `address` from this machine. */
function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e instanceof Error ? `${e.code ? `${e.code}: ` : ''}${e.message.split('\n')[0]}` : String(error);
}

/** A publish answer that says WordPress made nothing: 200, but `isPublished: false` or `success: false`. */
function refusedPublish(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return b['isPublished'] === false || b['success'] === false;
}
