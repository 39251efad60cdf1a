// Malformed and refused requests, sent raw (fetch / node:http) because the real client never sends them.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogParamsFor, startTestSandbox, TEST_KEY, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const json = { 'content-type': 'application/json' };
const post = (path: string, body: string, headers: Record<string, string> = json) =>
  sandbox.fetch(`/api/v1/public${path}`, { method: 'POST', headers, body });

async function expectProblem(res: Response, status: number, message: RegExp): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as { message: string };
  expect(body.message).toMatch(message);
}

/** Streams `bytes` of body with node:http and resolves with the status, ignoring the write errors of a cut connection. */
function sendLargeBody(bytes: number, chunked: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${sandbox.url}/api/v1/public/create-blog`);
    const headers: Record<string, string> = { ...json, authorization: `Bearer ${TEST_KEY}` };
    if (!chunked) headers['content-length'] = String(bytes);
    let answered = false;
    const req = request(url, { method: 'POST', headers }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // Once the answer is in, a write cut short by the server closing is expected.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('HTTP errors', () => {
  it('answers an unknown route with 404 naming method and path', async () => {
    await expectProblem(
      await sandbox.fetch('/api/v1/public/nope'),
      404,
      /^no route for GET \/api\/v1\/public\/nope$/,
    );
    await expectProblem(
      await sandbox.fetch('/api/v2/public/get-all-blogs', { auth: null }),
      404,
      /GET \/api\/v2/,
    );
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await sandbox.fetch('/api/v1/public/create-blog');
    expect(res.headers.get('allow')).toBe('POST');
    await expectProblem(res, 405, /GET is not allowed on \/api\/v1\/public\/create-blog; use POST/);
  });

  it('refuses a body that is not declared JSON with 415', async () => {
    await expectProblem(
      await post('/create-blog', '{}', { 'content-type': 'text/plain' }),
      415,
      /application\/json/,
    );
    const patch = await sandbox.fetch('/api/v1/public/integrations/wordpress/update-settings', {
      method: 'PATCH',
      body: new URLSearchParams({ settings: 'x' }),
    });
    await expectProblem(patch, 415, /application\/x-www-form-urlencoded/);
  });

  it('refuses malformed and empty JSON with 400 without quoting the body', async () => {
    const res = await post(
      '/integrations/wordpress/publish',
      '{"credentials": {"password": "hunter2-secret"',
    );
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain('hunter2');
    await expectProblem(await post('/create-blog', ''), 400, /empty/);
  });

  it('refuses parameters at the top level with a message naming blogParams', async () => {
    const res = await post('/create-blog', JSON.stringify(blogParamsFor()));
    await expectProblem(res, 400, /blogParams is required.*topicKeywords/);
  });

  it('refuses parameters beside blogParams with a message naming blogParams', async () => {
    const beside = await post(
      '/create-blog',
      JSON.stringify({ blogParams: blogParamsFor(), topicKeywords: ['x'] }),
    );
    await expectProblem(
      beside,
      400,
      /^only blogParams belongs at the top level.*found topicKeywords beside it/,
    );
    const unknown = await post(
      '/create-blog',
      JSON.stringify({ blogParams: blogParamsFor(), draft: true, category: 'x' }),
    );
    await expectProblem(unknown, 400, /blogParams.*found draft, category beside it/);
  });

  it('names each invalid field', async () => {
    const params = {
      ...blogParamsFor(),
      topicKeywords: [],
      blogLength: { name: 'x', value: 'Huge' },
      hyperlinks: ['not a url'],
    };
    const res = await post('/create-blog', JSON.stringify({ blogParams: params }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; issues: { path: string }[] };
    expect(body.issues.map((i) => i.path).sort()).toEqual([
      'blogParams.blogLength.value',
      'blogParams.hyperlinks[0]',
      'blogParams.topicKeywords',
    ]);
    expect(body.message).toContain('blogParams.blogLength.value: must be one of Short, Medium, Long');
  });

  it('validates publish requests', async () => {
    const res = await post(
      '/integrations/wordpress/publish',
      JSON.stringify({
        credentials: { websiteUrl: 'https://x.example', username: 'u' },
        content: { title: 't', status: 'live' },
      }),
    );
    expect(res.status).toBe(400);
    const { message } = (await res.json()) as { message: string };
    for (const field of ['credentials.password', 'content.content', 'content.status'])
      expect(message).toContain(field);
  });

  it('answers a body over 5 MB with 413, declared or streamed', async () => {
    const declared = await sendLargeBody(6 * 1024 * 1024, false);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ message: 'the request body is larger than 5 MB' });
    const streamed = await sendLargeBody(6 * 1024 * 1024, true);
    expect(streamed.status).toBe(413);
    // The sandbox still serves afterwards.
    expect((await sandbox.fetch('/api/v1/public/get-all-blogs')).status).toBe(200);
  });

  it('refuses an over-long Idempotency-Key', async () => {
    const res = await post('/create-blog', '{}', { ...json, 'idempotency-key': 'k'.repeat(300) });
    await expectProblem(res, 400, /Idempotency-Key/);
  });
});

interface RawAnswer {
  /** Each response on the connection: status, headers (lower-case names), body. */
  responses: { status: number; headers: Record<string, string>; body: string }[];
  /** The connection ended with a reset or another socket error instead of a close. */
  error?: string;
}

/** Writes raw bytes on one connection and reads until the server closes it. */
function rawExchange(chunks: string[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(sandbox.url);
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    let error: string | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the sandbox did not close the connection; received ${JSON.stringify(data)}`));
    }, 5_000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ responses: parseResponses(data), ...(error && { error }) });
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

