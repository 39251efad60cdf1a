// Every example in README.md runs as written. The ```sh blocks are read from README.md when the test runs, so
// new examples are covered as they are added: each command (continuation lines joined) runs in bash, in
// order, with the built `blogctl` on PATH, in a directory holding the files the examples name (params.json,
// post.md, cover.png, posts/, payload.json, sites.json), against a sandbox server and a fake WordPress. The
// substitutions: the example site https://blog.example.com is the fake WordPress, and the example service
// https://api.example.com the sandbox, and Ollama's http://127.0.0.1:11434/v1 a fake provider. A variable an example
// sets (`id=$(blogctl blog create -q …)`) is there for the examples after it. Lines that cannot run here are
// listed in SKIP with the reason, and lines documented to fail off a terminal in EXPECTED_EXIT.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const README = resolve(import.meta.dirname, '../../README.md');

/** Lines that cannot run in this test, each with the reason (and where it is tested instead). */
const SKIP: [RegExp, string][] = [
  [/^npm ci\b/, 'installs the dependencies and runs the suite this test is part of'],
  [/^npm install -g /, 'installs the packed tarball: test/process/pack.test.ts does, into an empty prefix'],
  [/^man blogctl\b/, 'needs `npm install -g`: test/process/pack.test.ts and man.test.ts check the page'],
  [/^blogctl sandbox\b/, 'serves until Ctrl-C: the sandbox server is what this test runs against'],
  [/^curl .*Bearer k'/, 'calls the `blogctl sandbox` server of the line before'],
  [
    /^ollama /,
    'needs Ollama: the example after it runs against a fake provider (test/helpers/fake-openai.ts)',
  ],
];

/** Lines documented to fail without a person at a terminal (stdin here is not one), with their exit code. */
const EXPECTED_EXIT: [RegExp, number[], string][] = [
  [/--length short +# asks for the rest on a terminal/, [2], 'asks for the missing parameters'],
  [/^blogctl auth login --base-url /, [2], 'asks for the key at a hidden prompt'],
  // The plan of a folder the site is behind on: exit 8 is the documented answer.
  [/--dry-run --exit-code/, [0, 8], 'exit 8 when the site is behind'],
];

interface Example {
  block: number;
  line: number;
  command: string;
}

/** The commands of every ```sh block (indented ones in lists too), continuation lines joined. */
function examples(markdown: string): Example[] {
  const out: Example[] = [];
  const lines = markdown.split('\n');
  let block = 0;
  let fence: string | undefined;
  let pending: Example | undefined;
  lines.forEach((text, i) => {
    const open = /^(\s*)```sh\s*$/.exec(text);
    if (!fence && open) {
      fence = open[1];
      block++;
      return;
    }
    if (fence === undefined) return;
    if (/^\s*```\s*$/.test(text)) {
      fence = undefined;
      return;
    }
    const body = text.slice(fence.length);
    if (pending) pending.command += `\n${body}`;
    else if (body.trim() && !body.trim().startsWith('#')) pending = { block, line: i + 1, command: body };
    if (pending && !/\\$/.test(pending.command)) {
      out.push(pending);
      pending = undefined;
    }
  });
  return out;
}

const all = examples(readFileSync(README, 'utf8'));

let sandbox: TestSandbox;
let wp: FakeWordPress;
/** Stands in for Ollama at http://127.0.0.1:11434/v1 (model llama3.2). */
let provider: FakeOpenAI;
let dir: string;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  [sandbox, wp, provider] = await Promise.all([
    startTestSandbox(),
    startFakeWordPress({ username: 'editor' }),
    startFakeOpenAI({ model: 'llama3.2' }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'blogctl-readme-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'blogctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'blogctl'), 0o755);
  work = join(dir, 'work');
  mkdirSync(join(work, 'posts'), { recursive: true });
  mkdirSync(join(dir, 'home'));
  writeFileSync(
    join(work, 'params.json'),
    `${JSON.stringify(
      {
        blogParams: {
          topicKeywords: ['weekly roundup'],
          language: { name: 'English', value: 'English' },
          toneStyle: { name: 'Friendly', value: 'Friendly' },
          contentStructure: { name: 'How-to guide', value: 'How-to guide' },
          callToAction: { name: 'Subscribe', value: 'Subscribe' },
          targetAudience: { name: 'Beginners', value: 'Beginners' },
          blogLength: { name: 'Short', value: 'Short' },
        },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(work, 'post.md'), '---\ntitle: Hello from a file\n---\nSome **Markdown**.\n');
  writeFileSync(join(work, 'posts', 'first.md'), '---\ntitle: First\n---\nThe first post.\n');
  writeFileSync(join(work, 'posts', 'second.html'), '<h1>Second</h1><p>The second post.</p>\n');
  // A 1×1 PNG.
  writeFileSync(
    join(work, 'cover.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  writeFileSync(
    join(work, 'payload.json'),
    `${JSON.stringify({ content: { title: 'From a payload', content: '<p>Hi</p>', status: 'draft' } })}\n`,
  );
  writeFileSync(
    join(work, 'sites.json'),
    `${JSON.stringify([{ id: 'myblog', label: 'My blog', autoPublish: true }])}\n`,
  );
  env = {
    PATH: `${bin}${delimiter}${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: join(dir, 'home'),
    LANG: 'C.UTF-8',
    BLOGCTL_CONFIG_DIR: join(dir, 'config'),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
    KEY: sandbox.apiKey,
    WP_APP_PASSWORD: wp.password,
  };
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close(), provider?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs one example in bash, with the variables earlier examples set; resolves to its exit code and output.
 * (Asynchronously: the sandbox and the fake WordPress answer from this very process.)
 */
function runExample(command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const state = join(dir, 'state.sh');
  const assigned = /^([A-Za-z_]\w*)=/.exec(command)?.[1];
  const script = [
    `[ -f ${state} ] && . ${state}`,
    command
      .replaceAll('https://blog.example.com', wp.url)
      .replaceAll('https://api.example.com', sandbox.url)
      .replaceAll('http://127.0.0.1:11434/v1', provider.url),
    'status=$?',
    ...(assigned ? [`declare -p ${assigned} >> ${state}`] : []),
    'exit $status',
  ].join('\n');
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', script], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The cron one-liner: `blog create … --publish <site> … --key "…"`, which must be safe to repeat. */
const CRON = /^blogctl blog create .*--publish \S+ .*--key "/;

async function blogCount(): Promise<number> {
  const list = await runExample('blogctl blog list --jq length');
  expect(list.code, list.stderr).toBe(0);
  return Number(list.stdout.trim());
}

describe('README.md examples, as written', () => {
  it('has examples to run', () => {
    expect(all.length).toBeGreaterThan(40);
  });

  for (const example of all) {
    const first = example.command.split('\n')[0]!.trim();
    const skip = SKIP.find(([re]) => re.test(first));
    const name = `line ${example.line}: ${first}`;
    if (skip) {
      // Listed in the report with the reason, not silently dropped.
      it.skip(`${name} (not run: ${skip[1]})`, () => undefined);
      continue;
    }
    it(name, async () => {
      expect(example.command, 'a placeholder instead of a value').not.toMatch(/\.\.\.|…/);
      const expected = EXPECTED_EXIT.find(([re]) => re.test(example.command));
      const result = await runExample(example.command);
      expect(expected?.[1] ?? [0], `${example.command}\n${result.stderr}`).toContain(result.code);
      if (CRON.test(example.command)) {
        // Safe to repeat: run again, it finds its post and generates no second blog.
        const before = await blogCount();
        const again = await runExample(example.command);
        expect(again.code, again.stderr).toBe(0);
        expect(await blogCount()).toBe(before);
      }
    });
  }

  it('has the cron one-liner, which is run twice above', () => {
    expect(all.filter((e) => CRON.test(e.command))).toHaveLength(1);
  });

  it('the completion install line leaves the script where bash-completion looks', () => {
    expect(existsSync(join(dir, 'home', '.local/share/bash-completion/completions/blogctl'))).toBe(true);
  });
});
