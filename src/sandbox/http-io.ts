// Request and response plumbing for the sandbox: bounded body reading, JSON replies, errors as replies.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { findJsonDepthProblem, MAX_JSON_DEPTH } from '../lib/json-depth.js';

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface Reply {
  status: number;
  /** JSON body; absent for 204. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Thrown anywhere in a handler; becomes a JSON `{message}` reply with this status. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toReply(): Reply {
    return { status: this.status, body: { message: this.message, ...this.extra }, headers: this.headers };
  }
}

/** Why a request's signal was aborted: its client closed the connection before the answer. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed its connection');
    this.name = 'ClientGone';
  }
}

/**
 * Reads a JSON body: 415 unless it is declared application/json, 413 as soon as it passes the limit (the
 * rest is never buffered), 400 when it nests deeper than MAX_JSON_DEPTH or does not parse.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = req.headers['content-type'];
  const mediaType = type?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new HttpProblem(
      415,
      `the request body must be JSON sent with Content-Type: application/json (got ${type ? `"${type}"` : 'no Content-Type'})`,
    );
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const raw = await readRaw(req, limit);
  const text = raw.toString('utf8');
  if (!text.trim()) throw new HttpProblem(400, 'the request body is empty; expected a JSON object');
  // Checked before parsing: a value nested this deep parses, but the store could never write it back.
  if (findJsonDepthProblem(text)) {
    throw new HttpProblem(
      400,
      `the request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels (the limit)`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8's message may quote the body, which can hold a password: keep only the position.
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    throw new HttpProblem(
      400,
      `the request body is not valid JSON${position ? ` (error at position ${position})` : ''}`,
    );
  }
}

function tooLarge(limit: number): HttpProblem {
  const mb = Number((limit / 1024 / 1024).toFixed(1));
  return new HttpProblem(413, `the request body is larger than ${mb} MB`, {}, { connection: 'close' });
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        chunks.length = 0;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** How long a connection answered before its body was read stays open, unread, for the client to read the answer. */
const LINGER_MS = 2_000;

export function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...reply.headers };
  // Answered before its body was read (a 401 or 404 before any handler read it, a 413 part way): the rest is
  // never read, and the connection closes after the answer.
  if (!req.complete) {
    headers['connection'] = 'close';
    stopReading(req);
  }
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
  } else {
    const text = JSON.stringify(reply.body);
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(reply.status, headers).end(text);
  }
}

/**
 * Stops taking in a request's body. Node reads an unread body to its end after the reply, to discard it (a
 * 1 GiB body sent without credentials was read whole after the 401): a listener marks it consumed, and paused,
 * Node stops reading the socket once its small buffer is full. With `Connection: close` Node then ends the
 * socket and destroys it as soon as the end is written; but closing a socket with unread data resets the
 * connection, and a reset makes the client's system drop the answer it has not read yet. So the end is sent
 * at once and the connection cut a moment later, still unread.
 */
function stopReading(req: IncomingMessage): void {
  req.on('data', () => undefined);
  req.pause();
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** Sockets already answered after a parse error: Node reports the error again for each later chunk. */
const answeredSockets = new WeakSet<Duplex>();

/**
 * Answers a request Node's parser refused before any handler saw it (a malformed header line, headers over
 * the size limit, a request not received in time) with a JSON `{message}` like every other error, and closes
 * the connection. Call it once the responses to earlier requests on the connection are written (it writes
 * straight to the socket). Returns the status sent, if any.
 */
export function answerClientError(
  error: NodeJS.ErrnoException & { reason?: string },
  socket: Duplex,
  maxHeaderBytes: number,
): number | undefined {
  if (answeredSockets.has(socket)) return undefined;
  answeredSockets.add(socket);
  if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
    socket.destroy();
    return undefined;
  }
  const { status, message } = describeClientError(error, maxHeaderBytes);
  const body = JSON.stringify({ message });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  // What the client still sends (the rest of an oversized header) is read and dropped, so closing does not
  // reset the connection before the client has read the answer; one that never closes is cut after a moment.
  setTimeout(() => socket.destroy(), 2_000).unref();
  return status;
}

function describeClientError(
  error: NodeJS.ErrnoException & { reason?: string },
  maxHeaderBytes: number,
): { status: number; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `the request headers are larger than ${Math.round(maxHeaderBytes / 1024)} KB`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'the chunk extensions of the request body are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request was not received in time' };
    default:
      // llhttp's reason is a fixed description ("Invalid header token"), never the request's bytes.
      return {
        status: 400,
        message: `the request is not valid HTTP/1.1${error.reason ? `: ${error.reason}` : ''}`,
      };
  }
}
