// JSON nested deeper than the limit (lib/json-depth.ts) in a -f file or on stdin: exit 2, one line naming the
// file and the limit, no stack trace, and nothing sent. In-process, against a server that counts requests.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogParamsFor } from '../helpers/sandbox.js';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

let server: Server;
let url: string;
let requests = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dir = mkdtempSync(join(tmpdir(), 'blogctl-deep-'));
const deep = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** `value` in place of the string "DEEP" in `shape`'s JSON. */
const withDeep = (shape: unknown, levels: number): string =>
  JSON.stringify(shape).replace('"DEEP"', deep(levels));

function env(): Record<string, string> {
  return {
    BLOGCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'blogctl-deep-cfg-')),
    BLOGCTL_BASE_URL: url,
    BLOGCTL_API_KEY: 'k-0123456789abcdef',
  };
}

function expectRefused(res: CliResult, label: string): void {
  expect(res.code, res.stderr).toBe(2);
  expect(res.stdout).toBe('');
  expect(res.stderr).toContain(`${label} nests objects and arrays deeper than 256 levels (the limit)`);
  expect(res.stderr).not.toMatch(/Maximum call stack|\n\s+at /);
  expect(res.stderr.trim().split('\n')).toHaveLength(1);
}

describe.each([4_500, 5_000])('JSON %i levels deep', (levels) => {
  it('blog create -f FILE and -f - (stdin): exit 2, nothing sent', async () => {
    const before = requests;
    const file = join(dir, `blog-${levels}.json`);
    const text = withDeep({ blogParams: blogParamsFor({ metaData: { x: 'DEEP' } as never }) }, levels);
    writeFileSync(file, text);
    expectRefused(await runInProcess(['blog', 'create', '-f', file], { env: env() }), file);
    expectRefused(
      await runInProcess(['blog', 'create', '-f', '-'], { env: env(), input: text }),
      '-f - (stdin)',
    );
    expect(requests).toBe(before);
  });

  it('wp settings replace -f, wp settings update -f and wp publish -f: exit 2, nothing sent', async () => {
    const before = requests;
    const settings = join(dir, `settings-${levels}.json`);
    writeFileSync(settings, withDeep([{ id: 'site-1', label: 'DEEP' }], levels));
    expectRefused(
      await runInProcess(['wp', 'settings', 'replace', '-f', settings, '--yes'], { env: env() }),
      settings,
    );
    const patch = join(dir, `patch-${levels}.json`);
    writeFileSync(patch, withDeep({ label: 'DEEP' }, levels));
    expectRefused(await runInProcess(['wp', 'settings', 'update', '-f', patch], { env: env() }), patch);
    const payload = join(dir, `payload-${levels}.json`);
    writeFileSync(payload, withDeep({ content: { title: 't', content: 'c', meta: 'DEEP' } }, levels));
    expectRefused(
      await runInProcess(['wp', 'publish', '-f', payload, '--url', 'https://wp.test', '--username', 'u'], {
        env: env(),
      }),
      payload,
    );
    expect(requests).toBe(before);
  });
});
