// What a batch says when many sources share one problem: the problem once, with the sources listed; and a
// past date said once, not once as a warning and again as a surprise. In-process, against the sandbox
// relaying to a fake WordPress.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { run } from '../../src/cli.js';
import { IO } from '../../src/output/io.js';
import { printBatch } from '../../src/commands/common/publish-output.js';
import { OUTPUT_FIELDS } from '../../src/commands/common/publish-rows.js';
import { BlogctlError } from '../../src/errors.js';
import { jsonOutput } from '../../src/output/json.js';
import type { PublishOutcome } from '../../src/publishing/publish-outcome.js';
import { cliEnv } from '../helpers/cli.js';

guardStrayOutput();

let sandbox: TestSandbox;
let wp: FakeWordPress;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), wp.close()]);
});

function place(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-report-'));
  return {
    dir,
    env: {
      BLOGCTL_CONFIG_DIR: join(dir, 'config'),
      BLOGCTL_BASE_URL: sandbox.url,
      BLOGCTL_API_KEY: sandbox.apiKey,
      BLOGCTL_WP_PASSWORD: wp.password,
    },
  };
}

const publish = (...args: string[]) => ['wp', 'publish', '--url', wp.url, '--username', wp.username, ...args];
const count = (text: string, what: string): number => text.split(what).length - 1;

/** As runInProcess, with stderr a terminal: errors come with their details as `  • …` lines. */
async function runWithTerminalStderr(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
  const stdout = new PassThrough();
  let err = '';
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  stdout.resume();
  const full = cliEnv(env);
  const io = new IO({ stdin: new PassThrough(), stdout, stderr, env: full, noColor: true });
  const code = await run(['node', 'blogctl', ...args], { env: full, io });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stderr: err };
}

describe('a batch whose sources share a problem', () => {
  it('names an unknown category once, with every source that asks for it', async () => {
    const { dir, env } = place();
    mkdirSync(join(dir, 'posts'));
    for (let i = 1; i <= 12; i++)
      writeFileSync(
        join(dir, 'posts', `shared-${i}.md`),
        `---\ntitle: Shared ${i}\ncategories: [Nope]\n---\nBody.\n`,
      );
    const res = await runInProcess(publish(join(dir, 'posts')), { env });
    expect(res.code).toBe(2);
    expect(count(res.stderr, 'unknown category: Nope'), res.stderr).toBe(1);
    expect(res.stderr).toContain('12 posts:');
    expect(res.stderr).toMatch(/shared-1\.md.*and 2 more/);
    expect(wp.posts.filter((p) => String(p['title']).startsWith('Shared'))).toEqual([]);
  });

  it('says a future date in the past once for one file (not again as a detail), and names each of several', async () => {
    const { dir, env } = place();
    for (const name of ['past-a.md', 'past-b.md'])
      writeFileSync(
        join(dir, name),
        `---\ntitle: ${name}\nstatus: future\ndate: 2020-01-01T00:00:00Z\n---\nBody.\n`,
      );
    const one = await runWithTerminalStderr(publish(join(dir, 'past-a.md')), env);
    expect(one.code).toBe(2);
    expect(count(one.stderr, 'is in the past'), one.stderr).toBe(1);
    const both = await runWithTerminalStderr(publish(join(dir, 'past-a.md'), join(dir, 'past-b.md')), env);
    expect(both.code).toBe(2);
    for (const name of ['past-a.md', 'past-b.md']) expect(both.stderr).toContain(`${name}:4: date`);
  });

  it('with --allow-immediate, warns once that WordPress will publish it at once', async () => {
    const { dir, env } = place();
    writeFileSync(
      join(dir, 'now.md'),
      `---\ntitle: Now\nkey: now\nstatus: future\ndate: 2020-01-01T00:00:00Z\n---\nBody.\n`,
    );
    const res = await runInProcess(publish(join(dir, 'now.md'), '--allow-immediate'), { env });
    expect(res.code, res.stderr).toBe(0);
    expect(count(res.stderr, 'warning:'), res.stderr).toBe(1);
  });
});

describe('the batch table on a terminal', () => {
  it('writes an error many sources share once, at its first row; the others point to it', async () => {
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    let out = '';
    stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const io = new IO({
      stdin: new PassThrough(),
      stdout,
      stderr: new PassThrough(),
      env: { NO_COLOR: '1' },
    });
    const refused = 'WordPress refused the Application Password for this user: check it with wp sites verify';
    const outcomes: PublishOutcome[] = [
      ...Array.from({ length: 6 }, (_, i) => ({
        source: `posts/p-${i + 1}.md`,
        state: 'failed' as const,
        requestedStatus: 'draft',
        error: new BlogctlError('auth', 4, refused),
        warnings: [],
        notes: [],
      })),
      {
        source: 'posts/other.md',
        state: 'failed' as const,
        requestedStatus: 'draft',
        error: new BlogctlError('rejected', 6, 'the slug is held by a post blogctl did not make'),
        warnings: [],
        notes: [],
      },
    ];
    const failure = await printBatch(
      { io, globals: {} },
      jsonOutput(undefined, OUTPUT_FIELDS),
      outcomes,
    ).catch((e: unknown) => e as BlogctlError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(count(out, 'refused the Application Password'), out).toBe(1);
    expect(out).toMatch(/p-1\.md .*\[1\] WordPress refused/);
    expect(out).toContain('(6 sources)');
    for (let i = 2; i <= 6; i++) expect(out).toMatch(new RegExp(`p-${i}\\.md +failed +\\[1\\]$`, 'm'));
    expect(out).toContain('the slug is held');
    // The error's details: each failure once, with its sources.
    expect((failure as BlogctlError).context.details).toEqual([
      `${refused} (6 sources: posts/p-1.md, posts/p-2.md, posts/p-3.md, posts/p-4.md, posts/p-5.md, posts/p-6.md)`,
      'posts/other.md: the slug is held by a post blogctl did not make',
    ]);
  });
});
