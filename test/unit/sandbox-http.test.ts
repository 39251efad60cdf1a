// Malformed and refused requests, sent raw (fetch / node:http) because the real client never sends them.
import { request } from 'node:http';
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
