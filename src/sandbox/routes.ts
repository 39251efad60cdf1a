// The five endpoints of the specification (section 4). Handlers stage their change in the store (a tenant's
// blogs.push, blogs.splice, sites setter) and return the answer; the server runs each handler as one store
// write, answered only once the change is on disk (SandboxStore.write), and nothing of it kept if it cannot
// be written.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { blogParams, createBlogRequest, type BlogParams } from '../schemas/blog.js';
import { check, formatIssues } from '../schemas/validate.js';
import { publishRequest } from '../schemas/wordpress-publish.js';
import type { SandboxGenerator } from './provider.js';
import { generateBlog, WORD_TARGETS } from './generator.js';
import { HttpProblem, type Reply } from './http-io.js';
import { checkBlogParamLimits, checkBlogSize } from './limits.js';
import { relayPublish, type PublishShape } from './relay.js';
import { applySettings, parseSettingsBody } from './settings.js';
import type { SandboxStore } from './store.js';
import type { Tenant } from './store-tenant.js';

export const API_PREFIX = '/api/v1/public';

export interface RouteConfig {
  store: SandboxStore;
  latencyMs: number;
  deleteStatus: 200 | 204;
  publishShape: PublishShape;
  wordpressTimeoutMs: number;
  /** Whether the publish relay connects only to public addresses (see RelayOptions.publicOnly). */
  publicOnlyRelay: () => boolean;
  /** Aborted by close(): a simulated generation delay ends early instead of holding shutdown. */
  shutdown: AbortSignal;
  /** Writes posts with a model (src/sandbox/provider.ts); absent: the deterministic generator. */
  generator?: SandboxGenerator | undefined;
}

export interface HandlerContext {
  /** The request's JSON body, read once (readJsonBody): the server may have read it first. */
  body(): Promise<unknown>;
  tenant: Tenant;
  /** Binds sealed passwords to their namespace. */
  tenantId: string;
  /** Captures of the route's pattern, still URL-encoded. */
  params: string[];
  /** Aborted when the client closes its connection before its answer (ClientGone). */
  signal: AbortSignal;
  /** The request's headers. */
  headers: IncomingHttpHeaders;
}

export interface Outcome extends Reply {
  /** The handler staged a change (what it staged is written whatever this says). */
  changed: boolean;
}

export type Handler = (ctx: HandlerContext) => Promise<Outcome>;

export interface Route {
  pattern: RegExp;
  methods: Partial<Record<string, Handler>>;
  /**
   * Methods whose change is computed from what the tenant holds (a delete, a settings patch): they run one at
   * a time per tenant, each seeing the change before it (SandboxStore.write).
   */
  exclusive?: readonly string[];
}

/** Simulated generations (`--latency`) under way in this process, every sandbox in it together. */
let simulating = 0;

/** How many requests are waiting out a simulated generation right now (what a test waits for). */
export function simulatedGenerations(): number {
  return simulating;
}