function parseResponses(data: string): RawAnswer['responses'] {
  const responses: RawAnswer['responses'] = [];
  let rest = data;
  while (rest) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response: ${JSON.stringify(rest)}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    responses.push({
      status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

describe('requests the HTTP parser refuses', () => {
  const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;
  const expectJsonProblem = (answer: RawAnswer['responses'][number], status: number, message: RegExp) => {
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['connection']).toBe('close');
    expect((JSON.parse(answer.body) as { message: string }).message).toMatch(message);
  };

  it('answers a malformed header line with 400 JSON and closes the connection', async () => {
    const answer = await rawExchange([
      `GET /api/v1/public/get-all-blogs HTTP/1.1\r\nHost: x\r\n${auth}this is not a header\r\n\r\n`,
    ]);
    expect(answer.error).toBeUndefined();
    expect(answer.responses).toHaveLength(1);
    expectJsonProblem(answer.responses[0]!, 400, /^the request is not valid HTTP\/1\.1: /);
  });

  it('answers a request line that is not HTTP with 400 JSON', async () => {
    const answer = await rawExchange(['\u0001\u0002 nonsense\r\n\r\n']);
    expect(answer.error).toBeUndefined();
    expectJsonProblem(answer.responses[0]!, 400, /not valid HTTP/);
  });

  it('answers 20 KB of headers with 431 JSON, read to the end before the connection closes', async () => {
    const big = `X-Big: ${'a'.repeat(20 * 1024)}\r\n`;
    const answer = await rawExchange([
      `GET /api/v1/public/get-all-blogs HTTP/1.1\r\nHost: x\r\n${auth}`,
      // In pieces, so that some arrive after the parser has given up.
      ...Array.from({ length: 10 }, () => big.slice(0, big.length / 10)),
      big.slice((big.length / 10) * 10),
      '\r\n',
    ]);
    expect(answer.error).toBeUndefined();
    expect(answer.responses).toHaveLength(1);
    expectJsonProblem(answer.responses[0]!, 431, /^the request headers are larger than 16 KB$/);
  });

  it('answers a malformed request after a good one on the same connection', async () => {
    const answer = await rawExchange([
      `GET /api/v1/public/get-all-blogs HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
      `GET /api/v1/public/get-all-blogs HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n`,
    ]);
    expect(answer.error).toBeUndefined();
    expect(answer.responses.map((r) => r.status)).toEqual([200, 400]);
    expectJsonProblem(answer.responses[1]!, 400, /not valid HTTP/);
  });

  it('still serves afterwards, and logs the refusals without their bytes', async () => {
    expect((await sandbox.fetch('/api/v1/public/get-all-blogs')).status).toBe(200);
    const refusals = sandbox.logs.filter((l) => l.startsWith('request refused by the HTTP parser'));
    expect(refusals.length).toBeGreaterThanOrEqual(4);
    expect(refusals.join('\n')).not.toMatch(/aaaa|nonsense|broken/);
  });
});

describe('request log', () => {
  it('writes one line per request: method, path, status, duration; never keys, queries or bodies', async () => {
    const before = sandbox.logs.length;
    await sandbox.fetch('/api/v1/public/get-all-blogs?token=query-secret');
    await post(
      '/create-blog',
      JSON.stringify({ blogParams: blogParamsFor({ topicKeywords: ['body-marker'] }) }),
    );
    const lines = sandbox.logs.slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/api\/v1\/public\/get-all-blogs 200 \d+ms$/);
    expect(lines[1]).toMatch(/^POST \/api\/v1\/public\/create-blog 201 \d+ms$/);
    const all = sandbox.logs.join('\n');
    for (const secret of [TEST_KEY, 'query-secret', 'body-marker']) expect(all).not.toContain(secret);
  });
});
