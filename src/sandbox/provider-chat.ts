// One Chat Completions call (`POST {base}/chat/completions`) on node:http(s), with what providers need from
// a caller: a timeout per attempt, 429 and 5xx retried after the provider's Retry-After within a bound on
// the time one call may take, and every failure as a ProviderError that carries the provider's own reason
// (with the key scrubbed out of it) and status. The key travels in the Authorization header only.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { scrubSecret } from '../lib/secret-forms.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ChatAnswer {
  content: string;
  /** "stop", "length", "content_filter", …, or null when the provider gave none. */
  finishReason: string | null;
  usage: ChatUsage;
}

export interface ChatTarget {
  /** Base URL without a trailing slash: the call goes to `${url}/chat/completions`. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>`; none: no Authorization header (Ollama, llama.cpp need none). */
  key?: string | undefined;
}

export interface ChatLimits {
  /** One attempt: connect, send, and the whole answer. */
  callTimeoutMs: number;
  /** No retry starts once waiting for it would take the call past this long since its first attempt. */
  retryBoundMs: number;
  /** First backoff step without a Retry-After; doubles each attempt. */
  retryBaseMs: number;
  /** Largest answer body read. */
  maxAnswerBytes?: number;
}

/**
 * auth: the provider refused the key (401/403). unavailable: it could not be reached, timed out, or kept
 * answering 429/5xx until the bound. invalid: it answered, but not with a usable completion (another 4xx, a
 * body that is not a chat completion, text cut off at its length limit). model: it does not have the model
 * (404 "model not found": Ollama's, OpenAI's `model_not_found`).
 */
export type ProviderErrorKind = 'auth' | 'unavailable' | 'invalid' | 'model';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly providerStatus?: number,
    /** Seconds the provider asked to wait, when the last answer said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

const RETRYABLE = new Set([429, 500, 502, 503, 504]);
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/**
 * One completion, retried as ChatLimits says. `signal` ends it at once, with its reason (a ProviderError, or
 * an Error saying why: the client gone, the service shutting down); `beforeAttempt` runs before each
 * request is sent and may refuse it by throwing (the post's bound on calls).
 */
export async function chatCompletion(
  target: ChatTarget,
  body: {
    messages: ChatMessage[];
    max_tokens?: number;
    temperature?: number;
    response_format?: { type: 'json_object' };
  },
  limits: ChatLimits,
  signal?: AbortSignal,
  beforeAttempt?: () => void,
): Promise<ChatAnswer> {
  const endpoint = `${target.url}/chat/completions`;
  const payload = JSON.stringify({ model: target.model, stream: false, ...body });
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    let failure: ProviderError;
    let waitMs: number;
    if (signal?.aborted) throw stopped(signal);
    beforeAttempt?.();
    try {
      const raw = await send(endpoint, payload, target.key, limits, signal);
      if (raw.status >= 200 && raw.status < 300) return parseAnswer(raw, target.key);
      failure = statusFailure(raw, target.key);
      if (!RETRYABLE.has(raw.status)) throw failure;
      const asked = retryAfterMs(raw.headers);
      waitMs = asked ?? limits.retryBaseMs * 2 ** attempt;
    } catch (error) {
      if (!(error instanceof Retryable)) throw error;
      failure = error.failure;
      waitMs = limits.retryBaseMs * 2 ** attempt;
    }
    if (signal?.aborted) throw stopped(signal);
    const elapsed = Date.now() - started;
    if (elapsed + waitMs > limits.retryBoundMs) {
      const tried = `${attempt + 1} attempt${attempt ? 's' : ''} in ${Math.round(elapsed / 1000)} s`;
      const bound = `the retry bound is ${Math.round(limits.retryBoundMs / 1000)} s`;
      throw new ProviderError(
        failure.kind,
        `${failure.message} (${tried}; ${bound}${failure.retryAfterSeconds !== undefined ? `, and it asked to wait ${failure.retryAfterSeconds} s more` : ''})`,
        failure.providerStatus,
        failure.retryAfterSeconds,
      );
    }
    await sleep(waitMs, undefined, signal ? { signal } : {}).catch(() => {
      throw stopped(signal!);
    });
  }
}

/** The failure an aborted signal stands for: its reason when that is one, else what it says. */
function stopped(signal: AbortSignal): ProviderError {
  const reason: unknown = signal.reason;
  if (reason instanceof ProviderError) return reason;
  const why =
    reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'the post was stopped';
  return new ProviderError('unavailable', `was still writing when it was stopped: ${why}`);
}

/** A failure worth another attempt: the connection failed before an answer came. */
class Retryable extends Error {
  constructor(readonly failure: ProviderError) {
    super(failure.message);
  }
}

