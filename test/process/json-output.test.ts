// The `--json` contract as the built CLI keeps it on a real stdout pipe: exactly one JSON document, then the
// exit code the OS reports. Every command and position is covered in-process (test/commands/json-output.test.ts);
// here a list, a batch publish and a parse error stand for them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let wp: FakeWordPress;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  dir = tempConfigDir();
  env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: sandbox.apiKey };
  const add = await runCli(
    ['wp', 'sites', 'add', 's1', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    { env, input: `${wp.password}\n` },
  );
  expect(add.code, add.stderr).toBe(0);
  writeFileSync(join(dir, 'a.md'), '---\ntitle: File A\n---\nHello from A.\n');
  writeFileSync(join(dir, 'b.md'), '---\ntitle: File B\n---\nHello from B.\n');
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close()]);
});

/** Exactly one JSON document: the whole of stdout parses, and it ends with its one newline. */
function oneDocument(res: CliResult): unknown {
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout.endsWith('\n'), res.stdout).toBe(true);
  return JSON.parse(res.stdout);
}

describe.concurrent('--json from the built CLI', () => {
  it('blog list --json id,title: one array of just those fields', async () => {
    const created = await runCli(['blog', 'create', ...createFlags(), '-q'], { env });
    expect(created.code, created.stderr).toBe(0);
    const doc = oneDocument(await runCli(['--json', 'id,title', 'blog', 'list'], { env })) as object[];
    expect(doc.length).toBeGreaterThan(0);
    for (const blog of doc) expect(Object.keys(blog)).toEqual(['id', 'title']);
  });

  it('wp publish FILES --json (relative paths, from the working directory): one array, a row per file', async () => {
    const res = await runCli(['wp', 'publish', '--site', 's1', 'a.md', 'b.md', '--json'], {
      env,
      cwd: dir,
    });
    const rows = oneDocument(res) as { action: string }[];
    expect(rows).toHaveLength(2);
    expect(res.stdout).not.toContain(wp.password);
    expect(res.stderr).not.toContain(wp.password);
  });

  it('a parse error with --json: exit 2, nothing on stdout, the line and the JSON error on stderr', async () => {
    const res = await runCli(['--json', 'config', 'lst'], { env });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const [line, json, ...rest] = res.stderr.split('\n');
    expect(line).toMatch(/^error: "lst": not a command of blogctl config/);
    expect(JSON.parse(json!)).toMatchObject({ error: 'usage', exitCode: 2 });
    expect(rest).toEqual(['']);
  });
});
