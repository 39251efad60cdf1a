// --debug (and BLOGCTL_DEBUG=1) logs every request — method, URL, status, timing — on stderr, and never the
// Authorization header, an Application Password or a provider key, in any spelling (as is, without spaces,
// base64 inside Basic auth). The command tree in-process: what --debug prints goes through the run's IO (and
// guardStrayOutput fails the file if anything bypassed it), which is all a process would show.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { faultContext, relayTo } from '../helpers/fault-matrix.js';
import {
  DEFAULT_WORDPRESS_URL,
  SECRETS,
  STORED_SITE_PASSWORD,
  WP_USER,
  expectNoSecrets,
  seededConfigDir,
  startFaultServer,
  type FaultServer,
  type ServiceCommand,
} from '../helpers/fault-server.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { faultRows } from '../helpers/sweeps.js';

guardStrayOutput();

// Every row of the fault matrix that needs no stdin: each asks the service.
const COMMANDS = faultRows(faultContext(mkdtempSync(join(tmpdir(), 'blogctl-debug-')))).filter(
  (c) => c.input === undefined,
);
/** Publishing looks up the site first (with the site's password, which must not show either). */
let wp: FakeWordPress;
const METHOD = { create: 'POST', list: 'GET', delete: 'DELETE', settings: 'PATCH', publish: 'POST' } as const;
const PATH = {
  create: '/api/v1/public/create-blog',
  list: '/api/v1/public/get-all-blogs',
  delete: '/api/v1/public/delete-blog/blog-1',
  settings: '/api/v1/public/integrations/wordpress/update-settings',
  publish: '/api/v1/public/integrations/wordpress/publish',
} as const;

let server: FaultServer;
beforeAll(async () => {
  wp = await startFakeWordPress({ username: WP_USER, password: STORED_SITE_PASSWORD });
  // The service relays a publish to the site, as the real one does: WordPress then holds the post it names.
  server = await startFaultServer({ relay: (body) => relayTo(wp, body) });
});
afterAll(() => Promise.all([server.close(), wp.close()]));
beforeEach(() => {
  server.reset();
  // Each run publishes anew: the post an earlier run relayed would make this one "unchanged".
  wp.posts.length = 0;
});

function run(command: ServiceCommand, how: 'flag' | 'env', extra: string[] = []): Promise<CliResult> {
  return runInProcess(
    [
      '--base-url',
      server.url,
      ...(how === 'flag' ? ['--debug'] : []),
      ...extra,
      ...command.args.map((a) => (a === DEFAULT_WORDPRESS_URL ? wp.url : a)),
    ],
    {
      env: {
        BLOGCTL_CONFIG_DIR: seededConfigDir(undefined, wp.url),
        ...SECRETS,
        // The stored site's own password: the look-up must be let in.
        BLOGCTL_WP_PASSWORD: STORED_SITE_PASSWORD,
        BLOGCTL_RETRY_BASE_MS: '1',
        ...(how === 'env' && { BLOGCTL_DEBUG: '1' }),
      },
    },
  );
}

/** Nothing that looks like a credential on its way out, even redacted by accident into another form. */
function expectNothingSecret(result: CliResult): void {
  expectNoSecrets(result.stdout, result.stderr);
  const all = result.stdout + result.stderr;
  expect(all).not.toMatch(/bearer\s+\S/i);
  expect(all).not.toMatch(/basic\s+[A-Za-z0-9+/=]{8,}/i);
  expect(all).not.toMatch(/authorization:\s*\S/i);
  expect(all).not.toContain(Buffer.from(`${WP_USER}:${SECRETS.BLOGCTL_WP_PASSWORD}`).toString('base64'));
  expect(all).not.toContain(Buffer.from(`${WP_USER}:${STORED_SITE_PASSWORD}`).toString('base64'));
}

describe.each(['flag', 'env'] as const)('debug by %s', (how) => {
  it.each(COMMANDS)('$name logs method, URL, status and timing', async (command) => {
    const result = await run(command, how);
    expect(result.code, result.stderr).toBe(0);
    const method = METHOD[command.route];
    const url = `${server.url}${PATH[command.route]}`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(result.stderr).toMatch(
      new RegExp(`^\\[debug\\] ${method} ${url} → 2\\d\\d in \\d+ ms \\(\\d+ bytes\\)$`, 'm'),
    );
    if (method === 'POST') expect(result.stderr).toMatch(/idempotency-key [0-9a-f-]{36}/);
    // Debug lines go to stderr only: stdout stays data.
    expect(result.stdout).not.toContain('[debug]');
    expectNothingSecret(result);
  });
});

describe('debug on failures', () => {
  it('logs each attempt and the waits between them', async () => {
    server.plan('list', ['503', 'reset', 'ok']);
    const result = await run(
      COMMANDS.find((c) => c.name === 'blog list')!,
      'flag',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/GET \S+get-all-blogs → 503 in \d+ ms/);
    expect(result.stderr).toMatch(/HTTP 503, retrying in \d+ ms \(attempt 2\)/);
    expect(result.stderr).toMatch(/GET \S+get-all-blogs failed after \d+ ms: /);
    expect(result.stderr).toMatch(/GET \S+get-all-blogs \(attempt 3\)/);
    expectNothingSecret(result);
  });

  it.each(COMMANDS)('$name: a failure with --debug shows the details, still no secret', async (command) => {
    server.plan(command.route, '401');
    const result = await run(command, 'flag');
    expect(result.code).toBe(4);
    // A batch's error line sums up; each post's own error (the HTTP status) is on a hint line under it.
    expect(result.stderr).toMatch(/^(error:| {2}• ).*HTTP 401/m);
    expect(result.stderr).toMatch(/→ 401 in \d+ ms/);
    expectNothingSecret(result);
  });

  it('a timeout is logged as one', async () => {
    server.plan('list', 'hang');
    const result = await run(
      COMMANDS.find((c) => c.name === 'blog list')!,
      'flag',
      ['--timeout', '1'],
    );
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/get-all-blogs failed after \d+ ms: timeout/);
    expectNothingSecret(result);
  });
});

describe('dry runs print the request without its secrets', () => {
  it.each(
    COMMANDS.filter((c) =>
      ['blog create', 'wp publish', 'wp publish --site', 'wp settings update'].includes(c.name),
    ),
  )('$name --dry-run --debug', async (command) => {
    const result = await run({ ...command, args: [...command.args, '--dry-run'] }, 'flag');
    expect(result.code, result.stderr).toBe(0);
    expect(server.count(command.route)).toBe(0);
    expectNothingSecret(result);
  });
});