function send(
  endpoint: string,
  payload: string,
  key: string | undefined,
  limits: ChatLimits,
  signal: AbortSignal | undefined,
): Promise<RawAnswer> {
  const url = new URL(endpoint);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const max = limits.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  if (signal?.aborted) return Promise.reject(stopped(signal));
  return new Promise<RawAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'content-length': Buffer.byteLength(payload),
        ...(key && { authorization: `Bearer ${key}` }),
      },
    });
    const timer = setTimeout(() => {
      finish(() =>
        reject(
          new ProviderError(
            'unavailable',
            `gave no complete answer within ${Math.round(limits.callTimeoutMs / 1000)} s (the per-call timeout)`,
          ),
        ),
      );
      req.destroy();
    }, limits.callTimeoutMs);
    const onAbort = (): void => {
      finish(() => reject(stopped(signal!)));
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const reason = NETWORK[error.code ?? ''] ?? error.code ?? 'the connection failed';
      const failure = new ProviderError('unavailable', `cannot be reached: ${reason}`);
      // Nothing listening, no such host: waiting will not change that (a provider not started yet).
      finish(() => reject(PERMANENT.has(error.code ?? '') ? failure : new Retryable(failure)));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) {
          finish(() =>
            reject(
              new ProviderError('invalid', `answered with more than ${Math.round(max / 1024 / 1024)} MB`),
            ),
          );
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', () =>
        finish(() => reject(new Retryable(new ProviderError('unavailable', 'cut its answer off')))),
      );
      res.on('end', () =>
        finish(() =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        ),
      );
    });
    req.end(payload);
  });
}

const PERMANENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the provider running?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connect timed out',
  EPIPE: 'connection closed while sending',
};

