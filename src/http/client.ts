// The one HTTP layer. Everything that talks to the network (the service client, the WordPress client, the
// sandbox's relay) goes through HttpClient: base URL, auth header, user agent, timeouts, retries that never
// duplicate a non-idempotent request, typed errors, redacted debug lines, and zod at the boundary.
//
// This file is the request and its retry loop. What carries an attempt is transport.ts (undici, or node:http
// for a plain GET); what its answer becomes, a response or a typed error, is answer.ts.
import { InterruptedError, UnavailableError, UsageError } from '../errors.js';
import type { ArraySchema, Infer, Schema } from '../schemas/validate.js';
import { finish, networkError, redirectError, statusError } from './answer.js';
import { AttemptTimeout, HTML_ANSWER, describe } from './errors.js';
import { TooLarge } from './json-array-split.js';
import {
  ListTooLarge,
  StreamedArray,
  WHOLE_BYTES,
  type ArrayCollector,
  type ListLimits,
} from './json-array.js';
import { proxyEnv } from './proxy.js';
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
import {
  userAgent,
  type ArrayRequestSpec,
  type Body,
  type HttpClientOptions,
  type HttpResponse,
  type RequestSpec,
} from './spec.js';
import { Transports, type Attempt } from './transport.js';
import { REQUEST_PATH, describeRequest, shownUrl } from './urls.js';

// In files of their own; still exported from here for the callers that import them from the client.
export { bypassesProxy, proxyEnv } from './proxy.js';
export { safeUrl } from './urls.js';
export {
  userAgent,
  type ArrayRequestSpec,
  type Body,
  type HttpClientOptions,
  type HttpResponse,
  type Method,
  type RawBody,
  type RequestSpec,
} from './spec.js';

const MIB = 1024 * 1024;
// Generous for a list of full blogs, small enough that a runaway body cannot exhaust a CI runner's memory.
const DEFAULT_MAX_RESPONSE_MB = 100;
/**
 * A list answer as a whole (blog list): room for far more blogs than an account holds, and little enough that
 * keeping every item (a table needs them all) stays within a small machine's memory.
 */
const DEFAULT_MAX_LIST_MB = 256;
const DEFAULT_MAX_LIST_ITEMS = 100_000;
/**
 * Time kept for the next attempt (at most a quarter of the call's budget): retrying with less left would only
 * turn a clear HTTP error into a timeout.
 */
const MIN_ATTEMPT_MS = 1_000;

