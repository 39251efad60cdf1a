// The one HTTP layer. Everything that talks to the network (the service client, the WordPress client, the
// sandbox's relay) goes through HttpClient: base URL, auth header, user agent, timeouts, retries that never
// duplicate a non-idempotent request, typed errors, redacted debug lines, and zod at the boundary.
import { randomUUID } from 'node:crypto';
import { Agent, EnvHttpProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { InterruptedError, UnavailableError, errorForStatus, type BlogctlError } from '../errors.js';
import { check, formatIssues } from '../schemas/validate.js';
import { extractPeerMessage } from './message.js';
import {
  RETRYABLE_STATUSES,
  backoffDelay,
  defaultRetryPolicy,
  isNetworkCode,
  networkErrorCode,
  parseRetryAfter,
  wasNeverSent,
  type RetryPolicy,
} from './retry.js';

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
  /** Overall time for one attempt, from connect to the last byte. */
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
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Abort everything in flight (Ctrl-C). */
  signal?: AbortSignal;
  /** Redacted debug sink (`--debug`). */
  debug?: (line: string) => void;
  dispatcher?: Dispatcher;
  /** Connections per origin, for bulk commands. */
  connections?: number;
  maxResponseBytes?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

type Body<S> = S extends z.ZodMiniType ? z.infer<S> : unknown;

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024 * 1024;

export class HttpClient {
  readonly baseUrl: string;
  private readonly options: HttpClientOptions;
  private readonly retry: RetryPolicy;
  private dispatcherInstance: Dispatcher | undefined;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.dispatcherInstance = options.dispatcher;
  }

  /** One pool per client; honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY. */
  get dispatcher(): Dispatcher {
    if (!this.dispatcherInstance) {
      const connect = { timeout: this.options.connectTimeoutMs ?? 10_000 };
      const shared = {
        connect,
        connections: this.options.connections ?? 16,
        keepAliveTimeout: 4_000,
        headersTimeout: 0,
        bodyTimeout: 0,
      };
      this.dispatcherInstance = hasProxyEnv() ? new EnvHttpProxyAgent(shared) : new Agent(shared);
    }
    return this.dispatcherInstance;
  }

  async close(): Promise<void> {
    if (this.dispatcherInstance && !this.options.dispatcher) await this.dispatcherInstance.close();
  }

  url(path: string, query?: RequestSpec['query']): string {
    const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  async request<S extends z.ZodMiniType | undefined = undefined>(spec: RequestSpec<S>): Promise<HttpResponse<Body<S>>> {
    const idempotent = spec.idempotent ?? (spec.method === 'GET' || spec.method === 'DELETE' || spec.method === 'PUT');
    const url = this.url(spec.path, spec.query);
    const endpoint = `${spec.method} ${new URL(url).pathname}`;
    const headers: Record<string, string> = {
      'user-agent': userAgent,
      accept: 'application/json',
      ...this.options.headers,
      ...spec.headers,
    };
    let body: string | Buffer | Uint8Array | undefined;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    } else if (spec.raw) {
      body = spec.raw.data;
      headers['content-type'] = spec.raw.contentType;
    }
    // One key for every attempt of this logical request, so a server that honours it never acts twice.
    if (spec.method === 'POST' && !hasHeader(headers, 'idempotency-key')) headers['idempotency-key'] = randomUUID();

    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let outcome: Attempt;
      try {
        outcome = await this.attempt(spec, url, headers, body);
      } catch (error) {
        if (this.options.signal?.aborted) throw new InterruptedError();
        const code = networkErrorCode(error);
        const timedOut = error instanceof AttemptTimeout;
        this.debug(`${endpoint} failed after ${ms(started)}: ${timedOut ? 'timeout' : (code ?? describe(error))}`);
        const canRepeat = idempotent ? timedOut || isNetworkCode(code) : wasNeverSent(code);
        const delay = backoffDelay(this.retry, attempt);
        if (canRepeat && attempt < this.retry.retries && waited + delay <= this.retry.maxTotalWaitMs) {
          waited += delay;
          await this.pause(delay, `${endpoint}: retrying in ${delay} ms (attempt ${attempt + 2})`);
          continue;
        }
        throw this.networkError(error, spec, url, endpoint, timedOut, code);
      }
      this.debug(`${endpoint} → ${outcome.status} (${ms(started)}, ${outcome.text.length} bytes)`);
      if (outcome.status >= 400 && !spec.passStatuses?.includes(outcome.status)) {
        if (RETRYABLE_STATUSES.has(outcome.status) && idempotent && attempt < this.retry.retries) {
          const delay = backoffDelay(this.retry, attempt, parseRetryAfter(outcome.headers['retry-after']));
          if (waited + delay <= this.retry.maxTotalWaitMs) {
            waited += delay;
            await this.pause(delay, `${endpoint}: HTTP ${outcome.status}, retrying in ${delay} ms`);
            continue;
          }
        }
        throw this.statusError(outcome, spec, endpoint);
      }
      return this.finish(outcome, spec, endpoint);
    }
  }

  private async attempt(
    spec: RequestSpec<z.ZodMiniType | undefined>,
    url: string,
    headers: Record<string, string>,
    body: string | Buffer | Uint8Array | undefined,
  ): Promise<Attempt> {
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
    const outer = this.options.signal;
    const onAbort = (): void => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await undiciRequest(url, {
        method: spec.method,
        headers,
        body,
        dispatcher: this.dispatcher,
        signal: controller.signal,
      });
      const max = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > max) {
          res.body.destroy();
          throw new TooLarge(max);
        }
        chunks.push(chunk);
      }
      const responseHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) responseHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      return { status: res.statusCode, headers: responseHeaders, text: Buffer.concat(chunks, size).toString('utf8') };
    } catch (error) {
      if (controller.signal.aborted && controller.signal.reason instanceof AttemptTimeout) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
  }

  private finish(outcome: Attempt, spec: RequestSpec<z.ZodMiniType | undefined>, endpoint: string): HttpResponse<never> {
    const what = spec.label ?? endpoint;
    const contentType = outcome.headers['content-type'] ?? '';
    const empty = outcome.text.trim() === '';
    if (empty) {
      if (spec.allowEmpty || spec.acceptText || outcome.status === 204 || outcome.status >= 400) {
        return { ...outcome, body: undefined as never };
      }
      throw new UnavailableError(`${what}: the server answered HTTP ${outcome.status} with an empty body where JSON was expected`, {
        status: outcome.status,
        endpoint,
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(outcome.text);
    } catch {
      if (spec.acceptText) return { ...outcome, body: outcome.text as never };
      const { message } = extractPeerMessage(outcome.text, contentType);
      throw new UnavailableError(
        `${what}: the server answered HTTP ${outcome.status} with ${/html/i.test(contentType) ? 'an HTML page' : 'a body that is not JSON'} (${message ?? 'empty'})`,
        { status: outcome.status, endpoint },
      );
    }
    if (spec.schema && outcome.status < 400) {
      const result = check(spec.schema, parsed);
      if (!result.ok) {
        throw new UnavailableError(`${what}: unexpected response from the server: ${formatIssues(result.issues.slice(0, 3))}`, {
          status: outcome.status,
          endpoint,
        });
      }
      parsed = result.value;
    }
    return { ...outcome, body: parsed as never };
  }

  private statusError(outcome: Attempt, spec: RequestSpec<z.ZodMiniType | undefined>, endpoint: string): BlogctlError {
    const peer = extractPeerMessage(outcome.text, outcome.headers['content-type']);
    const what = spec.label ? `${spec.label} failed` : 'request failed';
    const message = `${what}: HTTP ${outcome.status} ${endpoint}${peer.message ? `: ${peer.message}` : ''}`;
    return errorForStatus(outcome.status, message, {
      status: outcome.status,
      endpoint,
      ...(peer.message && { serviceMessage: peer.message }),
      ...(peer.code && { peerCode: peer.code }),
    });
  }

  private networkError(
    error: unknown,
    spec: RequestSpec<z.ZodMiniType | undefined>,
    url: string,
    endpoint: string,
    timedOut: boolean,
    code: string | undefined,
  ): BlogctlError {
    const what = spec.label ? `${spec.label} failed` : 'request failed';
    const origin = new URL(url).origin;
    if (error instanceof TooLarge) {
      return new UnavailableError(`${what}: ${endpoint}: the response was larger than ${error.max} bytes`, { endpoint });
    }
    if (timedOut) {
      const seconds = Math.round((spec.timeoutMs ?? this.options.timeoutMs ?? 60_000) / 100) / 10;
      return new UnavailableError(`${what}: ${endpoint}: no complete answer from ${origin} within ${seconds} s (raise --timeout)`, {
        endpoint,
        peerCode: 'timeout',
      });
    }
    const reason = code ? (NETWORK_REASONS[code] ?? code) : describe(error);
    return new UnavailableError(`${what}: cannot reach ${origin}: ${reason}`, { endpoint, ...(code && { peerCode: code }) });
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

interface Attempt {
  status: number;
  headers: Record<string, string>;
  text: string;
}

class AttemptTimeout extends Error {
  constructor() {
    super('timeout');
  }
}
class TooLarge extends Error {
  constructor(readonly max: number) {
    super('too large');
  }
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the response',
  UND_ERR_BODY_TIMEOUT: 'timed out reading the response',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the response was cut short',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  ERR_INVALID_URL: 'invalid URL',
};

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error);
}

function ms(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function hasProxyEnv(): boolean {
  const env = process.env;
  return Boolean(env['HTTP_PROXY'] || env['http_proxy'] || env['HTTPS_PROXY'] || env['https_proxy']);
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