/** Retry-After (seconds or an HTTP date), or OpenAI's retry-after-ms; undefined when absent or unreadable. */
function retryAfterMs(headers: IncomingMessage['headers']): number | undefined {
  const ms = headers['retry-after-ms'];
  if (typeof ms === 'string' && /^\d{1,10}$/.test(ms.trim())) return Number(ms);
  const value = headers['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d{1,10}(\.\d{1,3})?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date: only its IMF-fixdate form ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone reads "2" as a date.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** A 404 about the model: Ollama's "model "x" not found, try pulling it first", OpenAI's model_not_found. */
const MODEL_NOT_FOUND = /model_not_found|\bmodel\b.{0,200}\b(?:not found|does not exist)/i;

function statusFailure(raw: RawAnswer, key: string | undefined): ProviderError {
  const reason = providerReason(raw.text, key);
  const said = `HTTP ${raw.status}${reason ? `: ${reason}` : ''}`;
  const asked = retryAfterMs(raw.headers);
  const seconds = asked === undefined ? undefined : Math.ceil(asked / 1000);
  if (raw.status === 401 || raw.status === 403)
    return new ProviderError('auth', `refused the key: ${said}`, raw.status);
  if (raw.status === 404 && MODEL_NOT_FOUND.test(reason))
    return new ProviderError('model', `does not have the model: ${said}`, raw.status);
  if (raw.status === 429)
    return new ProviderError('unavailable', `is rate-limiting: ${said}`, raw.status, seconds);
  if (raw.status >= 500) return new ProviderError('unavailable', `failed: ${said}`, raw.status, seconds);
  return new ProviderError('invalid', `refused the request: ${said}`, raw.status);
}

/**
 * The provider's own words: OpenAI's `{"error": {"message", "code"}}`, a bare `{"error": "…"}` (Ollama), or
 * the start of a text body; one printable line, and nothing of the key, whole or masked (OpenAI echoes
 * `sk-ab***…cd` in its 401 message).
 */
export function providerReason(text: string, key: string | undefined): string {
  let reason = '';
  try {
    const body = JSON.parse(text) as unknown;
    const error = body && typeof body === 'object' ? (body as Record<string, unknown>)['error'] : undefined;
    if (typeof error === 'string') reason = error;
    else if (error && typeof error === 'object') {
      const e = error as Record<string, unknown>;
      const message = typeof e['message'] === 'string' ? e['message'] : '';
      const code = typeof e['code'] === 'string' ? e['code'] : typeof e['type'] === 'string' ? e['type'] : '';
      reason = code && message ? `${message} (${code})` : message || code;
    } else if (
      body &&
      typeof body === 'object' &&
      typeof (body as Record<string, unknown>)['message'] === 'string'
    )
      reason = (body as Record<string, string>)['message']!;
  } catch {
    reason = text.replace(/<[^>]*>/g, ' ');
  }
  return clip(scrubKey(reason, key));
}

/**
 * Removes the key and anything that may be part of it: the key in any form scrubSecret knows (itself, base64,
 * hex, percent-encoded, cut short), any masked token (`sk-ab****cd`), and any word of four or more
 * characters that occurs inside the key.
 */
export function scrubKey(text: string, key: string | undefined): string {
  let out = scrubSecret(text, key, '[key]');
  out = out.replace(/\S*\*{2,}\S*/g, '[key]');
  if (key && key.length >= 4) {
    out = out.replace(/[^\s"'`(),;]{4,}/g, (word) => {
      const core = word.replace(/[.:]+$/, '');
      return core.length >= 4 && key.includes(core) ? '[key]' : word;
    });
  }
  return out;
}

/** C0 and C1 controls: ESC starts terminal sequences. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

function clip(text: string): string {
  const line = text.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199).trimEnd()}…` : line;
}

function parseAnswer(raw: RawAnswer, key: string | undefined): ChatAnswer {
  const type = String(raw.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('text/event-stream') || /^\s*data:/.test(raw.text)) return parseStream(raw, key);
  let body: unknown;
  try {
    body = JSON.parse(raw.text);
  } catch {
    const start = clip(scrubKey(raw.text.replace(/<[^>]*>/g, ' '), key)).slice(0, 80);
    throw new ProviderError(
      'invalid',
      `answered HTTP ${raw.status} with a body that is not JSON${start ? ` ("${start}")` : ''}`,
      raw.status,
    );
  }
  const b = (body ?? {}) as Record<string, unknown>;
  const choice = Array.isArray(b['choices'])
    ? (b['choices'][0] as Record<string, unknown> | undefined)
    : undefined;
  const message = choice?.['message'] as Record<string, unknown> | undefined;
  const content = message?.['content'];
  if (!choice || typeof content !== 'string') {
    throw new ProviderError(
      'invalid',
      `answered HTTP ${raw.status} with something that is not a chat completion (no choices[0].message.content)`,
      raw.status,
    );
  }
  const u = (b['usage'] ?? {}) as Record<string, unknown>;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  const promptTokens = n(u['prompt_tokens']);
  const completionTokens = n(u['completion_tokens']);
  const finish = choice['finish_reason'];
  return {
    // The key may be the server's, not the tenant's: no form of it reaches the post.
    content: scrubSecret(content, key, '[key]'),
    finishReason: typeof finish === 'string' ? finish : null,
    usage: {
      promptTokens,
      completionTokens,
      totalTokens: n(u['total_tokens']) || promptTokens + completionTokens,
    },
  };
}

/**
 * An answer sent as Server-Sent Events (a server that streams whatever it was asked, as some proxies and
 * local servers do): the `data:` lines' `choices[0].delta.content` joined, the last finish_reason and the
 * usage if a chunk carried it. Bounded like any answer (the whole body is at most maxAnswerBytes).
 */
function parseStream(raw: RawAnswer, key: string | undefined): ChatAnswer {
  let content = '';
  let finishReason: string | null = null;
  let usage: ChatUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let chunks = 0;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  for (const line of raw.text.split(/\r?\n/)) {
    const data = /^data:\s?(.*)$/.exec(line)?.[1]?.trim();
    if (!data || data === '[DONE]') continue;
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(data) as Record<string, unknown>;
    } catch {
      continue;
    }
    const error = chunk['error'];
    if (error !== undefined)
      throw new ProviderError(
        'invalid',
        `streamed an error: ${providerReason(JSON.stringify({ error }), key)}`,
        raw.status,
      );
    const choice = Array.isArray(chunk['choices'])
      ? (chunk['choices'][0] as Record<string, unknown> | undefined)
      : undefined;
    const delta = (choice?.['delta'] ?? choice?.['message']) as Record<string, unknown> | undefined;
    if (typeof delta?.['content'] === 'string') content += delta['content'];
    if (typeof choice?.['finish_reason'] === 'string') finishReason = choice['finish_reason'];
    const u = chunk['usage'] as Record<string, unknown> | undefined;
    if (u && typeof u === 'object') {
      const promptTokens = n(u['prompt_tokens']);
      const completionTokens = n(u['completion_tokens']);
      usage = {
        promptTokens,
        completionTokens,
        totalTokens: n(u['total_tokens']) || promptTokens + completionTokens,
      };
    }
    if (choice) chunks++;
  }
  if (!chunks)
    throw new ProviderError(
      'invalid',
      `answered HTTP ${raw.status} with an event stream that holds no chat completion chunks`,
      raw.status,
    );
  return { content: scrubSecret(content, key, '[key]'), finishReason, usage };
}
