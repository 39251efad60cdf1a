// `blog list` against a service that streams an endless array: the list stops at its limit with exit 7 naming
// it (and the variable that raises it), nothing on stdout. In-process and small; the default limits, with the
// process's memory watched, are test/stress/endless-list.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { startEndlessList, startServer, type TestServer } from '../helpers/http-server.js';
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

describe('blog list by default: the 30 newest, as gh lists', () => {
  it('newest first, 30 of them with a note on stderr saying how many there are; --limit 0 lists all', async () => {
    // 35 blogs, oldest first as the service sends them.
    const blogs = Array.from({ length: 35 }, (_, i) => ({
      _id: `b${String(i).padStart(2, '0')}`,
      title: `Blog ${i}`,
      content: '<p>x</p>',
      createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    }));
    const service = await startServer((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(blogs));
    });
    try {
      const env = { BLOGCTL_API_KEY: 'sk_test_list_default_key', BLOGCTL_CONFIG_DIR: tempConfigDir() };
      const first = await runInProcess(['--base-url', service.url, 'blog', 'list', '-q'], { env });
      expect(first.code, first.stderr).toBe(0);
      const ids = first.stdout.trim().split('\n');
      expect(ids).toHaveLength(30);
      expect(ids[0]).toBe('b34');
      expect(ids[29]).toBe('b05');
      // Even with -q: a script that meant every blog hears why it got 30.
      expect(first.stderr).toBe('warning: showing the 30 newest of 35 blogs (--limit 0 for all)\n');
      const all = await runInProcess(
        ['--base-url', service.url, 'blog', 'list', '--limit', '0', '--json', 'id'],
        { env },
      );
      expect(all.code, all.stderr).toBe(0);
      expect((JSON.parse(all.stdout) as unknown[]).length).toBe(35);
      expect(all.stderr).toBe('');
    } finally {
      await service.close();
    }
  });
});
