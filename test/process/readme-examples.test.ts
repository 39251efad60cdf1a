// Every example in README.md and docs/*.md runs as written. The ```sh blocks are read from the pages when the
// test runs, so new examples (and new pages) are covered as they are added: each command (continuation lines
// joined) runs in bash, in order, with the built `blogctl` on PATH, against a sandbox server and a fake
// WordPress. Each page starts afresh: its own config dir, home and a directory holding the files the examples
// name (params.json, post.md, cover.png, posts/, payload.json, sites.json). The substitutions: the example
// site https://blog.example.com is the fake WordPress, the example service https://api.example.com the
// sandbox, and Ollama's http://127.0.0.1:11434/v1 a fake provider. A variable an example sets (`id=$(blogctl blog create -q …)`) is there for the examples after it
// on the same page. Lines that cannot run here are listed in SKIP with the reason, and lines documented to
// fail off a terminal in EXPECTED_EXIT.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** README.md, then every page of docs/, each run on its own. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** Lines that cannot run in this test, each with the reason (and where it is tested instead). */
const SKIP: [RegExp, string][] = [
  [/^npm ci\b/, 'installs the dependencies and runs the suite this test is part of'],
  [/^npm install -g /, 'installs the packed tarball: test/process/pack.test.ts does, into an empty prefix'],
  [
    /^npm install --global .*BLOGCTL_TARBALL_URL/,
    'installs a release: test/process/ci-examples.test.ts runs it with the packed tarball in BLOGCTL_TARBALL_URL',
  ],
  [/^man blogctl\b/, 'needs `npm install -g`: test/process/pack.test.ts and man.test.ts check the page'],
  [/^blogctl sandbox\b/, 'serves until Ctrl-C: the sandbox server is what this test runs against'],
  [/^curl .*Bearer k'/, 'calls the `blogctl sandbox` server of the line before'],
  [
    /\$\(npm root -g\)/,
    'needs `npm install -g`: test/process/pack.test.ts runs the installed package with its prompts',
  ],
  [
    /^BLOGCTL_WP_PASSWORD=.* blogctl wp publish --dry-run --exit-code$/,
    'runs inside a project whose blogctl.yml names the site by URL: docs/ci.md and its recipe test run that form',
  ],
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

const pages = PAGES.map((page) => ({ page, examples: examples(readFileSync(join(ROOT, page), 'utf8')) }));
const all = pages.flatMap((p) => p.examples);

let sandbox: TestSandbox;
let wp: FakeWordPress;
/** Stands in for Ollama at http://127.0.0.1:11434/v1 (model llama3.2). */
let provider: FakeOpenAI;
let dir: string;
let bin: string;

beforeAll(async () => {
  [sandbox, wp, provider] = await Promise.all([
    startTestSandbox(),
    startFakeWordPress({ username: 'editor' }),
    startFakeOpenAI({ model: 'llama3.2' }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'blogctl-readme-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'blogctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'blogctl'), 0o755);
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close(), provider?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Where one page's examples run: its own files, home, config dir and shell variables. */
interface Place {
  root: string;
  work: string;
  env: Record<string, string>;
}

/** A fresh place for a page's examples, holding the files they name. */
function newPlace(name: string): Place {
  const root = join(dir, name.replace(/[^\w]+/g, '-'));
  const work = join(root, 'work');
  mkdirSync(join(work, 'posts'), { recursive: true });
  mkdirSync(join(root, 'home'));
  writeFileSync(
    join(work, 'params.json'),
    `${JSON.stringify(
      {
        blogParams: {
          topicKeywords: [`weekly roundup ${name.replace(/[^a-z]+/gi, ' ').trim()}`],
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
  const env = {
    PATH: `${bin}${delimiter}${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: join(root, 'home'),
    LANG: 'C.UTF-8',
    BLOGCTL_CONFIG_DIR: join(root, 'config'),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
    KEY: sandbox.apiKey,
    WP_APP_PASSWORD: wp.password,
  };
  return { root, work, env };
}

/** What a reader of docs/ has done by following README.md. */
async function setUpReader(place: Place, text: string): Promise<void> {
  place.env['BLOGCTL_WP_PASSWORD'] = wp.password;
  // What a GitHub Actions runner sets, for the CI recipes.
  place.env['GITHUB_STEP_SUMMARY'] = join(place.root, 'step-summary.md');
  place.env['RUNNER_TEMP'] = place.root;
  const steps = [
    ...(text.includes('sites add myblog')
      ? []
      : [
          `printf %s "$WP_APP_PASSWORD" | blogctl wp sites add myblog --url ${wp.url} --username editor --password-stdin --no-verify`,
        ]),
    `git init -q --bare ${join(place.root, 'origin.git')}`,
    'git init -q -b main . && git config user.email reader@example.com && git config user.name Reader',
    `git config push.autoSetupRemote true && git remote add origin ${join(place.root, 'origin.git')}`,
    'git add -A && git commit -qm "Posts" && git push -q origin main',
  ];
  for (const step of steps) {
    const result = await runExample(place, step);
    expect(result.code, `${step}\n${result.stderr}`).toBe(0);
  }
}

/**
 * Runs one example in bash, with the variables earlier examples set; resolves to its exit code and output.
 * (Asynchronously: the sandbox and the fake WordPress answer from this very process.)
 */
function runExample(
  place: Place,
  command: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { work, env } = place;
  const state = join(place.root, 'state.sh');
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

async function blogCount(place: Place): Promise<number> {
  const list = await runExample(place, 'blogctl blog list --jq length');
  expect(list.code, list.stderr).toBe(0);
  return Number(list.stdout.trim());
}

describe('README.md and docs/*.md examples, as written', () => {
  it('has examples to run', () => {
    expect(all.length).toBeGreaterThan(40);
    expect(pages.find((p) => p.page === 'README.md')!.examples.length).toBeGreaterThan(10);
  });

  for (const { page, examples: list } of pages.filter((p) => p.examples.length > 0)) {
    describe(page, () => {
      let place: Place;
      beforeAll(async () => {
        place = newPlace(page);
        // A page of docs/ goes on from where README.md leaves a reader: the site `myblog` added, the
        // Application Password in the environment (as CI has it), the folder a git repository with a remote.
        if (page !== 'README.md') await setUpReader(place, readFileSync(join(ROOT, page), 'utf8'));
      });
      for (const example of list) {
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
          const result = await runExample(place, example.command);
          expect(expected?.[1] ?? [0], `${example.command}\n${result.stderr}`).toContain(result.code);
          if (CRON.test(example.command)) {
            // Safe to repeat: run again, it finds its post and generates no second blog.
            const before = await blogCount(place);
            const again = await runExample(place, example.command);
            expect(again.code, again.stderr).toBe(0);
            expect(await blogCount(place)).toBe(before);
          }
        });
      }
    });
  }

  it('has the cron one-liner, which is run twice above', () => {
    expect(all.filter((e) => CRON.test(e.command))).toHaveLength(1);
  });

  it("README's crontab line is the cron one-liner, each % written \\% as a crontab needs", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /^```crontab\n([\s\S]*?)^```/m.exec(readme)?.[1];
    expect(block, 'a ```crontab block in README.md').toBeDefined();
    const lines = block!.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(lines).toHaveLength(1);
    // cron ends the command at an unescaped %, and makes the rest its stdin.
    expect(lines[0]!.replaceAll('\\%', '')).not.toContain('%');
    const cron = all.find((e) => CRON.test(e.command))!.command;
    expect(lines[0]!.replaceAll('\\%', '%')).toContain(cron);
  });

  it('the completion install lines leave each script where its shell looks, in the home directory', () => {
    const home = join(dir, 'README-md', 'home');
    expect(existsSync(join(home, '.local/share/bash-completion/completions/blogctl'))).toBe(true);
    expect(existsSync(join(home, '.zfunc/_blogctl'))).toBe(true);
    expect(existsSync(join(home, '.config/fish/completions/blogctl.fish'))).toBe(true);
  });

  it('links between the pages lead to files in the repository', () => {
    const broken: string[] = [];
    for (const page of [...PAGES, 'CONTRIBUTING.md']) {
      // Code (fenced blocks and `spans`) shows Markdown as written, such as a post's own `![cover](img/a.png)`:
      // examples, not links of the page.
      const text = readFileSync(join(ROOT, page), 'utf8')
        .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
        .replace(/(`+)[^`]+?\1/g, '');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(resolve(ROOT, page, '..', target))) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('pasted into a shell, no example leaves it changed or runs on nothing', () => {
    const bad: string[] = [];
    for (const page of PAGES) {
      for (const e of examples(readFileSync(join(ROOT, page), 'utf8'))) {
        // `xargs` without -r runs its command once with no arguments when the list is empty.
        if (/\bxargs\b(?! -r\b)/.test(e.command)) bad.push(`${page}:${e.line}: xargs without -r`);
        // A bare `umask 077;` stays in the reader's shell for everything after it: a subshell keeps it in.
        if (/(^|[;&|]\s*)umask\b/.test(e.command))
          bad.push(`${page}:${e.line}: umask outside a ( … ) subshell`);
      }
    }
    expect(bad).toEqual([]);
  });
});
