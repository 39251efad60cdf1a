// The sandbox's node:http server: its connection limits and timeouts, the requests Node's parser refuses
// answered, every request answered (500 for an unexpected error) and logged by its path alone.
import {
  createServer,
  maxHeaderSize,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { UsageError } from '../errors.js';
import { ConnectionGuard, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connections.js';
import { describe, type Dispatch } from './dispatch.js';
import { answerClientError, ClientGone, HttpProblem, sendReply, type Reply } from './http-io.js';

const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, body included (a 5 MB body over a slow link fits). */
const REQUEST_TIMEOUT_MS = 60_000;

/** Answers every request, errors included (500 for an unexpected one), and logs one line for it. */
export function answerRequests(
  dispatch: Dispatch,
  log: (line: string) => void,
  closing: () => boolean,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const path = safePath(req.url);
    // Aborted when the client closes its connection before its answer: a generation for nobody stops there.
    const gone = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) gone.abort(new ClientGone());
    };
    res.once('close', onClose);
    let reply: Reply;
    try {
      reply = await dispatch(req, method, path, gone.signal);
    } catch (error) {
      if (error instanceof HttpProblem) reply = error.toReply();
      else {
        log(`internal error in ${method} ${path}: ${describe(error)}`);
        reply = { status: 500, body: { message: 'internal error' } };
      }
    }
    res.off('close', onClose);
    if (closing()) reply = { ...reply, headers: { ...reply.headers, connection: 'close' } };
    sendReply(req, res, reply);
    log(`${method} ${path} ${reply.status} ${Math.round(performance.now() - started)}ms`);
  };
}

/**
 * The HTTP server with its connection limits (ConnectionGuard) and its timeouts, answering what Node's parser
 * refuses (clientError) without cutting into a response still being written on the same connection.
 */
export function createHttpServer(
  options: { connectionLimits?: Partial<ConnectionLimits>; headersTimeoutMs?: number },
  onRequest: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  log: (line: string) => void,
): { server: Server; guard: ConnectionGuard } {
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
  return { server, guard };
}

export function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<void> {
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
