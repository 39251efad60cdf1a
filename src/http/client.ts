// The one HTTP layer. Everything that talks to the network (the service client, the WordPress client, the
// sandbox's relay) goes through HttpClient: base URL, auth header, user agent, timeouts, retries that never
// duplicate a non-idempotent request, typed errors, redacted debug lines, and zod at the boundary.
import type { Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import {
  InterruptedError,
  UnavailableError,
  UsageError,
  errorForStatus,
  type BlogctlError,
} from '../errors.js';
import { check } from '../schemas/validate.js';
import type { PublicOnly } from './address-guard.js';
import { StreamedArray, TooLarge, type ArrayCollector } from './json-array.js';
import { cleanSnippet, extractPeerMessage } from './message.js';
import {
  AttemptTimeout,
  NETWORK_REASONS,
  ResponseCutOff,
  describe,
  notJsonError,
  schemaError,
} from './errors.js';
import { NodeGetTransport } from './node-get.js';
import { bypassesProxy, proxyEnv, proxyFor } from './proxy.js';
import {
  RETRYABLE_STATUSES,
  backoffDelay,
  defaultRetryPolicy,
  isNetworkCode,
  networkErrorCode,
  parseRetryAfter,
  retryPolicyFromEnv,
  wasNeverSent,
  type RetryPolicy,
} from './retry.js';
import { REQUEST_PATH, describeRequest, safeUrl, shownUrl } from './urls.js';

// Moved to files of their own; still exported from here for the callers that import them from the client.
export { bypassesProxy, proxyEnv } from './proxy.js';
export { safeUrl } from './urls.js';

declare const BLOGCTL_VERSION: string;
export const userAgent = `blogctl/${typeof BLOGCTL_VERSION === 'string' ? BLOGCTL_VERSION : 'dev'}`;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RawBody {
  data: Buffer | Uint8Array | string;
  contentType: string;
}

export interface RequestSpec<S extends z.ZodMiniType | undefined = undefined> {
  method: Method;
  /** Path relative to the client's base URL (may already carry a query string). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body, or a raw one (media uploads). */
  json?: unknown;
  raw?: RawBody;
  headers?: Record<string, string>;
  /** Safe to repeat after any failure (GET, DELETE, the settings PATCH). Defaults from the method. */
  idempotent?: boolean;
  /**
   * The whole time this call may take, from the first connect to the last byte of the last attempt,
   * waits between retries included: a server that never answers cannot hold the caller past it.
   */
  timeoutMs?: number;
  /** Validates the JSON body of a 2xx; an empty 2xx body passes as `undefined` when allowEmpty is set. */
  schema?: S;
  allowEmpty?: boolean;
  /** Accept a 2xx that is not JSON (returns its text). Otherwise a non-JSON 2xx is an error. */
  acceptText?: boolean;
  /** Human label for error messages: "create blog", "publish to WordPress". */
  label?: string;
  /** Statuses handed back to the caller as a response instead of thrown. */
  passStatuses?: number[];
}

export interface HttpResponse<T> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export interface HttpClientOptions {
  baseUrl: string;
  /** Sent on every request; values are never logged. */
  headers?: Record<string, string>;
  connectTimeoutMs?: number;
  /** Default time for one call (see RequestSpec.timeoutMs). */
  timeoutMs?: number;
  /** Overrides the environment's knobs (retryPolicyFromEnv), which override the defaults. */
  retry?: Partial<RetryPolicy>;
  /** Abort everything in flight (Ctrl-C). */
  signal?: AbortSignal;
  /** Redacted debug sink (`--debug`). */
  debug?: (line: string) => void;
  dispatcher?: Dispatcher;
  /** Connections per origin, for bulk commands. */
  connections?: number;
  /** Largest response body accepted; default BLOGCTL_MAX_RESPONSE_MB, else 100 MiB. */
  maxResponseBytes?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Where proxy variables and the test/ops knobs are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** false: ignore HTTP(S)_PROXY (a server this process started on loopback, like the in-process sandbox). */
  proxy?: boolean;
  /**
   * Connect only to public addresses (address-guard.ts): every request over undici, directly (proxy variables
   * do not apply: the address checked must be the one reached). The sandbox's relay beyond loopback.
   */
  publicOnly?: PublicOnly;
}

type Body<S> = S extends z.ZodMiniType ? z.infer<S> : unknown;

/**
 * requestArray: the same request, with a `z.array(…)` schema whose elements arrive one by one. The schema
 * may be given as a loader: it is then called once the request is on its way, so that loading the schema
 * (and zod) overlaps the wait for the answer; elements that arrive before it is loaded wait for it.
 */
export type ArrayRequestSpec<E extends z.ZodMiniType> = Omit<
  RequestSpec<z.ZodMiniArray<E>>,
  'schema' | 'allowEmpty' | 'acceptText'
> & { schema: z.ZodMiniArray<E> | (() => Promise<z.ZodMiniArray<E>>) };

const MIB = 1024 * 1024;
// Generous for a list of full blogs, small enough that a runaway body cannot exhaust a CI runner's memory.
const DEFAULT_MAX_RESPONSE_MB = 100;
/**
 * Time kept for the next attempt (at most a quarter of the call's budget): retrying with less left would only
 * turn a clear HTTP error into a timeout.
 */
const MIN_ATTEMPT_MS = 1_000;
/** close() lets requests still in flight finish for this long, then cuts their connections. */
const CLOSE_GRACE_MS = 1_000;

let undiciModule: Promise<typeof import('undici')> | undefined;
/**
 * undici, loaded with the first request that needs it: loading it and compiling its WebAssembly parser cost
 * a one-GET command (`blog list`) more than the rest of its run, and such a GET goes over node:http instead
 * (see usesNodeHttp).
 */
function loadUndici(): Promise<typeof import('undici')> {
  // undici is CommonJS: Node's import() names its exports, but the bundle's split chunk hands them over as
  // `default` (esbuild's interop for a CommonJS chunk); either way, the same module.
  return (undiciModule ??= import('undici').then((m) =>
    'Agent' in m ? m : (m as unknown as { default: typeof m }).default,
  ));
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly options: HttpClientOptions;
  private readonly retry: RetryPolicy;
  private readonly maxResponseBytes: number;
  private readonly env: NodeJS.ProcessEnv;
  private dispatcherInstance: Promise<Dispatcher> | undefined;
  private nodeTransport: NodeGetTransport | undefined;
  /** Set for good once a request of this client has gone over undici (or a dispatcher was given). */
  private usesUndici: boolean;
  private readonly inflight = new Set<Promise<unknown>>();
  /** The headers every request starts from (the spec's own go over them). */
  private readonly baseHeaders: Record<string, string>;
  private readonly baseHasIdempotencyKey: boolean;
  /** Attempts in flight, for the one listener on options.signal (not one listener per request). */
  private readonly attempts = new Set<InFlight>();
  private listening = false;
  /** The base URL's path, without its trailing slash (see requestPath). */
  private basePath: string | undefined;
  private lastResolved: Resolved | undefined;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.env = options.env ?? process.env;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...defaultRetryPolicy, ...retryPolicyFromEnv(this.env), ...options.retry };
    this.maxResponseBytes = options.maxResponseBytes ?? maxResponseBytesFromEnv(this.env);
    if (options.dispatcher) this.dispatcherInstance = Promise.resolve(options.dispatcher);
    this.usesUndici = Boolean(options.dispatcher || options.publicOnly);
    this.baseHeaders = { 'user-agent': userAgent, accept: 'application/json', ...options.headers };
    this.baseHasIdempotencyKey = hasHeader(this.baseHeaders, 'idempotency-key');
  }

  /** One pool per client; honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY (lowercase first, as curl does). */
  private dispatcher(): Promise<Dispatcher> {
    this.usesUndici = true;
    this.dispatcherInstance ??= loadUndici().then(async ({ Agent, EnvHttpProxyAgent, buildConnector }) => {
      const timeout = this.options.connectTimeoutMs ?? 10_000;
      const { publicOnly } = this.options;
      // Loaded only where it is used (the sandbox's relay), off every command's path.
      const connect = publicOnly
        ? (await import('./address-guard.js')).publicOnlyConnector(buildConnector, timeout, publicOnly)
        : { timeout };
      const shared = {
        connect,
        connections: this.options.connections ?? 16,
        keepAliveTimeout: 4_000,
        headersTimeout: 0,
        bodyTimeout: 0,
      };
      const proxy = this.options.proxy === false || publicOnly ? undefined : proxyEnv(this.env);
      // The values are passed explicitly rather than left to undici, which takes `http_proxy=""` over a
      // set HTTP_PROXY and re-reads the environment on every request.
      return proxy ? new EnvHttpProxyAgent({ ...shared, ...proxy }) : new Agent(shared);
    });
    return this.dispatcherInstance;
  }

  /**
   * Whether this request goes over node:http rather than undici: a plain-http GET with no proxy in force and
   * no dispatcher given, before this client has used undici (a client that has keeps one pool). Nothing
   * undici adds is needed there; everything around the request (timeouts, retries, limits, errors, debug
   * lines) is this class's own either way. https and proxies stay with undici.
   */
  private usesNodeHttp(method: Method, url: URL, body: unknown): boolean {
    return (
      method === 'GET' &&
      body === undefined &&
      !this.usesUndici &&
      url.protocol === 'http:' &&
      (this.options.proxy === false || !proxyEnv(this.env))
    );
  }

  private nodeGets(): NodeGetTransport {
    return (this.nodeTransport ??= new NodeGetTransport(
      this.options.connections ?? 16,
      this.options.connectTimeoutMs ?? 10_000,
    ));
  }

  /**
   * Lets requests still in flight finish for a moment, then cuts them: a CLI must never hang on exit. (undici's
   * own close() waits for them without limit, and a destroy() after it no longer reaches them.)
   */
  async close(): Promise<void> {
    const pending = this.options.dispatcher ? undefined : this.dispatcherInstance;
    const nodeGets = this.nodeTransport;
    if (!pending && !nodeGets) return;
    if (pending) this.dispatcherInstance = undefined;
    this.nodeTransport = undefined;
    if (this.inflight.size && !this.options.signal?.aborted) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
      });
      await Promise.race([Promise.allSettled([...this.inflight]), grace]);
      clearTimeout(timer);
    }
    nodeGets?.destroy();
    const dispatcher = await pending?.catch(() => undefined);
    await dispatcher?.destroy().catch(() => undefined);
  }

  url(path: string, query?: RequestSpec['query']): string {
    return this.target(path, query).toString();
  }

  /**
   * The path and query of the request line. A URL resolves `.` and `..` segments, even written as %2E, so a
   * segment holding an id like ".." would address the parent route instead (`DELETE /api/v1/public/`): a
   * relative path that is already a valid request target goes out exactly as written (callers encode their
   * segments); anything else, and absolute URLs, as the URL has it.
   */
  private requestPath(path: string, url: URL): string {
    const written = path.split('?', 1)[0]!;
    if (/^https?:\/\//.test(path) || !REQUEST_PATH.test(written)) return url.pathname + url.search;
    this.basePath ??= new URL(this.baseUrl).pathname.replace(/\/+$/, '');
    return `${this.basePath}${written.startsWith('/') ? '' : '/'}${written}${url.search}`;
  }

  /**
   * Parsed once per call: the string for messages, the parts for undici (which would parse it again). The
   * last path without a query is remembered, as a batch sends every post to the same endpoint; the URL is
   * only ever read.
   */
  private resolve(path: string, query?: RequestSpec['query']): Resolved {
    if (!query && this.lastResolved?.from === path) return this.lastResolved;
    const target = this.target(path, query);
    const resolved: Resolved = {
      from: path,
      target,
      url: target.toString(),
      path: this.requestPath(path, target),
    };
    if (!query) this.lastResolved = resolved;
    return resolved;
  }

  private target(path: string, query?: RequestSpec['query']): URL {
    const url = /^https?:\/\//.test(path)
      ? new URL(path)
      : new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    if (query)
      for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async request<S extends z.ZodMiniType | undefined = undefined>(
    spec: RequestSpec<S>,
  ): Promise<HttpResponse<Body<S>>> {
    return this.send(spec);
  }

  /**
   * A request whose 2xx body is a JSON array, read as it arrives: each element is parsed, validated with the
   * array schema's element and handed to a collector (a fresh one for each attempt), so a list of any length
   * costs only what the collector keeps. Answers, errors, retries and limits are those of
   * `request({ ...spec, schema })` (see json-array.ts).
   */
  async requestArray<E extends z.ZodMiniType, R>(
    spec: ArrayRequestSpec<E>,
    collector: () => ArrayCollector<z.infer<E>, R>,
  ): Promise<HttpResponse<R>> {
    const { schema: given, ...rest } = spec;
    const live: RequestSpec<z.ZodMiniArray<E>> = {
      ...rest,
      ...(typeof given !== 'function' && { schema: given }),
    };
    const element = (): E | undefined => live.schema?.def.element as E | undefined;
    let loading: Promise<void> | undefined;
    // send() dispatches the first attempt before it returns its promise.
    const response = this.send(
      live,
      () => new StreamedArray(element, collector(), this.maxResponseBytes),
      () => loading,
    );
    if (typeof given === 'function') {
      // After this turn of the event loop: the connection is being made (or the request written) meanwhile.
      loading = new Promise<void>((resolve) => setImmediate(resolve))
        .then(given)
        .then((schema) => void (live.schema = schema));
      // Awaited by send() before the answer is finished; a request that fails first never reads it.
      loading.catch(() => undefined);
    }
    const res = await response;
    return res as HttpResponse<R>;
  }

  private async send<S extends z.ZodMiniType | undefined>(
    spec: RequestSpec<S>,
    streamed?: () => StreamedArray<unknown, unknown>,
    /** What must be ready before a 2xx answer is finished: a schema still loading (requestArray). */
    ready?: () => Promise<void> | undefined,
  ): Promise<HttpResponse<Body<S>>> {
    const idempotent =
      spec.idempotent ?? (spec.method === 'GET' || spec.method === 'DELETE' || spec.method === 'PUT');
    const { target, url, path } = this.resolve(spec.path, spec.query);
    const endpoint = `${spec.method} ${path.split('?')[0]!}`;
    const headers: Record<string, string> = spec.headers
      ? { ...this.baseHeaders, ...spec.headers }
      : { ...this.baseHeaders };
    let body: string | Buffer | Uint8Array | undefined;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    } else if (spec.raw) {
      body = spec.raw.data;
      headers['content-type'] = spec.raw.contentType;
    }
    // One key for every attempt of this logical request, so a server that honours it never acts twice.
    if (
      spec.method === 'POST' &&
      !this.baseHasIdempotencyKey &&
      !(spec.headers && hasHeader(spec.headers, 'idempotency-key'))
    )
      headers['idempotency-key'] = uuid();

    const budgetMs = spec.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const deadline = now() + budgetMs;
    const reserve = Math.min(MIN_ATTEMPT_MS, budgetMs / 4);
    // Debug lines are only put together when someone reads them: a bulk run sends thousands of requests.
    const debugging = this.options.debug !== undefined;
    const shown = debugging ? shownUrl(url, path) : '';
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      if (this.options.signal?.aborted) throw new InterruptedError();
      const started = now();
      if (debugging)
        this.debug(
          `${spec.method} ${shown}${attempt ? ` (attempt ${attempt + 1})` : ''}${describeRequest(headers, body)}`,
        );
      let outcome: Attempt;
      try {
        const pending = this.attempt(target, path, spec.method, headers, body, deadline - started, streamed);
        this.inflight.add(pending);
        outcome = await pending.finally(() => this.inflight.delete(pending));
      } catch (error) {
        if (this.options.signal?.aborted) throw new InterruptedError();
        const code = networkErrorCode(error);
        const timedOut = error instanceof AttemptTimeout;
        if (debugging)
          this.debug(
            `${spec.method} ${shown} failed after ${ms(started)}: ${timedOut ? 'timeout' : error instanceof TooLarge ? 'response too large' : (code ?? describe(error))}`,
          );
        // A request that may have reached the server is repeated only when repeating it is harmless.
        const canRepeat =
          error instanceof TooLarge
            ? false
            : idempotent
              ? timedOut || isNetworkCode(code)
              : wasNeverSent(code);
        const delay = canRepeat ? this.nextDelay(attempt, waited, deadline - reserve) : undefined;
        if (delay !== undefined) {
          waited += delay;
          await this.pause(
            delay,
            `${endpoint}: ${code ?? 'failed'}, retrying in ${delay} ms (attempt ${attempt + 2})`,
          );
          continue;
        }
        throw this.networkError(error, spec, url, endpoint, timedOut, code, budgetMs);
      }
      if (debugging)
        this.debug(`${spec.method} ${shown} → ${outcome.status} in ${ms(started)} (${outcome.size} bytes)`);
      if (outcome.status >= 400 && !spec.passStatuses?.includes(outcome.status)) {
        const retryAfterMs = parseRetryAfter(outcome.headers['retry-after']);
        if (RETRYABLE_STATUSES.has(outcome.status) && idempotent) {
          const delay = this.nextDelay(attempt, waited, deadline - reserve, retryAfterMs);
          if (delay !== undefined) {
            waited += delay;
            await this.pause(
              delay,
              `${endpoint}: HTTP ${outcome.status}, retrying in ${delay} ms (attempt ${attempt + 2})`,
            );
            continue;
          }
        }
        throw this.statusError(outcome, spec, endpoint, retryAfterMs);
      }
      // Redirects are never followed (the Authorization header must not travel to wherever one points) and
      // never success: a 301 to a delete is not a delete. The caller learns where it points.
      if (outcome.status >= 300 && outcome.status < 400 && !spec.passStatuses?.includes(outcome.status)) {
        const location = outcome.headers['location'];
        throw new UnavailableError(
          `${spec.label ?? endpoint} failed: the server answered HTTP ${outcome.status}, a redirect${location ? ` to ${safeUrl(location)}` : ''}; blogctl does not follow redirects`,
          {
            status: outcome.status,
            endpoint,
            hints: [
              location
                ? `if the service moved, use its new address as the base URL (--base-url, BLOGCTL_BASE_URL)`
                : 'check the base URL (--base-url, BLOGCTL_BASE_URL)',
            ],
          },
        );
      }
      await ready?.();
      return this.finish(outcome, spec, endpoint);
    }
  }

  /**
   * The wait before the next attempt, or undefined to give up: out of retries, out of the total-wait cap, or
   * too close to the call's deadline (`lastStart`: the latest moment worth starting another attempt). A
   * Retry-After longer than what is left is respected by giving up, not by knocking early.
   */
  private nextDelay(
    attempt: number,
    waited: number,
    lastStart: number,
    retryAfterMs?: number,
  ): number | undefined {
    if (attempt >= this.retry.retries) return undefined;
    const budget = Math.min(this.retry.maxTotalWaitMs - waited, lastStart - now());
    if (budget <= 0 || (retryAfterMs !== undefined && retryAfterMs > budget)) return undefined;
    return Math.min(backoffDelay(this.retry, attempt, retryAfterMs), budget);
  }

  /**
   * One exchange through undici's dispatch API: the body is collected straight from the handler's callbacks,
   * with none of the per-request machinery of undici's request() (an AbortSignal, a Readable, an async
   * iterator) that a bulk command pays thousands of times. The timer ends the attempt at the call's deadline;
   * a request still waiting for a connection then is aborted before a byte of it is written.
   */
  private attempt(
    url: URL,
    path: string,
    method: Method,
    headers: Record<string, string>,
    body: string | Buffer | Uint8Array | undefined,
    timeoutMs: number,
    streamed?: () => StreamedArray<unknown, unknown>,
  ): Promise<Attempt> {
    return new Promise<Attempt>((resolve, reject) => {
      const max = this.maxResponseBytes;
      const chunks: Buffer[] = [];
      // A 2xx body goes to `array` as it arrives; error statuses keep their (small) body whole, for the
      // peer's message.
      let array: StreamedArray<unknown, unknown> | undefined;
      let size = 0;
      let status = 0;
      let responseHeaders: Record<string, string> = {};
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let reason: Error | undefined;
      const settle = (error: Error | undefined): void => {
        if (settled) return;
        settled = true;
        reason = error;
        clearTimeout(timer);
        this.attempts.delete(flight);
        if (error) reject(error);
        else {
          resolve({
            status,
            headers: responseHeaders,
            text: array ? '' : Buffer.concat(chunks, size).toString('utf8'),
            size,
            ...(array && { array }),
          });
        }
      };
      // Ends the attempt now; undici drops the request (or its connection) as soon as it can.
      const stop = (reason: Error): void => {
        settle(reason);
        if (controller && !controller.aborted) controller.abort(reason);
      };
      const flight: InFlight = { stop };
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: (c) => {
          controller = c;
          // Ended while it waited for a connection: never written.
          if (settled) c.abort(reason ?? new AttemptTimeout());
        },
        onResponseStart: (_c, statusCode, rawHeaders) => {
          if (statusCode < 200) return; // informational (100 Continue): the answer is still to come
          status = statusCode;
          responseHeaders = {};
          for (const [k, v] of Object.entries(rawHeaders)) {
            if (v !== undefined) responseHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
          }
          array = streamed && statusCode < 400 ? streamed() : undefined;
          // A declared length over the limit fails before a byte of the body is read. A streamed array is
          // limited per element instead (json-array.ts): its memory does not grow with its length.
          const declared = Number(responseHeaders['content-length']);
          if (!array && Number.isFinite(declared) && declared > max) return stop(new TooLarge(max));
        },
        onResponseData: (_c, chunk) => {
          if (settled) return;
          size += chunk.length;
          if (!array) {
            if (size > max) return stop(new TooLarge(max));
            return void chunks.push(chunk);
          }
          try {
            array.push(chunk);
          } catch (error) {
            // push() records what it finds for end(); anything else must still end this attempt.
            stop(error as Error);
          }
        },
        onResponseEnd: () => settle(undefined),
        // After the status line the server did answer: its answer was cut off, it was not unreachable.
        onResponseError: (_c, error) => settle(status ? new ResponseCutOff(status, error) : error),
      };
      const timer = setTimeout(() => stop(new AttemptTimeout()), Math.max(0, timeoutMs));
      this.attempts.add(flight);
      this.listen();
      const options: Dispatcher.DispatchOptions = {
        origin: url.origin,
        path,
        method,
        headers,
        ...(body !== undefined && { body }),
      };
      const send = (dispatcher: Pick<Dispatcher, 'dispatch'>): void => {
        try {
          dispatcher.dispatch(options, handler);
        } catch (error) {
          settle(error as Error);
        }
      };
      if (this.usesNodeHttp(method, url, body)) send(this.nodeGets());
      else this.dispatcher().then(send, (error: Error) => settle(error));
    });
  }

  /** Ctrl-C ends every attempt in flight with the signal's reason (request() turns it into an interruption). */
  private listen(): void {
    const outer = this.options.signal;
    if (this.listening || !outer) return;
    this.listening = true;
    outer.addEventListener(
      'abort',
      () => {
        for (const flight of [...this.attempts]) flight.stop(outer.reason as Error);
      },
      { once: true },
    );
  }

  private finish(
    outcome: Attempt,
    spec: RequestSpec<z.ZodMiniType | undefined>,
    endpoint: string,
  ): HttpResponse<never> {
    if (outcome.array) return this.finishArray(outcome, outcome.array, spec, endpoint);
    const what = spec.label ?? endpoint;
    const contentType = outcome.headers['content-type'] ?? '';
    const empty = outcome.text.trim() === '';
    if (empty) {
      // A 204 is no excuse: where the caller needs a JSON body, an empty answer is an invalid response.
      if (
        spec.allowEmpty ||
        spec.acceptText ||
        outcome.status >= 400 ||
        (outcome.status === 204 && !spec.schema)
      ) {
        return { ...outcome, body: undefined as never };
      }
      throw new UnavailableError(
        `${what}: the server answered HTTP ${outcome.status} with an empty body where JSON was expected`,
        {
          status: outcome.status,
          endpoint,
        },
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(outcome.text);
    } catch {
      if (spec.acceptText) return { ...outcome, body: outcome.text as never };
      const { message } = extractPeerMessage(outcome.text, contentType);
      throw notJsonError(what, outcome.status, contentType, message, endpoint);
    }
    if (spec.schema && outcome.status < 400) {
      const result = check(spec.schema, parsed);
      if (!result.ok) throw schemaError(what, outcome.status, result.issues, endpoint);
      parsed = result.value;
    }
    return { ...outcome, body: parsed as never };
  }

  /** A streamed array body: the same answers as finish() gives for the whole body. */
  private finishArray(
    outcome: Attempt,
    array: StreamedArray<unknown, unknown>,
    spec: RequestSpec<z.ZodMiniType | undefined>,
    endpoint: string,
  ): HttpResponse<never> {
    const what = spec.label ?? endpoint;
    const result = array.end();
    switch (result.kind) {
      case 'items':
        return { ...outcome, body: result.value as never };
      case 'not-json': {
        // The whole body is not JSON, so extractPeerMessage would clean its start: that is what `head` holds.
        const message = cleanSnippet(result.head.trim()) || undefined;
        throw notJsonError(what, outcome.status, outcome.headers['content-type'] ?? '', message, endpoint);
      }
      case 'invalid':
        throw schemaError(what, outcome.status, result.issues, endpoint);
      case 'buffered': {
        // Empty, or not an array: every such body fails as it always did (an array would have streamed).
        const whole = this.finish({ ...outcome, text: result.text, array: undefined }, spec, endpoint);
        return { ...whole, body: array.collect(whole.body as unknown[]) as never };
      }
    }
  }

  private statusError(
    outcome: Attempt,
    spec: RequestSpec<z.ZodMiniType | undefined>,
    endpoint: string,
    retryAfterMs: number | undefined,
  ): BlogctlError {
    const peer = extractPeerMessage(outcome.text, outcome.headers['content-type']);
    const what = spec.label ? `${spec.label} failed` : 'request failed';
    const message = `${what}: HTTP ${outcome.status} ${endpoint}${peer.message ? `: ${peer.message}` : ''}`;
    const hints =
      RETRYABLE_STATUSES.has(outcome.status) && retryAfterMs !== undefined && retryAfterMs >= 1000
        ? [`the server asked to retry after ${Math.ceil(retryAfterMs / 1000)} s`]
        : [];
    return errorForStatus(outcome.status, message, {
      status: outcome.status,
      endpoint,
      ...(peer.message && { serviceMessage: peer.message }),
      ...(peer.code && { peerCode: peer.code }),
      ...(hints.length && { hints }),
    });
  }

  private networkError(
    error: unknown,
    spec: RequestSpec<z.ZodMiniType | undefined>,
    url: string,
    endpoint: string,
    timedOut: boolean,
    code: string | undefined,
    budgetMs: number,
  ): BlogctlError {
    const what = spec.label ? `${spec.label} failed` : 'request failed';
    const origin = new URL(url).origin;
    if (error instanceof TooLarge) {
      const part =
        error.element === undefined ? 'the response' : `item [${error.element}] of the list in the response`;
      return new UnavailableError(
        `${what}: ${endpoint}: ${part} was larger than ${formatBytes(error.max)} (BLOGCTL_MAX_RESPONSE_MB raises the limit)`,
        { endpoint },
      );
    }
    if (timedOut) {
      const seconds = Math.round(budgetMs / 100) / 10;
      return new UnavailableError(
        `${what}: ${endpoint}: no complete answer from ${origin} within ${seconds} s (raise --timeout)`,
        {
          endpoint,
          peerCode: 'timeout',
        },
      );
    }
    if (error instanceof ResponseCutOff) {
      const why = (code && NETWORK_REASONS[code]) ?? describe(error.cause) ?? code ?? 'unknown error';
      return new UnavailableError(
        `${what}: ${endpoint}: ${origin} answered HTTP ${error.status} but the answer was cut off before its end (${why})`,
        { status: error.status, endpoint, ...(code && { peerCode: code }) },
      );
    }
    const reason = (code && NETWORK_REASONS[code]) ?? describe(error) ?? code ?? 'unknown error';
    const proxy =
      this.options.proxy === false || this.options.dispatcher || this.options.publicOnly
        ? undefined
        : proxyEnv(this.env);
    const via = proxy && !bypassesProxy(url, proxy.noProxy) ? proxyFor(url, proxy) : undefined;
    const hints = via
      ? [`requests go through the proxy ${safeUrl(via)} (HTTP(S)_PROXY; NO_PROXY lists hosts that bypass it)`]
      : [];
    // The proxy is named in the line itself: hint lines reach only a terminal, and a CI log is where a
    // wrong HTTPS_PROXY is usually found.
    const through = via ? ` through the proxy ${safeUrl(via)}` : '';
    return new UnavailableError(`${what}: cannot reach ${origin}${through}: ${reason}`, {
      endpoint,
      ...(code && { peerCode: code }),
      ...(hints.length && { hints }),
    });
  }

  private async pause(delay: number, note: string): Promise<void> {
    this.debug(note);
    const sleep = this.options.sleep ?? abortableSleep;
    try {
      await sleep(delay, this.options.signal);
    } catch {
      throw new InterruptedError();
    }
  }

  private debug(line: string): void {
    this.options.debug?.(line);
  }
}