export class HttpClient {
  readonly baseUrl: string;
  private readonly options: HttpClientOptions;
  private readonly retry: RetryPolicy;
  private readonly maxResponseBytes: number;
  private readonly listLimits: ListLimits;
  private readonly env: NodeJS.ProcessEnv;
  private readonly transports: Transports;
  /** The headers every request starts from (the spec's own go over them). */
  private readonly baseHeaders: Record<string, string>;
  private readonly baseHasIdempotencyKey: boolean;
  /** The base URL's path, without its trailing slash (see requestPath). */
  private basePath: string | undefined;
  private lastResolved: Resolved | undefined;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.env = options.env ?? process.env;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...defaultRetryPolicy, ...retryPolicyFromEnv(this.env), ...options.retry };
    this.maxResponseBytes = options.maxResponseBytes ?? maxResponseBytesFromEnv(this.env);
    this.listLimits = options.listLimits ?? listLimitsFromEnv(this.env);
    this.transports = new Transports(options, this.env, this.maxResponseBytes);
    this.baseHeaders = { 'user-agent': userAgent, accept: 'application/json', ...options.headers };
    this.baseHasIdempotencyKey = hasHeader(this.baseHeaders, 'idempotency-key');
  }

  /**
   * Lets requests still in flight finish for a moment, then cuts them: a CLI must never hang on exit (see
   * Transports.close).
   */
  close(): Promise<void> {
    return this.transports.close();
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

  async request<S extends Schema | undefined = undefined>(
    spec: RequestSpec<S>,
  ): Promise<HttpResponse<Body<S>>> {
    if (!this.options.advice) return this.send(spec);
    return this.send(spec).catch((error: unknown) => {
      throw this.advised(error);
    });
  }

  /**
   * The error with the client's advice as a hint: an answer in HTML (a web page where the API should be) or
   * a host that could not be reached (no status at all, not a timeout or a cut answer).
   */
  private advised(error: unknown): unknown {
    const advice = this.options.advice;
    if (!advice || !(error instanceof UnavailableError)) return error;
    const { status, peerCode } = error.context;
    const hint =
      status !== undefined && error.message.includes(HTML_ANSWER)
        ? advice.html
        : status === undefined &&
            peerCode !== 'timeout' &&
            // A proxy in force is named instead: it is the likelier cause.
            !error.context.hints?.length &&
            error.message.includes(': cannot reach ')
          ? advice.unreachable
          : undefined;
    if (!hint) return error;
    return new UnavailableError(error.message, {
      ...error.context,
      hints: [hint, ...(error.context.hints ?? [])],
    });
  }

  /**
   * A request whose 2xx body is a JSON array, read as it arrives: each element is parsed, validated with the
   * array schema's element and handed to a collector (a fresh one for each attempt), so a list of any length
   * costs only what the collector keeps. Answers, errors, retries and limits are those of
   * `request({ ...spec, schema })` (see json-array.ts).
   */
  async requestArray<E extends Schema, R>(
    spec: ArrayRequestSpec<E>,
    collector: () => ArrayCollector<Infer<E>, R>,
  ): Promise<HttpResponse<R>> {
    const { schema: given, ...rest } = spec;
    const live: RequestSpec<ArraySchema<E>> = {
      ...rest,
      ...(typeof given !== 'function' && { schema: given }),
    };
    const element = (): E | undefined => live.schema?.def.element as E | undefined;
    let loading: Promise<void> | undefined;
    // send() dispatches the first attempt before it returns its promise.
    const response = this.send(
      live,
      () => new StreamedArray(element, collector(), this.maxResponseBytes, WHOLE_BYTES, this.listLimits),
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
    const res = await response.catch((error: unknown) => {
      throw this.advised(error);
    });
    return res as HttpResponse<R>;
  }

  private async send<S extends Schema | undefined>(
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
        outcome = await this.transports.exchange(
          target,
          path,
          spec.method,
          headers,
          body,
          deadline - started,
          streamed,
        );
      } catch (error) {
        if (this.options.signal?.aborted) throw new InterruptedError();
        const code = networkErrorCode(error);
        const timedOut = error instanceof AttemptTimeout;
        if (debugging)
          this.debug(
            `${spec.method} ${shown} failed after ${ms(started)}: ${timedOut ? 'timeout' : error instanceof TooLarge || error instanceof ListTooLarge ? 'response too large' : (code ?? describe(error))}`,
          );
        // A request that may have reached the server is repeated only when repeating it is harmless.
        const canRepeat =
          error instanceof TooLarge || error instanceof ListTooLarge
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
        throw networkError(error, spec, url, endpoint, timedOut, code, budgetMs, this.proxyInForce());
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
        throw statusError(outcome, spec, endpoint, retryAfterMs);
      }
      // Redirects are never followed and never success (answer.ts).
      if (outcome.status >= 300 && outcome.status < 400 && !spec.passStatuses?.includes(outcome.status))
        throw redirectError(outcome, spec, endpoint);
      await ready?.();
      return finish(outcome, spec, endpoint);
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

  /** The proxy requests of this client go through, for error messages; none with a dispatcher given. */
  private proxyInForce(): ReturnType<typeof proxyEnv> {
    return this.options.proxy === false || this.options.dispatcher || this.options.publicOnly
      ? undefined
      : proxyEnv(this.env);
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

/** node:crypto is loaded for a POST only: a GET-only command has no use for it. */
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

/**
 * BLOGCTL_MAX_LIST_MB and BLOGCTL_MAX_LIST_ITEMS: the bounds of a list answer as a whole (its body's size
 * and its number of items). Each item is also bounded by BLOGCTL_MAX_RESPONSE_MB.
 */
export function listLimitsFromEnv(env: NodeJS.ProcessEnv): ListLimits {
  const mb = env['BLOGCTL_MAX_LIST_MB'];
  const items = env['BLOGCTL_MAX_LIST_ITEMS'];
  let maxBytes = DEFAULT_MAX_LIST_MB * MIB;
  let maxItems = DEFAULT_MAX_LIST_ITEMS;
  if (mb !== undefined && mb.trim() !== '') {
    const n = Number(mb);
    if (!Number.isFinite(n) || n <= 0 || n > 16384)
      throw new UsageError(
        `BLOGCTL_MAX_LIST_MB: expected a size in MiB from 0 to 16384 (e.g. 256 or 0.5), got "${mb}"`,
      );
    maxBytes = Math.floor(n * MIB);
  }
  if (items !== undefined && items.trim() !== '') {
    const n = Number(items);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(
        `BLOGCTL_MAX_LIST_ITEMS: expected a whole number of items (e.g. 100000), got "${items}"`,
      );
    maxItems = n;
  }
  return { maxBytes, maxItems };
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
