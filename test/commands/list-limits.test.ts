// `blog list` against a service that streams an endless array: the list stops at its limit with exit 7 naming
// it (and the variable that raises it), nothing on stdout. In-process and small; the default limits, with the
// process's memory watched, are test/stress/endless-list.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { startEndlessList, type TestServer } from '../helpers/http-server.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

let server: TestServer & { sent: () => number };
beforeAll(async () => {
  server = await startEndlessList();
});
afterAll(() => server.close());

afterEach(() => {
  vi.unstubAllEnvs();
});

// The HTTP client reads its limits from the process's environment (the run's own, in the CLI), so they are
// set there.
const list = (extra: string[], limits: Record<string, string>) => {
  for (const [name, value] of Object.entries(limits)) vi.stubEnv(name, value);
  return runInProcess(['--base-url', server.url, 'blog', 'list', ...extra], {
    env: { BLOGCTL_API_KEY: 'sk_test_endless_list_key', BLOGCTL_CONFIG_DIR: tempConfigDir(), ...limits },
  });
};

describe('blog list against an endless list', () => {
  it('stops at BLOGCTL_MAX_LIST_ITEMS: exit 7 naming the limit, nothing on stdout', async () => {
    const res = await list([], { BLOGCTL_MAX_LIST_ITEMS: '500' });
    expect(res.code, res.stderr).toBe(7);
    expect(res.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/had more than 500 items \(BLOGCTL_MAX_LIST_ITEMS raises the limit\)/),
    ]);
    expect(res.stdout).toBe('');
  });

  it('stops at BLOGCTL_MAX_LIST_MB with --json: the line, then the error object', async () => {
    const res = await list(['--json', 'id'], { BLOGCTL_MAX_LIST_MB: '1' });
    expect(res.code, res.stderr).toBe(7);
    const [line, json, ...rest] = res.stderr.trim().split('\n');
    expect(line).toMatch(
      /the list in the response was larger than 1 MiB \(BLOGCTL_MAX_LIST_MB raises the limit\)/,
    );
    expect(JSON.parse(json!)).toMatchObject({ exitCode: 7 });
    expect(rest).toEqual([]);
    expect(res.stdout).toBe('');
  });
});
