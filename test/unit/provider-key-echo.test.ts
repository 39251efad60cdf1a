// The sandbox's own provider key (the one it was started with, used for tenants that send none) never
// reaches a tenant, in any form a provider could echo it in: not in an error's message, not in a post.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxGenerator } from '../../src/sandbox/provider.js';
import { secretForms } from '../../src/lib/secret-forms.js';
import { answer, apiError, startFakeOpenAI, write, type FakeOpenAI } from '../helpers/fake-openai.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const SERVER_KEY = 'sk-server-Zq9xY7w3kLm0pQ8rT2vB6nJ4';
const b64 = (text: string): string => Buffer.from(text).toString('base64');
let fake: FakeOpenAI;
let sandbox: TestSandbox;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  sandbox = await startTestSandbox({
    generator: createSandboxGenerator({ url: fake.url, model: fake.model, serverKey: SERVER_KEY }),
  });
});
afterEach(async () => {
  await sandbox.close();
  await fake.close();
});

function expectNoForm(text: string): void {
  for (const form of secretForms(SERVER_KEY)) expect(text).not.toContain(form);
  expect(text).not.toContain(SERVER_KEY.slice(0, 12));
}

async function createText(): Promise<{ status: number; text: string }> {
  const res = await sandbox.fetch('/api/v1/public/create-blog', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blogParams: blogParamsFor() }),
  });
  return { status: res.status, text: await res.text() };
}

describe("the server's provider key", () => {
  it.each([
    ['base64 of the Authorization header', (auth: string) => `we got ${b64(auth)}`],
    ['base64 of the key', () => `key=${b64(SERVER_KEY)}`],
    ['the key cut with ...', () => `Incorrect API key provided: ${SERVER_KEY.slice(0, 20)}...`],
  ])('echoed in an error (%s) is not in the answer', async (_name, echo) => {
    fake.respond = (r) => ({
      status: 401,
      body: apiError(echo(r.authorization ?? ''), 'invalid_request_error', 'invalid_api_key'),
    });
    const { status, text } = await createText();
    expect(status).toBe(403);
    expect(text).toContain('[key]');
    expectNoForm(text);
  });

  it('echoed in the text of a post (base64, hex) is not in the stored post', async () => {
    fake.respond = (r) =>
      /Write section 1 /.test(r.prompt)
        ? answer(`${write(r)} ${b64(r.authorization ?? '')} ${Buffer.from(SERVER_KEY).toString('hex')}`)
        : undefined;
    await createText();
    const stored = JSON.stringify(await sandbox.api().listBlogs());
    expectNoForm(stored);
  });
});
