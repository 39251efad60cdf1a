// The transports under HttpClient (client.ts): undici's dispatch API, with one pool per client, for https,
// proxies, bodies and bulk work; node:http (node-get.ts) for a plain-http GET with no proxy. Both take the
// same dispatch(options, handler) call and drive the same handler, so one exchange, an Attempt, is the same
// whichever carried it: the status, the headers and the body (or the streamed array it went to).
import type { Dispatcher } from 'undici';
import { AttemptTimeout, ResponseCutOff } from './errors.js';
import { TooLarge } from './json-array-split.js';
import type { StreamedArray } from './json-array.js';
import { NodeGetTransport } from './node-get.js';
import { proxyEnv } from './proxy.js';
import type { HttpClientOptions, Method } from './spec.js';

/** close() lets requests still in flight finish for this long, then cuts their connections. */
const CLOSE_GRACE_MS = 1_000;

let undiciModule: Promise<typeof import('undici')> | undefined;
/**
 * undici, loaded with the first request that needs it: a one-GET command (`blog list`) neither loads it nor
 * compiles its WebAssembly parser, as such a GET goes over node:http instead (see usesNodeHttp).
 */
function loadUndici(): Promise<typeof import('undici')> {
  // undici is CommonJS: Node's import() names its exports, but the bundle's split chunk hands them over as
  // `default` (esbuild's interop for a CommonJS chunk); either way, the same module.
  return (undiciModule ??= import('undici').then((m) =>
    'Agent' in m ? m : (m as unknown as { default: typeof m }).default,
  ));
}

export interface Attempt {
  status: number;
  headers: Record<string, string>;
  /** The body; empty when it went to `array` instead. */
  text: string;
  /** Body size in bytes (text.length counts UTF-16 units). */
  size: number;
  array?: StreamedArray<unknown, unknown> | undefined;
}

interface InFlight {
  stop(reason: Error): void;
}

/** The transports of one HttpClient, and the attempts in flight through them. */
export class Transports {
  private readonly options: HttpClientOptions;
  private readonly env: NodeJS.ProcessEnv;
  private readonly maxResponseBytes: number;
  private dispatcherInstance: Promise<Dispatcher> | undefined;
  private nodeTransport: NodeGetTransport | undefined;
  /** Set for good once a request of this client has gone over undici (or a dispatcher was given). */
  private usesUndici: boolean;
  private readonly inflight = new Set<Promise<unknown>>();
  /** Attempts in flight, for the one listener on options.signal (not one listener per request). */
  private readonly attempts = new Set<InFlight>();
  private listening = false;

  constructor(options: HttpClientOptions, env: NodeJS.ProcessEnv, maxResponseBytes: number) {
    this.options = options;
    this.env = env;
    this.maxResponseBytes = maxResponseBytes;
    if (options.dispatcher) this.dispatcherInstance = Promise.resolve(options.dispatcher);
    this.usesUndici = Boolean(options.dispatcher || options.publicOnly);
  }

  /** One attempt of a request, ended at `timeoutMs` at the latest; close() waits for it. */
  exchange(
    url: URL,
    path: string,
    method: Method,
    headers: Record<string, string>,
    body: string | Buffer | Uint8Array | undefined,
    timeoutMs: number,
    streamed?: () => StreamedArray<unknown, unknown>,
  ): Promise<Attempt> {
    const pending = this.attempt(url, path, method, headers, body, timeoutMs, streamed);
    this.inflight.add(pending);
    return pending.finally(() => this.inflight.delete(pending));
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
          // limited per element instead, and as a whole by the list limits (json-array.ts).
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
}
