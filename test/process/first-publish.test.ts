// README.md's "First publish to WordPress", steps 1–4, as a newcomer runs them: the ```sh blocks read from
// the README when the test runs, each line in bash with the built `blogctl` on PATH, in a plain folder (no
// project, no git work tree), against a sandbox and a fake WordPress. Step 4 promises that publishing
// hello.md again sends nothing (`unchanged`) and that `--status publish` updates the same post: that holds
// because the first publish writes a front matter `key` into hello.md (sources/loose-key.ts).
import { spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The commands of steps 1–4: each ```sh block's lines, continuation lines joined. */
function firstPublishSteps(): string[][] {
  const start = README.indexOf('## First publish to WordPress');
  const end = README.indexOf('\n5. ', start);
  const section = README.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]!
      .replace(/^ +/gm, '')
      .replace(/\\\n/g, ' ')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter(Boolean),
  );
}

let sandbox: TestSandbox;
let wp: FakeWordPress;
let dir: string;

beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress({ username: 'editor' })]);
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-first-publish-')));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'blogctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(dir, 'bin', 'blogctl'), 0o755);
  mkdirSync(join(dir, 'work'));
  mkdirSync(join(dir, 'home'));
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One line in bash, in the plain folder; resolves with its exit code and output. */
function bash(line: string): Promise<{ code: number; out: string }> {
  const script = line
    .replaceAll('https://blog.example.com', wp.url)
    .replaceAll('https://api.example.com', sandbox.url);
  const env = cliEnv({
    PATH: `${join(dir, 'bin')}${delimiter}${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: join(dir, 'home'),
    BLOGCTL_CONFIG_DIR: join(dir, 'config'),
    KEY: sandbox.apiKey,
    WP_APP_PASSWORD: wp.password,
  });
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', script], { cwd: join(dir, 'work'), env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, out }));
  });
}

describe('README: First publish to WordPress', () => {
  it('steps 1–4 as written: the second publish of hello.md is unchanged, and --status publish updates that post', async () => {
    const steps = firstPublishSteps();
    expect(steps.length).toBe(4);
    const [login, site, write, again] = steps as [string[], string[], string[], string[]];
    for (const line of [...login, ...site]) {
      const res = await bash(line);
      expect(res.code, `${line}\n${res.out}`).toBe(0);
    }
    for (const line of write) {
      const res = await bash(line);
      expect(res.code, `${line}\n${res.out}`).toBe(0);
    }
    expect(wp.posts.length).toBe(1);
    const id = wp.posts[0]!.id;
    expect(readFileSync(join(dir, 'work', 'hello.md'), 'utf8')).toMatch(
      /^---\nkey: [a-z2-9]{12}\ntitle: Hello, WordPress\n---\n/,
    );

    // "Run it again: nothing is sent (`unchanged`)": step 3's publish, once more.
    const publish = write.find((l) => l.startsWith('blogctl wp publish') && !l.includes('--dry-run'))!;
    const second = await bash(publish);
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain('unchanged');
    expect(wp.posts.length).toBe(1);

    // "publish for real, and the same post is updated in place — same id, same link".
    for (const line of again) {
      const res = await bash(line);
      expect(res.code, `${line}\n${res.out}`).toBe(0);
    }
    expect(wp.posts.map((p) => [p.id, p.status])).toEqual([[id, 'publish']]);
  });
});
