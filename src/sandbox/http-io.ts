// Request and response plumbing for the sandbox: bounded body reading, JSON replies, errors as replies.
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/**
 * Reads a JSON body: 415 unless it is declared application/json, 413 as soon as it passes the limit (the
 * rest is never buffered), 400 when it does not parse.
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

export function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...reply.headers };
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
  } else {
    const text = JSON.stringify(reply.body);
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(reply.status, headers).end(text);
  }
  if (headers['connection'] === 'close' && !req.complete) {
    // Node drains an unread body after the reply so the client sees it; bound that, don't read for ever.
    setTimeout(() => req.socket.destroy(), 2_000).unref();
  }
}
