// A fake OpenAI-compatible provider: a real HTTP server on 127.0.0.1 that answers POST /v1/chat/completions
// in the Chat Completions API's shapes (a `chat.completion` object with `choices[].message`,
// `finish_reason` and `usage`; errors as `{"error": {message, type, param, code}}`, with Retry-After on a
// 429). By default it is an obedient writer: it reads blogctl's shipped prompts and answers an outline as
// JSON, and each section with exactly the words asked for, every phrase and every link it was given. A
// test replaces any answer through `respond`, and reads every request it got in `requests`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

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
  /** Hanging (or slow) requests whose connection the client has closed before the answer. */
  abandoned: number;
  /** Connections accepted since the start. */
  connections: number;
  /** Connections open now. */
  readonly openSockets: number;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** Requests must carry `Authorization: Bearer <key>`; absent: any or none is accepted. */
  key?: string;
  model?: string;
  respond?: Responder;
  /** Answers every completion as Server-Sent Events (`text/event-stream`), `stream: true` or not. */
  streamOnly?: boolean;
  /** Errors as Ollama words them (`{"error": "model \"x\" not found, try pulling it first"}`). */
  ollama?: boolean;
  /** Refuses any request with `response_format` (400), as servers without JSON mode do. */
  refuseResponseFormat?: boolean;
  /** Waits this long before each answer (a slow model). */
  slowMs?: number;
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const model = options.model ?? 'fake-writer-1';
  const requests: ChatRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const fake: FakeOpenAI = {
    url: '',
    model,
    requests,
    respond: options.respond,
    abandoned: 0,
    connections: 0,
    get openSockets() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        const open = [...hanging];
        hanging.clear();
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, { status: 500, body: apiError(String(error), 'server_error') });
    });
  });
  server.on('connection', (socket: Socket) => {
    fake.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
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
      if (options.ollama)
        return send(res, {
          status: 404,
          body: { error: `model "${body.model}" not found, try pulling it first` },
        });
      return send(res, {
        status: 404,
        body: apiError(
          `The model \`${body.model}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          'model_not_found',
        ),
      });
    }
    if (options.refuseResponseFormat && body['response_format'] !== undefined) {
      return send(res, {
        status: 400,
        body: apiError(
          "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model.",
          'invalid_request_error',
        ),
      });
    }
    const reply = (await fake.respond?.(request, index)) ?? {
      status: 200,
      body: completion(model, write(request)),
    };
    if (reply === 'hang' || options.slowMs) {
      hanging.add(res);
      res.once('close', () => {
        if (hanging.delete(res)) fake.abandoned++;
      });
      if (reply === 'hang') return;
      await sleep(options.slowMs);
      if (!hanging.delete(res)) return;
    }
    if (options.streamOnly && reply.status === 200 && reply.text === undefined)
      return stream(res, reply.body);
    send(res, reply);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
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

/** A completion as Server-Sent Events: a chunk per few words, the finish reason, the usage, `[DONE]`. */
function stream(res: ServerResponse, body: unknown): void {
  const whole = body as {
    id: string;
    model: string;
    choices: { message: { content: string }; finish_reason: string }[];
    usage: unknown;
  };
  const content = whole.choices[0]?.message.content ?? '';
  const chunk = (delta: unknown, finish: string | null, usage?: unknown): string =>
    `data: ${JSON.stringify({
      id: whole.id,
      object: 'chat.completion.chunk',
      model: whole.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(usage !== undefined && { usage }),
    })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }, null));
  const pieces = content.match(/\S+\s*|\s+/g) ?? [];
  for (let i = 0; i < pieces.length; i += 5)
    res.write(chunk({ content: pieces.slice(i, i + 5).join('') }, null));
  res.write(chunk({}, whole.choices[0]?.finish_reason ?? 'stop', whole.usage));
  res.end('data: [DONE]\n\n');
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
  const callToAction = /call to action, in these words: "(.*)"/.exec(prompt)?.[1];
  return sectionText(words, [...phrasesIn(prompt), ...(callToAction ? [callToAction] : [])], linksIn(prompt));
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
