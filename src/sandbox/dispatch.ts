// One request's way through the sandbox: its route, its API key, its handler run as one store write, and for
// a POST with an Idempotency-Key the answer given once and replayed for the same request after.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { canonicalJson } from '../lib/canonical-json.js';
import type { Cipher } from './crypto.js';
import { HttpProblem, readJsonBody, type Reply } from './http-io.js';
import type { Handler, HandlerContext, Outcome, Route } from './routes.js';
import { KEYED_HASH, SandboxStore, StoreWriteError, tenantId } from './store.js';
import type { Tenant } from './store-tenant.js';

/** Answers a request (or throws HttpProblem); the caller sends the reply. */
export type Dispatch = (
  req: IncomingMessage,
  method: string,
  path: string,
  /** Aborted when the client goes away before its answer. */
  signal?: AbortSignal,
) => Promise<Reply>;

export interface DispatchOptions {
  routes: Route[];
  store: SandboxStore;
  apiKeys: readonly string[];
  log: (line: string) => void;
}

export function createDispatch({ routes, store, apiKeys, log }: DispatchOptions): Dispatch {
  const keyDigests = apiKeys.map(digest);
  const inflight = new Map<string, Promise<Outcome>>();

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

  /** The handler run once per tenant and key: a request with a key already answered is answered again. */
  const answerOnce = async (
    method: string,
    path: string,
    ctx: HandlerContext,
    handler: Handler,
    exclusive: Tenant | undefined,
    idempotencyKey: string,
  ): Promise<Reply> => {
    const tenant = ctx.tenant;
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

  return async (req, method, path, signal = new AbortController().signal) => {
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
      signal,
      headers: req.headers,
    };
    const exclusive = found.route.exclusive?.includes(method) ? tenant : undefined;
    const idempotencyKey = method === 'POST' ? readIdempotencyKey(req) : undefined;
    if (!idempotencyKey) return write(store, log, () => handler(ctx), exclusive);
    return answerOnce(method, path, ctx, handler, exclusive, idempotencyKey);
  };
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

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** An error in one line for the log: its code and the first line of its message. */
export function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e instanceof Error ? `${e.code ? `${e.code}: ` : ''}${e.message.split('\n')[0]}` : String(error);
}

/** A publish answer that says WordPress made nothing: 200, but `isPublished: false` or `success: false`. */
function refusedPublish(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return b['isPublished'] === false || b['success'] === false;
}