interface InFlight {
  stop(reason: Error): void;
}

interface Attempt {
  status: number;
  headers: Record<string, string>;
  /** The body; empty when it went to `array` instead. */
  text: string;
  /** Body size in bytes (text.length counts UTF-16 units). */
  size: number;
  array?: StreamedArray<unknown, unknown> | undefined;
}

/**
 * Monotonic milliseconds. Not performance.now(): Node 20 loads perf_hooks the first time the global
 * `performance` is touched, about a millisecond of a short command for the same clock.
 */
function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function ms(started: number): string {
  return `${Math.round(now() - started)} ms`;
}

/** node:crypto only for a POST: loading it costs a GET-only command a few milliseconds for nothing. */
function uuid(): string {
  return process.getBuiltinModule('node:crypto').randomUUID();
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/** BLOGCTL_MAX_RESPONSE_MB (test/ops knob): the largest response body, in MiB. */
function maxResponseBytesFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env['BLOGCTL_MAX_RESPONSE_MB'];
  if (raw === undefined || raw.trim() === '') return DEFAULT_MAX_RESPONSE_MB * MIB;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 4096) {
    throw new UsageError(
      `BLOGCTL_MAX_RESPONSE_MB: expected a size in MiB from 0 to 4096 (e.g. 100 or 0.5), got "${raw}"`,
    );
  }
  return Math.floor(n * MIB);
}

function formatBytes(n: number): string {
  return n >= MIB ? `${Math.round((n / MIB) * 10) / 10} MiB` : `${n} bytes`;
}

interface Resolved {
  /** The path (or absolute URL) as the caller gave it. */
  from: string;
  target: URL;
  url: string;
  /** The request line's path and query (requestPath()). */
  path: string;
}

export function abortableSleep(msDelay: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, msDelay);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
