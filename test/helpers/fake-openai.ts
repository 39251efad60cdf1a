// A fake OpenAI-compatible provider: a real HTTP server on 127.0.0.1 that answers POST /v1/chat/completions
// in the Chat Completions API's shapes (a `chat.completion` object with `choices[].message`,
// `finish_reason` and `usage`; errors as `{"error": {message, type, param, code}}`, with Retry-After on a
// 429). By default it is an obedient writer: it reads blogctl's shipped prompts and answers an outline as
// JSON, and each section with exactly the words asked for, every phrase and every link it was given. A
// test replaces any answer through `respond`, and reads every request it got in `requests`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from './http-server.js';

export interface ChatRequest {
  /** The Authorization header as sent, if any. */
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    [field: string]: unknown;
  };
  /** The last user message. */
  prompt: string;
}

export type FakeReply =
  | { status: number; body?: unknown; text?: string; headers?: Record<string, string> }
  /** Never answers (the connection stays open until the server closes). */
  | 'hang';

/** Return a reply to override the default answer, or undefined to let the obedient writer answer. */
export type Responder = (
  request: ChatRequest,
  index: number,
) => FakeReply | undefined | Promise<FakeReply | undefined>;

export interface FakeOpenAI {
  /** The base URL (…/v1), as BLOGCTL_PROVIDER_URL takes it. */
  url: string;
  model: string;
  requests: ChatRequest[];
  respond: Responder | undefined;
  /** Hanging requests whose connection the client has closed. */
  abandoned: number;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** Requests must carry `Authorization: Bearer <key>`; absent: any or none is accepted. */
  key?: string;
  model?: string;
  respond?: Responder;
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const model = options.model ?? 'fake-writer-1';
  const requests: ChatRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const fake: FakeOpenAI = {
    url: '',
    model,
    requests,
    respond: options.respond,
    abandoned: 0,
    close: () => {
      const open = [...hanging];
      hanging.clear();
      for (const res of open) res.destroy();
      return listening.close();
    },
  };
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, { status: 500, body: apiError(String(error), 'server_error') });
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return send(res, {
        status: 404,
        body: apiError(`Invalid URL (${req.method} ${req.url})`, 'invalid_request_error'),
      });
    }
    let body: ChatRequest['body'];
    try {
      body = JSON.parse(text) as ChatRequest['body'];
    } catch {
      return send(res, {
        status: 400,
        body: apiError('We could not parse the JSON body of your request.', 'invalid_request_error'),
      });
    }
    const prompt = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const request: ChatRequest = { authorization: req.headers.authorization, body, prompt };
    const index = requests.push(request) - 1;
    if (options.key !== undefined && req.headers.authorization !== `Bearer ${options.key}`) {
      const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      return send(res, {
        status: 401,
        body: apiError(
          given
            ? `Incorrect API key provided: ${masked(given)}. You can find your API key at https://platform.example/account/api-keys.`
            : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
          'invalid_request_error',
          given ? 'invalid_api_key' : null,
        ),
      });
    }
    if (body.model !== model) {
      return send(res, {
        status: 404,
        body: apiError(
          `The model \`${body.model}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          'model_not_found',
        ),
      });
    }
    const reply = (await fake.respond?.(request, index)) ?? {
      status: 200,
      body: completion(model, write(request)),
    };
    if (reply === 'hang') {
      hanging.add(res);
      res.once('close', () => {
        if (hanging.delete(res)) fake.abandoned++;
      });
      return;
    }
    send(res, reply);
  };
  const listening = await listenLocal(server);
  fake.url = `${listening.url}/v1`;
  return fake;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (text += d));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, reply: Exclude<FakeReply, 'hang'>): void {
  if (res.headersSent) return;
  const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  res.writeHead(reply.status, {
    'content-type': reply.text !== undefined ? 'text/html' : 'application/json',
    ...reply.headers,
  });
  res.end(text);
}

/** The API's error object. */
export function apiError(message: string, type: string, code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

/** How the API masks a key it quotes: its first and last characters. */
function masked(key: string): string {
  return key.length > 8 ? `${key.slice(0, 4)}${'*'.repeat(key.length - 8)}${key.slice(-4)}` : '****';
}

let serial = 0;

/** A `chat.completion` object with one choice. */
export function completion(model: string, content: string, finishReason = 'stop'): unknown {
  const completionTokens = Math.ceil(content.split(/\s+/).length * 1.3);
  return {
    id: `chatcmpl-fake${++serial}`,
    object: 'chat.completion',
    created: 1_764_000_000,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: completionTokens, total_tokens: 100 + completionTokens },
    system_fingerprint: 'fp_fake',
  };
}

/** 200 with a completion of `content`. */
export function answer(content: string, finishReason = 'stop'): FakeReply {
  return { status: 200, body: completion('fake-writer-1', content, finishReason) };
}

export function rateLimited(retryAfterSeconds: number): FakeReply {
  return {
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: apiError(
      'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
      'requests',
      'rate_limit_exceeded',
    ),
  };
}

export function serverError(): FakeReply {
  return {
    status: 500,
    body: apiError(
      'The server had an error while processing your request. Sorry about that!',
      'server_error',
    ),
  };
}

// The obedient writer.

const WORDS =
  'a good routine starts with fresh beans and clean tools then patience does the rest while small changes add up over time and every cup teaches something new about taste balance and care'.split(
    ' ',
  );

/** What the default writer answers a request built from blogctl's shipped prompts. */
export function write(request: ChatRequest): string {
  const prompt = request.prompt;
  if (/Answer with one JSON object/.test(prompt)) return outlineFor(prompt);
  if (/Continue exactly where it stopped/.test(prompt)) return 'and that is the end of it.';
  const words = Number(/(?:Length: |whole section: )about (\d+) words/.exec(prompt)?.[1] ?? '100');
  return sectionText(words, phrasesIn(prompt), linksIn(prompt));
}

function outlineFor(prompt: string): string {
  const count = Number(/in (\d+) sections/.exec(prompt)?.[1] ?? '3');
  const total = Number(/about (\d+) words in total/.exec(prompt)?.[1] ?? '300');
  const keywords = [...(/Topic keywords: (.*)/.exec(prompt)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const topic = keywords[0] ?? 'the topic';
  return JSON.stringify({
    title: `A Fake Guide to ${topic}`,
    slug: `fake-guide-${topic.replace(/\W+/g, '-')}`,
    excerpt: `Everything a beginner needs to know about ${topic}, in plain words.`,
    sections: Array.from({ length: count }, (_, i) => ({
      heading: i === 0 ? 'Getting started' : i === count - 1 ? 'Where to go next' : `Step ${i}`,
      points: `part ${i + 1} of the topic`,
      words: Math.round(total / count),
    })),
  });
}

/** The quoted phrases of the "word for word:" line. */
export function phrasesIn(prompt: string): string[] {
  const line = /word for word: (.*)/.exec(prompt)?.[1] ?? '';
  return [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

/** The URLs of the "Markdown link" line. */
export function linksIn(prompt: string): string[] {
  const line = /\[text\]\(url\)[^:]*: (.*)/.exec(prompt)?.[1] ?? '';
  return line === '(none)' ? [] : line.split(', ').filter((u) => /^https?:/.test(u));
}

/** Exactly `words` words of Markdown, holding every phrase and a link to every URL. */
export function sectionText(words: number, phrases: string[], links: string[]): string {
  const parts: string[] = [];
  let count = 0;
  for (const phrase of phrases) {
    parts.push(`Think about ${phrase}.`);
    count += 2 + phrase.split(/\s+/).length;
  }
  for (const url of links) {
    parts.push(`See [this guide](${url}).`);
    count += 3;
  }
  const filler: string[] = [];
  for (let i = 0; count < words; i++, count++) filler.push(WORDS[i % WORDS.length]!);
  const sentences: string[] = [];
  for (let i = 0; i < filler.length; i += 12) sentences.push(`${filler.slice(i, i + 12).join(' ')}.`);
  const text = [...parts, ...sentences];
  const paragraphs: string[] = [];
  for (let i = 0; i < text.length; i += 4) paragraphs.push(text.slice(i, i + 4).join(' '));
  return paragraphs.join('\n\n');
}
