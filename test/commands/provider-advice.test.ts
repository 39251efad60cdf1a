// What a provider that is not OpenAI answers, and the advice `blog create` gives: a model the provider does
// not have (Ollama's and OpenAI's 404) is to be pulled or named right, not asked for again; a server that
// only streams is read; the outline is asked for as JSON where the server takes it, and without where it
// refuses. The command tree in-process, its in-process sandbox writing through the fake provider.
import { afterEach, describe, expect, it } from 'vitest';
import { createFlags, tempConfigDir } from '../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../helpers/fake-openai.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function provider(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  fake = await startFakeOpenAI(options);
  return fake;
}

function create(f: FakeOpenAI, extra: Record<string, string> = {}, configDir = tempConfigDir()) {
  return runInProcess(['--sandbox', 'blog', 'create', ...createFlags(), '--json'], {
    env: {
      BLOGCTL_CONFIG_DIR: configDir,
      BLOGCTL_PROVIDER_URL: f.url,
      BLOGCTL_MODEL: f.model,
      BLOGCTL_PROVIDER_RETRY_BASE_MS: '10',
      ...extra,
    },
  });
}

const isOutline = (prompt: string): boolean => /Answer with one JSON object/.test(prompt);

describe('a model the provider does not have', () => {
  it.each([
    ['Ollama', { ollama: true }, 'model "llama3.2" not found, try pulling it first'],
    ['OpenAI', {}, 'The model `llama3.2` does not exist'],
  ])('%s: says to pull it or check its name, not to run it again', async (_name, options, reason) => {
    const f = await provider(options);
    const result = await create(f, { BLOGCTL_MODEL: 'llama3.2' });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(reason);
    expect(result.stderr).toContain('does not have the model');
    expect(result.stderr).toContain('`ollama pull llama3.2`');
    expect(result.stderr).toContain('BLOGCTL_MODEL');
    expect(result.stderr).not.toContain('run it again');
    // Asked once: a missing model is not retried.
    expect(f.requests).toHaveLength(1);
  });
});

describe('a server that only streams', () => {
  it('is read as Server-Sent Events: the post is written', async () => {
    const f = await provider({ streamOnly: true });
    const result = await create(f);
    expect(result.code, result.stderr).toBe(0);
    const blog = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(blog['title']).toBe('A Fake Guide to home espresso');
    expect(String(blog['content'])).toContain('every cup teaches something new');
    expect((blog['usage'] as { completionTokens: number }).completionTokens).toBeGreaterThan(0);
  });
});

describe('JSON output for the outline', () => {
  it('is asked for with response_format where the server takes it, and only for the outline', async () => {
    const f = await provider();
    const result = await create(f);
    expect(result.code, result.stderr).toBe(0);
    const outline = f.requests.filter((r) => isOutline(r.prompt));
    expect(outline).toHaveLength(1);
    expect(outline[0]!.body['response_format']).toEqual({ type: 'json_object' });
    for (const r of f.requests.filter((r) => !isOutline(r.prompt)))
      expect(r.body).not.toHaveProperty('response_format');
  });

  it('a server that refuses response_format is asked once more without it, and the post is written', async () => {
    const f = await provider({ refuseResponseFormat: true });
    const configDir = tempConfigDir();
    const result = await create(f, {}, configDir);
    expect(result.code, result.stderr).toBe(0);
    const outline = f.requests.filter((r) => isOutline(r.prompt));
    expect(outline.map((r) => r.body['response_format'])).toEqual([{ type: 'json_object' }, undefined]);
  });
});
