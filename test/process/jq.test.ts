// `--jq` from the built CLI: jq-wasm's WebAssembly comes with the bundle in dist/ (a chunk loaded only with
// --jq: test/process/startup-modules.test.ts), and a jq error is exit 2 as the OS reports it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, runCli, tempConfigDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  env = {
    BLOGCTL_CONFIG_DIR: tempConfigDir(),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
  };
});
afterAll(async () => {
  await sandbox?.close();
});

describe.concurrent('--jq from the built CLI', () => {
  it('prints the results of the expression over the JSON, strings as their text', async () => {
    const created = await runCli(['blog', 'create', ...createFlags('jq process'), '--jq', '.title'], { env });
    expect(created.code, created.stderr).toBe(0);
    const title = created.stdout.trimEnd();
    expect(title).not.toMatch(/^"|\n/);
    const listed = await runCli(
      [
        'blog',
        'list',
        '--jq',
        '.[] | select(.title == $title) | .title'.replace('$title', JSON.stringify(title)),
      ],
      { env },
    );
    expect(listed).toMatchObject({ code: 0, stdout: `${title}\n`, stderr: '' });
  });

  it('a jq error: exit 1 and one line naming --jq (and the JSON error object --jq implies)', async () => {
    const res = await runCli(['config', 'path', '--jq', 'error("no such thing")'], { env });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    const [line, json, ...rest] = res.stderr.trimEnd().split('\n');
    expect(line).toMatch(/^error: --jq: no such thing \(the command itself completed/);
    expect(JSON.parse(json!)).toMatchObject({ error: 'jq', exitCode: 1 });
    expect(rest).toEqual([]);
  });
});
