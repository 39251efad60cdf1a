// Where each setting comes from: a flag, then the environment, then the selected profile (config.json and
// credentials.json), then the default. Checked on the requests the service receives: which server, which
// Authorization, which WordPress password, and how long a hanging request is waited for. The command tree
// in-process, each run with its own environment.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

let a: FaultServer;
let b: FaultServer;
let c: FaultServer;
beforeAll(async () => {
  [a, b, c] = await Promise.all([startFaultServer(), startFaultServer(), startFaultServer()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), c?.close()]);
});

const KEYS = { one: 'sk_profile_one_0000', two: 'sk_profile_two_0000', three: 'sk_profile_three_000' };
const ENV_KEY = 'sk_from_env_00000000';
const STORED_PW = 'stor edpw stor edpw';
const ENV_PW = 'envp assw ordx envp';
const STDIN_PW = 'stdi npas swor dxxx';

/** Three profiles on three servers (current: one), one site profile "s1" with a stored password. */
function configDir(settings: Record<string, unknown> = {}): string {
  const dir = tempConfigDir();
  const config = {
    currentProfile: 'one',
    profiles: { one: { baseUrl: a.url }, two: { baseUrl: b.url }, three: { baseUrl: c.url } },
    settings,
    sites: { s1: { url: 'https://s1.example', username: 'editor' } },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  writeFileSync(
    join(dir, 'credentials.json'),
    JSON.stringify({ apiKeys: KEYS, sitePasswords: { s1: STORED_PW } }),
    { mode: 0o600 },
  );
  return dir;
}

/** Runs `blog list` and says which server got it, with which key. */
async function listVia(args: string[], env: Record<string, string>) {
  const servers = { a, b, c };
  const before = Object.fromEntries(Object.entries(servers).map(([n, s]) => [n, s.requests.length]));
  const result = await runInProcess([...args, 'blog', 'list', '--json'], {
    env: { BLOGCTL_CONFIG_DIR: configDir(), ...env },
  });
  expect(result.code, result.stderr).toBe(0);
  const hit = Object.entries(servers).filter(([n, s]) => s.requests.length > before[n]!);
  expect(hit).toHaveLength(1);
  const [name, server] = hit[0]!;
  return { server: name, authorization: server.requests.at(-1)!.authorization };
}

describe.sequential('base URL, profile and API key', () => {
  it('--base-url over BLOGCTL_BASE_URL over the profile', async () => {
    expect((await listVia(['--base-url', c.url], { BLOGCTL_BASE_URL: b.url })).server).toBe('c');
    expect((await listVia([], { BLOGCTL_BASE_URL: b.url })).server).toBe('b');
    expect((await listVia([], {})).server).toBe('a');
  });

  it('--profile over BLOGCTL_PROFILE over currentProfile, for the base URL and the key', async () => {
    expect(await listVia(['--profile', 'three'], { BLOGCTL_PROFILE: 'two' })).toEqual({
      server: 'c',
      authorization: `Bearer ${KEYS.three}`,
    });
    expect(await listVia([], { BLOGCTL_PROFILE: 'two' })).toEqual({
      server: 'b',
      authorization: `Bearer ${KEYS.two}`,
    });
    expect(await listVia([], {})).toEqual({ server: 'a', authorization: `Bearer ${KEYS.one}` });
  });

  it("BLOGCTL_API_KEY over the profile's stored key (there is no key flag: argv is visible to other users)", async () => {
    expect((await listVia(['--profile', 'two'], { BLOGCTL_API_KEY: ENV_KEY })).authorization).toBe(
      `Bearer ${ENV_KEY}`,
    );
  });
});

describe.concurrent('timeout', () => {
  /** A hanging list: the error says how long it waited. */
  async function waited(args: string[], env: Record<string, string>, settings: Record<string, unknown>) {
    const server = await startFaultServer({ plan: { list: 'hang' } });
    try {
      const result = await runInProcess(
        ['--base-url', server.url, '--retries', '0', ...args, 'blog', 'list'],
        {
          env: { BLOGCTL_CONFIG_DIR: configDir(settings), BLOGCTL_API_KEY: ENV_KEY, ...env },
        },
      );
      expect(result.code).toBe(7);
      return /within (\S+) s/.exec(result.stderr)?.[1];
    } finally {
      await server.close();
    }
  }

  it('--timeout over BLOGCTL_TIMEOUT over config timeout', async () => {
    expect(await waited(['--timeout', '0.5'], { BLOGCTL_TIMEOUT: '3' }, { timeout: 4 })).toBe('0.5');
  });
  it('BLOGCTL_TIMEOUT over config timeout', async () => {
    expect(await waited([], { BLOGCTL_TIMEOUT: '0.7' }, { timeout: 4 })).toBe('0.7');
  });
  it('config timeout over the default', async () => {
    expect(await waited([], {}, { timeout: 0.9 })).toBe('0.9');
  });
});

describe.sequential(
  'the WordPress password: --password-stdin, then BLOGCTL_WP_PASSWORD, then the stored one',
  () => {
    /** The password the service received in the request's credentials. */
    async function sentPassword(args: string[], env: Record<string, string>, input?: string) {
      const before = a.requests.length;
      const result = await runInProcess(args, {
        env: { BLOGCTL_CONFIG_DIR: configDir(), ...env },
        ...(input !== undefined && { input }),
      });
      expect(result.code, result.stderr).toBe(0);
      const sent = a.requests.slice(before).filter((r) => r.method !== 'GET');
      expect(sent).toHaveLength(1);
      const body = JSON.parse(sent[0]!.body) as {
        credentials?: { password?: string };
        settings?: { credentials?: { password?: string } };
      };
      return (body.credentials ?? body.settings?.credentials)?.password;
    }

    const publish = ['wp', 'publish', '--site', 's1', '--title', 'T', '--content', '<p>c</p>'];
    const update = ['wp', 'settings', 'update', '--site', 's1', '--with-credentials'];

    it.each([
      ['wp publish --site', publish],
      ['wp settings update --with-credentials', update],
    ])('%s', async (_name, args) => {
      expect(await sentPassword(args, {})).toBe(STORED_PW);
      expect(await sentPassword(args, { BLOGCTL_WP_PASSWORD: ENV_PW })).toBe(ENV_PW);
      expect(
        await sentPassword([...args, '--password-stdin'], { BLOGCTL_WP_PASSWORD: ENV_PW }, `${STDIN_PW}\n`),
      ).toBe(STDIN_PW);
    });
  },
);