export function createRoutes(config: RouteConfig): Route[] {
  const { store } = config;
  const route = (path: string, methods: Route['methods'], exclusive?: readonly string[]): Route => ({
    pattern: new RegExp(`^${API_PREFIX}${path}$`),
    methods,
    ...(exclusive && { exclusive }),
  });

  /** Provider generations under way, per tenant and in all. */
  const writing = new Map<string, number>();
  let writingTotal = 0;

  const createBlog: Handler = async ({ body, tenant, tenantId, signal, headers }) => {
    const params = parseCreateBlog(await body());
    checkBlogParamLimits(params);
    // Everything that can refuse the request does so before the provider is asked for anything.
    checkRoomFor(store, tenant, params);
    if (config.generator) {
      const release = claimGeneration(writing, writingTotal, tenantId, config.generator.concurrency);
      writingTotal++;
      try {
        return await createBlogWith(params, tenant, signal, strictRequest(headers));
      } finally {
        writingTotal--;
        release();
      }
    }
    return createBlogWith(params, tenant, signal, false);
  };

  const createBlogWith = async (
    params: BlogParams,
    tenant: Tenant,
    gone: AbortSignal,
    strict: boolean,
  ): Promise<Outcome> => {
    const stop = eitherSignal(config.shutdown, gone);
    try {
      return await generateAndStage(params, tenant, stop.signal, gone, strict);
    } finally {
      stop.dispose();
    }
  };

  /** `signal`: the client gone (`gone`) or the service shutting down. */
  const generateAndStage = async (
    params: BlogParams,
    tenant: Tenant,
    signal: AbortSignal,
    gone: AbortSignal,
    strict: boolean,
  ): Promise<Outcome> => {
    if (config.latencyMs > 0) {
      simulating++;
      try {
        await sleep(config.latencyMs, undefined, { signal }).catch(() => {
          // A client gone is answered too (nobody reads it): what matters is that nothing is stored.
          throw new HttpProblem(
            503,
            gone.aborted ? 'the client closed its connection' : 'the sandbox is shutting down',
          );
        });
      } finally {
        simulating--;
      }
    }
    // The provider key goes to the generator for this post only and is dropped here: it is never stored,
    // echoed or logged (the idempotency fingerprint of the body is keyed with the store's key: see
    // requestFingerprint in dispatch.ts). A provider's failure throws before anything is stored.
    const { externalProviderApiKey: providerKey, ...generation } = params;
    const now = store.now();
    const id = newObjectId(now);
    const createdAt = new Date(now).toISOString();
    const blog = config.generator
      ? await config.generator.generate(generation, {
          id,
          createdAt,
          key: providerKey,
          signal,
          strict,
        })
      : generateBlog(generation, id, createdAt);
    // Generated first, then bounded, then staged: stored once the server has written it.
    checkBlogSize(blog);
    tenant.blogs.push(blog);
    return {
      status: 201,
      body: blog,
      changed: true,
      ...(strict && { headers: { 'preference-applied': 'handling=strict' } }),
    };
  };

  const listBlogs: Handler = async ({ tenant }) => ({ status: 200, body: tenant.blogs, changed: false });

  const deleteBlog: Handler = async ({ tenant, params }) => {
    let id: string;
    try {
      id = decodeURIComponent(params[0]!);
    } catch {
      throw new HttpProblem(400, 'the blog id in the path is not valid percent-encoding');
    }
    const index = tenant.blogs.findIndex((b) => b._id === id);
    if (index < 0) throw new HttpProblem(404, `no blog with id "${id}"`);
    tenant.blogs.splice(index, 1);
    const reply =
      config.deleteStatus === 204 ? { status: 204 } : { status: 200, body: { success: true, _id: id } };
    return { ...reply, changed: true };
  };

  const updateSettings: Handler = async ({ body, tenant, tenantId }) => {
    const settings = parseSettingsBody(await body());
    const result = applySettings(tenant.sites, settings, (password) => store.cipher.seal(password, tenantId));
    tenant.sites = result.sites;
    return { status: 200, body: { success: true, integration: result.integration }, changed: true };
  };

  const publish: Handler = async ({ body }) => {
    const result = check(publishRequest, await body());
    if (!result.ok) throw invalid(result.issues);
    const answer = await relayPublish(result.value, {
      timeoutMs: config.wordpressTimeoutMs,
      shape: config.publishShape,
      publicOnly: config.publicOnlyRelay(),
    });
    return { status: 200, body: answer, changed: false };
  };

  return [
    route('/create-blog', { POST: createBlog }),
    route('/get-all-blogs', { GET: listBlogs }),
    route('/delete-blog/([^/]+)', { DELETE: deleteBlog }, ['DELETE']),
    route('/integrations/wordpress/update-settings', { PATCH: updateSettings }, ['PATCH']),
    route('/integrations/wordpress/publish', { POST: publish }),
  ];
}

/**
 * A signal aborted when either is, with its reason, and what stops listening to them. Not AbortSignal.any:
 * the shutdown signal lives as long as the server, and every request would leave a listener on it.
 */
function eitherSignal(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const both = new AbortController();
  const onA = (): void => both.abort(a.reason);
  const onB = (): void => both.abort(b.reason);
  if (a.aborted) onA();
  else if (b.aborted) onB();
  a.addEventListener('abort', onA, { once: true });
  b.addEventListener('abort', onB, { once: true });
  return {
    signal: both.signal,
    dispose() {
      a.removeEventListener('abort', onA);
      b.removeEventListener('abort', onB);
    },
  };
}

