// The fault matrix's process half: what only the built CLI, spawned, shows. Every cell of the matrix is asserted
// in-process (test/commands/faults.test.ts, faults-publish.test.ts); here each command meets one fault that
// leaves its outcome unknown (a reset connection) as a script would see it — the exit code the OS reports, the
// process ending by itself, one error line from the bundle's lazy chunks, no secret — and a hanging service
// ends the process at --timeout.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeWordPress } from '../helpers/fake-wordpress.js';
import { COMMANDS, LOGIN, PUBLISHING, RETRIES, postsOf } from '../helpers/fault-matrix.js';
import {
  DEFAULT_WORDPRESS_URL,
  SECRETS,
  WP_USER,
  expectNoSecrets,
  expectOneErrorLine,
  seededConfigDir,
  startFaultServer,
  type ServiceCommand,
  type Step,
} from '../helpers/fault-server.js';

/** `command` spawned against a fault server following `plan` (and a fake WordPress when it publishes). */
async function spawned(command: ServiceCommand, plan: Step | Step[], extra: string[] = [], timeout = '1') {
  const wp =
    command.route === 'publish'
      ? await startFakeWordPress({ username: WP_USER, password: SECRETS.BLOGCTL_WP_PASSWORD })
      : undefined;
  const server = await startFaultServer({ plan: { [command.route]: plan } });
  try {
    const args = command.args.map((a) => (wp && a === DEFAULT_WORDPRESS_URL ? wp.url : a));
    const result = await runCli(
      ['--base-url', server.url, '--retries', String(RETRIES), '--timeout', timeout, ...args, ...extra],
      {
        env: {
          BLOGCTL_CONFIG_DIR: seededConfigDir(undefined, wp?.url),
          ...SECRETS,
          BLOGCTL_RETRY_BASE_MS: '1',
          BLOGCTL_MAX_RESPONSE_MB: '1',
        },
        ...(command.input !== undefined && { input: command.input }),
        timeoutMs: 15_000,
      },
    );
    return { result, server };
  } finally {
    await Promise.all([server.close(), wp?.close()]);
  }
}

describe.concurrent.each(COMMANDS)('$name, spawned', (command) => {
  it('a reset connection: the documented exit code, by itself, one line, nothing sent twice', async () => {
    const { result, server } = await spawned(command, 'reset', [], '30');
    expect(result.signal, 'ended by itself, not by the test timeout').toBeNull();
    expectNoSecrets(result.stdout, result.stderr);
    if (command.name === LOGIN) {
      // Either stored with a warning that the key could not be checked (exit 0) or refused (7).
      expect([0, 7], result.stderr).toContain(result.code);
      if (result.code !== 0) expectOneErrorLine(result);
      return;
    }
    expect(result.code, result.stderr).toBe(7);
    expectOneErrorLine(result);
    const keys = server.keys(command.route);
    expect(keys).toHaveLength(command.idempotent ? RETRIES + 1 : postsOf(command));
    if (!command.idempotent) expect(new Set(keys).size, 'no POST sent twice').toBe(keys.length);
  });
});

// A hanging service never answers: what ends these commands is their timeout (named on stderr), and the one
// request the server saw says no second attempt (and so no second wait) followed. runCli kills a command still
// running after 15 s, which fails the exit code.
describe('timeouts', () => {
  it('a hanging service ends at --timeout, even with retries left', async () => {
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const { result, server: s } = await spawned(list, 'hang', ['--retries', '5']);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/within 1 s/);
    expect(s.count('list')).toBe(1);
  });

  it('a hanging publish ends at --timeout once: no second wait for a second attempt', async () => {
    const publish = PUBLISHING.find((c) => c.name === 'wp publish --status publish')!;
    const { result, server: s } = await spawned(publish, 'hang', [], '3');
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/within 3 s/);
    expect(s.count('publish')).toBe(1);
  });

  it('BLOGCTL_TIMEOUT bounds blog create too', async () => {
    const create = COMMANDS.find((c) => c.name === 'blog create')!;
    const faults = await startFaultServer({ plan: { create: 'hang' } });
    try {
      const result = await runCli(['--base-url', faults.url, ...create.args], {
        env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_TIMEOUT: '1' },
      });
      expect(result.code, result.stderr).toBe(7);
      expect(result.stderr).toMatch(/within 1 s/);
      expect(faults.count('create')).toBe(1);
    } finally {
      await faults.close();
    }
  });
});
