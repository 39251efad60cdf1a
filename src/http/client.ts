// The one HTTP layer. Everything that talks to the network (the service client, the WordPress client, the
// sandbox's relay) goes through HttpClient: base URL, auth header, user agent, timeouts, retries that never
// duplicate a non-idempotent request, typed errors, redacted debug lines, and zod at the boundary.
//
// This file is the request and its retry loop. What carries an attempt is transport.ts (undici, or node:http
// for a plain GET); what its answer becomes, a response or a typed error, is answer.ts; where it goes is
// urls.ts (RequestTargets); how long it may wait, retry.ts; how large its answer may be, limits.ts.
import { InterruptedError, UnavailableError } from '../errors.js';
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
import { listLimitsFromEnv, maxResponseBytesFromEnv } from './limits.js';
import { proxyEnv } from './proxy.js';
import {
  RETRYABLE_STATUSES,
  abortableSleep,
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
import { RequestTargets, describeRequest, shownUrl } from './urls.js';

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
  private readonly targets: RequestTargets;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.env = options.env ?? process.env;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.targets = new RequestTargets(this.baseUrl);
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
    return this.targets.target(path, query).toString();
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
    if (status !== undefined && status >= 300 && status < 400 && advice.redirect) {
      return new UnavailableError(error.message, { ...error.context, hints: [advice.redirect] });
    }
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
      spec.idempotent ??
      (spec.method === 'GET' ||
        spec.method === 'OPTIONS' ||
        spec.method === 'DELETE' ||
        spec.method === 'PUT');
    const { target, url, path } = this.targets.resolve(spec.path, spec.query);
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