/**
 * `Prefer: handling=strict` (RFC 7240): a post that misses anything it was asked for is refused (502) rather
 * than stored with what it misses listed in its `shortfalls`.
 */
function strictRequest(headers: IncomingHttpHeaders): boolean {
  return /(?:^|[\s,;])handling\s*=\s*"?strict"?(?:$|[\s,;])/i.test(String(headers['prefer'] ?? ''));
}

/** How long a client refused for too many generations is asked to wait (a post takes about this long). */
const GENERATION_RETRY_AFTER_S = 30;

/**
 * A place for one more provider generation of this tenant, or 429: a key may have `perKey` posts being
 * written at once, and all keys together `total`, so one key's burst neither starves the others nor opens
 * unbounded connections to the provider. Returns what gives the tenant's place back.
 */
function claimGeneration(
  writing: Map<string, number>,
  total: number,
  tenantId: string,
  limits: { perKey: number; total: number } | undefined,
): () => void {
  const mine = writing.get(tenantId) ?? 0;
  if (limits) {
    const busy =
      mine >= limits.perKey
        ? `this API key has ${limits.perKey} posts being written at once, the most it may`
        : total >= limits.total
          ? `the sandbox has ${limits.total} posts being written at once, the most it takes in all`
          : undefined;
    if (busy)
      throw new HttpProblem(
        429,
        `${busy}; send the request again when one is done (nothing was generated)`,
        { code: 'too_many_generations' },
        { 'retry-after': String(GENERATION_RETRY_AFTER_S) },
      );
  }
  writing.set(tenantId, mine + 1);
  return () => {
    const left = (writing.get(tenantId) ?? 1) - 1;
    if (left > 0) writing.set(tenantId, left);
    else writing.delete(tenantId);
  };
}

/**
 * Refuses (507) a post that could not be stored: the key's quota, less what it holds and what is being
 * stored for it, has no room for even the smallest record these parameters make (the record with its
 * words at the lowest count accepted, about five bytes each). Checked before generating, so a key over its
 * quota costs no provider call; the store checks the real record again when it is staged.
 */
function checkRoomFor(store: SandboxStore, tenant: Tenant, params: BlogParams): void {
  const { externalProviderApiKey: _key, ...kept } = params;
  const words = WORD_TARGETS[params.blogLength.value] * 0.8;
  const least = Buffer.byteLength(JSON.stringify(kept)) + Math.round(words * 5);
  const used = tenant.usedBytes + tenant.stagedBytes;
  if (used + least > store.quotaBytes)
    throw new HttpProblem(
      507,
      `this API key's storage quota is full: it holds ${megabytes(used)} of its ${megabytes(store.quotaBytes)}, and this change needs ${megabytes(least)} more; delete blogs to make room`,
    );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;
}

const blogParamNames = new Set(Object.keys(blogParams.shape));

/**
 * Rule 4.3.1: parameters travel under `blogParams`; at the top level they are refused by name, and so is
 * anything else beside `blogParams`, with a message that says where parameters go.
 */
function parseCreateBlog(body: unknown): BlogParams {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (!keys.includes('blogParams')) {
      const topLevel = keys.filter((k) => blogParamNames.has(k));
      if (topLevel.length) {
        throw new HttpProblem(
          400,
          `blogParams is required: nest the parameters as {"blogParams": {…}} (found ${topLevel.join(', ')} at the top level)`,
        );
      }
    } else {
      const beside = keys.filter((k) => k !== 'blogParams');
      if (beside.length) {
        throw new HttpProblem(
          400,
          `only blogParams belongs at the top level: every parameter goes inside it (found ${beside.join(', ')} beside it)`,
        );
      }
    }
  }
  const result = check(createBlogRequest, body);
  if (!result.ok) throw invalid(result.issues);
  return result.value.blogParams;
}

function invalid(issues: { path: string; message: string }[]): HttpProblem {
  return new HttpProblem(400, `invalid request: ${formatIssues(issues)}`, { issues });
}

/** 24 lowercase hex digits like a MongoDB ObjectId: seconds since the epoch, then random bytes. */
function newObjectId(now: number): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0')
    .slice(-8);
  return seconds + randomBytes(8).toString('hex');
}
