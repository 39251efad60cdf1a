// GETs over node:http, for HttpClient's requests that need nothing undici adds (see Transports.usesNodeHttp).
//
// A start-up device kept by measurement (CONTRIBUTING.md, Performance): a one-request command such as
// `blog list` does not load undici or compile its WebAssembly HTTP parser; node:http is already in Node and
// parses natively. The transport takes the same dispatch(options, handler) call as an undici Dispatcher and
// drives the same handler callbacks, so HttpClient has one code path for both; the failures undici reports
// under a code of its own get that code here, so retries, error messages and exit codes are the same
// whichever transport carried the request (test/unit/http-transports.test.ts).
import { Agent, request, type ClientRequest } from 'node:http';
import type { Dispatcher } from 'undici';

/** The part of undici's DispatchController a handler uses. */
class Controller {
  aborted = false;
  reason: Error | null = null;
  paused = false;
  private onAbort: ((reason: Error) => void) | undefined;

  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.onAbort?.(reason);
  }

  whenAborted(onAbort: (reason: Error) => void): void {
    this.onAbort = onAbort;
  }

  pause(): void {}
  resume(): void {}
}

/** One keep-alive pool, as undici's Agent: at most `connections` sockets per origin. */
export class NodeGetTransport {
  private readonly agent: Agent;
  private readonly inflight = new Set<ClientRequest>();
  private destroyed = false;

  constructor(
    connections: number,
    private readonly connectTimeoutMs: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const controller = new Controller();
    const c = controller as unknown as Dispatcher.DispatchController;
    let done = false;
    const fail = (error: Error): void => {
      if (done) return;
      done = true;
      handler.onResponseError?.(c, error);
    };
    if (this.destroyed) {
      fail(destroyedError());
      return false;
    }
    handler.onRequestStart?.(c, {});
    // Ended before it was sent (its deadline passed while it waited): never written.
    if (controller.aborted) return true;
    // The path as an option, not in the URL string, which would resolve %2E%2E segments (see requestPath).
    const req = request(options.origin?.toString() ?? '', {
      path: options.path,
      method: 'GET',
      headers: options.headers as Record<string, string>,
      agent: this.agent,
    });
    this.inflight.add(req);
    controller.whenAborted((reason) => req.destroy(reason));
    let connectTimer: NodeJS.Timeout | undefined;
    req.once('close', () => {
      clearTimeout(connectTimer);
      this.inflight.delete(req);
    });
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      // undici's connect timeout (node:http has none): a host that never accepts fails as undici fails it.
      connectTimer = setTimeout(
        () => req.destroy(undiciLike('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT')),
        this.connectTimeoutMs,
      );
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    req.on('error', (error) => {
      if (controller.aborted) return fail(controller.reason ?? error);
      fail(this.destroyed ? destroyedError() : asUndiciError(error));
    });
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      const headers: Record<string, string | string[]> = {};
      for (const [name, values] of Object.entries(res.headersDistinct)) {
        if (values) headers[name] = values.length === 1 ? values[0]! : values;
      }
      handler.onResponseStart?.(c, res.statusCode ?? 0, headers, res.statusMessage ?? '');
      if (controller.aborted) return void res.destroy();
      res.on('data', (chunk: Buffer) => {
        if (!done && !controller.aborted) handler.onResponseData?.(c, chunk);
      });
      res.on('end', () => {
        if (done || controller.aborted) return;
        done = true;
        handler.onResponseEnd?.(c, {});
      });
      // A connection cut in the middle of the body: undici's "other side closed".
      res.on('error', () => undefined);
      res.on('close', () => {
        if (done) return;
        if (controller.aborted) return fail(controller.reason ?? destroyedError());
        fail(this.destroyed ? destroyedError() : undiciLike('other side closed', 'UND_ERR_SOCKET'));
      });
    });
    req.end();
    return true;
  }

  /**
   * Cuts every request in flight and closes the pool. As with undici's destroy(), what was cut fails with
   * "The client is destroyed" (UND_ERR_DESTROYED), which is not retried.
   */
  destroy(): void {
    this.destroyed = true;
    for (const req of this.inflight) req.destroy(destroyedError());
    this.inflight.clear();
    this.agent.destroy();
  }
}

/** The connection closed before any answer ("socket hang up"): undici's "other side closed". */
function asUndiciError(error: Error): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' && error.message === 'socket hang up')
    return undiciLike('other side closed', 'UND_ERR_SOCKET');
  return error;
}

function destroyedError(): Error {
  return undiciLike('The client is destroyed', 'UND_ERR_DESTROYED');
}

function undiciLike(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}
