// `blogctl sandbox --provider-url … --model …` as a process (a server: its key from stdin, its log, files on
// disk, stopped by a signal), and `blogctl blog create` against it (the command tree in-process), with a fake
// OpenAI-compatible provider on 127.0.0.1: the provider key in none of their outputs and files.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv, createFlags, tempConfigDir } from '../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

const SERVER_KEY = 'sk-server-side-9e1d77aa31c0ffee';
const API_KEY = 'sandbox-api-key-for-provider-test';

let fake: FakeOpenAI;
let dir: string;
let server:
  { child: ChildProcess; url: string; stderr(): string; exited: Promise<number | null> } | undefined;

beforeEach(async () => {
  fake = await startFakeOpenAI({ key: SERVER_KEY });
  dir = tempConfigDir();
});
afterEach(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
    server = undefined;
  }
  await fake.close();
});

/** `blogctl sandbox` with the provider, its key on stdin; resolves once it listens. */
async function startSandbox(
  extra: string[] = [],
  input = `${SERVER_KEY}\n`,
  env: Record<string, string> = {},
): Promise<NonNullable<typeof server>> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'sandbox',
      '--port',
      '0',
      '--api-key',
      API_KEY,
      '--data',
      join(dir, 'server', 'data.json'),
      '--provider-url',
      fake.url,
      '--model',
      fake.model,
      '--provider-key-stdin',
      ...extra,
    ],
    {
      env: cliEnv({ BLOGCTL_CONFIG_DIR: dir, BLOGCTL_PROVIDER_RETRY_BASE_MS: '10', ...env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child.stdin!.end(input);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`sandbox exited ${code}: ${stderr}`)));
  });
  server = { child, url, stderr: () => stderr, exited };
  return server;
}

function filesUnder(path: string): string {
  let all = '';
  for (const name of readdirSync(path)) {
    const p = join(path, name);
    all += statSync(p).isDirectory() ? filesUnder(p) : readFileSync(p, 'latin1');
  }
  return all;
}

function expectNoKey(key: string, ...texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(0, 8));
    expect(text).not.toContain(key.slice(-6));
  }
}

describe('blogctl sandbox with a provider', () => {
  it('writes the post with the server key, logs progress, and keeps the key out of every output and file', async () => {
    const sandbox = await startSandbox();
    const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: API_KEY };
    const result = await runInProcess(['blog', 'create', ...createFlags(), '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const blog = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(blog).toMatchObject({ title: 'A Fake Guide to home espresso', model: fake.model });
    expect(Math.abs((blog['wordCount'] as number) - 300)).toBeLessThanOrEqual(60);
    expect(fake.requests.every((r) => r.authorization === `Bearer ${SERVER_KEY}`)).toBe(true);
    const list = await runInProcess(['blog', 'list', '--json', 'id'], { env });
    expect(JSON.parse(list.stdout)).toEqual([{ id: blog['_id'] }]);

    expect(sandbox.stderr()).toContain(`posts are written by ${fake.model} at ${fake.url}`);
    // One line per post (its stderr is not a terminal: no progress lines).
    expect(sandbox.stderr()).toMatch(
      new RegExp(
        `create-blog ${String(blog['_id'])}: \\d+ words written by ${fake.model} \\(4 calls, \\d+ tokens\\)`,
      ),
    );
    expect(sandbox.stderr()).not.toContain('sections');
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exited).toBe(0);
    server = undefined;
    expectNoKey(SERVER_KEY, result.stdout, result.stderr, sandbox.stderr(), filesUnder(dir));
  });

  it("a request's own key wins over the server's; refused, it is exit 4 with a hint naming provider and model", async () => {
    const sandbox = await startSandbox();
    const callerKey = 'sk-caller-owned-5b5b5b5b0d0d0d0d';
    const result = await runInProcess(['blog', 'create', ...createFlags()], {
      env: {
        BLOGCTL_CONFIG_DIR: dir,
        BLOGCTL_BASE_URL: sandbox.url,
        BLOGCTL_API_KEY: API_KEY,
        BLOGCTL_PROVIDER_API_KEY: callerKey,
      },
    });
    expect(result.code).toBe(4);
    expect(fake.requests[0]!.authorization).toBe(`Bearer ${callerKey}`);
    expect(result.stderr).toContain('refused the key: HTTP 401');
    expect(result.stderr).toContain(`the provider ${fake.url} with model ${fake.model} refused the key`);
    sandbox.child.kill('SIGTERM');
    await sandbox.exited;
    server = undefined;
    expectNoKey(callerKey, result.stdout, result.stderr, sandbox.stderr(), filesUnder(dir));
    expectNoKey(SERVER_KEY, result.stdout, result.stderr, sandbox.stderr(), filesUnder(dir));
  });

  it('a provider that keeps failing until the bound: exit 7 with its reason and a hint, nothing stored', async () => {
    // A bound that leaves room for a second attempt (10 ms apart) however loaded the machine.
    const sandbox = await startSandbox([], `${SERVER_KEY}\n`, { BLOGCTL_PROVIDER_RETRY_MAX_MS: '2000' });
    fake.respond = () => ({
      status: 503,
      body: { error: { message: 'The engine is currently overloaded', type: 'server_error' } },
    });
    const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: API_KEY };
    const result = await runInProcess(['blog', 'create', ...createFlags()], { env });
    expect(result.code).toBe(7);
    expect(fake.requests.length).toBeGreaterThan(1);
    expect(result.stderr).toContain('HTTP 503');
    expect(result.stderr).toContain('The engine is currently overloaded');
    expect(result.stderr).toContain(
      `check that the provider ${fake.url} with model ${fake.model} is running`,
    );
    const list = await runInProcess(['blog', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('refuses a bad --prompts directory at start, naming the file and placeholder', async () => {
    const prompts = join(dir, 'prompts');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(prompts);
    writeFileSync(join(prompts, 'section.md'), 'Write about {keywords}.\nIn {colour}.\n');
    const result = await runInProcess(
      ['sandbox', '--port', '0', '--provider-url', fake.url, '--model', fake.model, '--prompts', prompts],
      { env: { BLOGCTL_CONFIG_DIR: dir } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(prompts, 'section.md')} line 2: unknown placeholder {colour}`);
  });

  it('--model without --provider-url is a usage error', async () => {
    const result = await runInProcess(['sandbox', '--port', '0', '--model', 'x'], {
      env: { BLOGCTL_CONFIG_DIR: dir },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--model needs a provider');
  });
});
