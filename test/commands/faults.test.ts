// The fault matrix, in-process: every command that talks to the service (run through `run(argv, {env, io})` of
// src/cli.ts with captured IO), against every fault a real loopback fault server can produce (or the network:
// a reset, a cut answer, no answer). Each cell asserts the documented exit code, one clear error line on
// stderr, no stack, no secret, the config dir untouched, what the publish column asks of the site
// (PUBLISH_COLUMN), and no POST sent twice — while the requests that are safe to repeat are retried and
// succeed once the fault clears. The publish column's next runs are in faults-publish.test.ts; what only a
// process shows (the exit code the OS sees, a hanging service not keeping the process alive, the built
// bundle) is in test/process/faults.test.ts.
import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  FAULTS,
  LOGIN,
  PUBLISH_COLUMN,
  expectedExit,
  expectedRequests,
  generates,
  postsOf,
  run,
} from '../helpers/fault-matrix.js';
import {
  CREATED_BLOG,
  SECRETS,
  expectNoSecrets,
  expectOneErrorLine,
  seededConfigDir,
} from '../helpers/fault-server.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

describe.concurrent.each(COMMANDS)('$name', (command) => {
  it('succeeds when the service answers well', async () => {
    const r = await run(command, 'ok');
    const { result, server: s } = r;
    expect(result.stderr).not.toMatch(/error:/);
    expect(result.code, result.stderr).toBe(0);
    expectNoSecrets(result.stdout, result.stderr);
    if (command.name === LOGIN) return; // it stores the key: that is its job
    expect(s.count(command.route)).toBe(command.route === 'publish' ? postsOf(command) : 1);
    // Nothing is kept on this machine: the site knows what was published.
    expect(r.after).toEqual(r.before);
  });

  it.each(FAULTS)('$label → exit $exit', async ({ fault, exit }) => {
    const r = await run(command, fault);
    const { result, server: s } = r;
    expectNoSecrets(result.stdout, result.stderr);
    if (command.name === LOGIN) {
      // Unavailable: either stored with a warning that the key could not be checked (exit 0) or refused (7).
      expect(exit === 7 ? [0, 7] : [exit], result.stderr).toContain(result.code);
      if (result.code !== 0) expectOneErrorLine(result);
      return;
    }
    const code = expectedExit(command, fault, exit);
    expect(result.code, `${result.stderr}`).toBe(code);
    if (code !== 0) expectOneErrorLine(result);
    expect(r.after, 'config dir byte-identical').toEqual(r.before);
    if (command.route === 'publish') PUBLISH_COLUMN.afterFault(r, command, fault);
    expect(s.count(command.route), 'requests that reached the server').toBe(expectedRequests(command, fault));
    if (generates(command)) expect(s.count('create')).toBe(1);
    expect(s.unexpected).toEqual([]);
    if (!command.idempotent) {
      const keys = s.keys(command.route);
      for (const key of keys) expect(key).toMatch(/^\S{8,}$/);
      expect(new Set(keys).size, 'no POST sent twice').toBe(keys.length);
    }
  });
});

describe.concurrent('recovery once the fault clears', () => {
  const idempotent = COMMANDS.filter((c) => c.idempotent && c.name !== LOGIN);
  it.each(
    idempotent.flatMap((c) =>
      (['502', '503', '504', '429', 'reset'] as const).map((fault) => ({ c, fault, name: c.name })),
    ),
  )('$name after $fault twice', async ({ c, fault }) => {
    const { result, server: s } = await run(c, [fault, fault, 'ok']);
    expect(result.code, result.stderr).toBe(0);
    expect(s.count(c.route)).toBe(3);
    expect(result.stderr).not.toMatch(/error:/);
  });

  it('honours a Retry-After of one second', async () => {
    const started = Date.now();
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const { result, server: s } = await run(list, [{ fault: '503', retryAfter: '1' }, 'ok'], {
      timeout: '10',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(s.count('list')).toBe(2);
  });

  it.each(COMMANDS.filter((c) => !c.idempotent))(
    '$name is not repeated after 503, even when it clears',
    async (c) => {
      const { result, server: s } = await run(c, ['503', 'ok']);
      expect(result.code).toBe(7);
      expect(s.count(c.route)).toBe(postsOf(c));
    },
  );
});

describe.concurrent('--json errors', () => {
  it.each(COMMANDS.filter((c) => c.name !== LOGIN))(
    '$name: one error line and one JSON object on stderr',
    async (c) => {
      const { result } = await run(c, '503', { args: ['--json'] });
      expect(result.code).toBe(7);
      expectOneErrorLine(result, { json: true });
      const objects = result.stderr.split('\n').filter((l) => l.startsWith('{'));
      expect(objects).toHaveLength(1);
      // A batch reports one error for all its posts (each post's own is in the JSON rows on stdout).
      expect(JSON.parse(objects[0]!)).toMatchObject({
        error: 'unavailable',
        exitCode: 7,
        ...(postsOf(c) === 1 && { status: 503 }),
      });
      if (c.route === 'delete') {
        // `delete --json` reports each id's outcome on stdout, failures included (issue 3).
        expect(JSON.parse(result.stdout)).toEqual([
          expect.objectContaining({ id: 'blog-1', deleted: false, status: 503 }),
        ]);
      } else if (postsOf(c) > 1) {
        const rows = JSON.parse(result.stdout) as { action: string; exitCode: number }[];
        expect(rows.map((r) => [r.action, r.exitCode])).toEqual([
          ['failed', 7],
          ['failed', 7],
        ]);
      } else if (generates(c) && c.route === 'publish') {
        // The blog was made: {blog, publish} on stdout says so, and that the publish failed.
        expect(JSON.parse(result.stdout)).toMatchObject({
          blog: { _id: CREATED_BLOG['_id'] },
          publish: { published: false, exitCode: 7 },
        });
      } else {
        expect(result.stdout).toBe('');
      }
      expectNoSecrets(result.stdout, result.stderr);
    },
  );
});

describe.concurrent('retries and refusals', () => {
  const list = COMMANDS.find((c) => c.name === 'blog list')!;

  it('--retries 0 sends a GET once', async () => {
    const { result, server: s } = await run(list, '503', { args: ['--retries', '0'] });
    expect(result.code).toBe(7);
    expect(s.count(list.route)).toBe(1);
  });

  it('a service that is not listening is exit 7 with the reason', async () => {
    const result = await runInProcess(['--base-url', 'http://127.0.0.1:9', '--retries', '1', ...list.args], {
      env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_RETRY_BASE_MS: '1' },
    });
    expect(result.code).toBe(7);
    expectOneErrorLine(result);
    expect(result.stderr).toMatch(/connection refused/);
  });
});
