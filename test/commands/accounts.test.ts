// Accounts, in-process against the sandbox: `auth status` lists every profile and checks the active one,
// `auth switch`, `auth token`, an unknown --profile, `auth logout` removing the whole profile, the confirmation
// of destructive commands (on a fake terminal with a scripted answer, and --yes without one), `-q` as "only
// the identifying value", and the config checks (login without a base URL, default-site, defaults, URLs).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as logoutAction } from '../../src/commands/auth/logout/action.js';
import { completionValues } from '../../src/commands/__complete/action.js';
import type { ActionInput } from '../../src/commands/define.js';
import { action as removeAction } from '../../src/commands/wp/sites/remove/action.js';
import { CancelledError } from '../../src/errors.js';
import { createDeps, type Deps } from '../../src/factory.js';
import { IO } from '../../src/output/io.js';
import type { Prompter } from '../../src/prompts/prompter.js';
import { tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

const WORK_KEY = 'sk_work_0123456789abcdef';
const WRONG_KEY = 'sk_wrong_0123456789abcdef';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox?.close());

/** A config dir with `default` (the sandbox's key) and `work` (a key the sandbox refuses), default active. */
function twoProfiles(extra: Record<string, unknown> = {}): { dir: string; env: Record<string, string> } {
  const dir = tempConfigDir();
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      profiles: { default: { baseUrl: sandbox.url }, work: { baseUrl: sandbox.url } },
      ...extra,
    }),
  );
  writeFileSync(
    join(dir, 'credentials.json'),
    JSON.stringify({ apiKeys: { default: sandbox.apiKey, work: WRONG_KEY } }),
  );
  return { dir, env: { BLOGCTL_CONFIG_DIR: dir } };
}

const files = (dir: string) => ({
  config: readFileSync(join(dir, 'config.json'), 'utf8'),
  credentials: readFileSync(join(dir, 'credentials.json'), 'utf8'),
});

describe('auth status', () => {
  it('lists every profile with its base URL and masked key, marks the active one and checks only it', async () => {
    const { env } = twoProfiles();
    const res = await runInProcess(['auth', 'status'], { env });
    expect(res.code, res.stderr).toBe(0);
    // Piped: stdout holds only the rows; the check of the active profile is the exit code.
    expect(res.stdout.split('\n')).toEqual([
      `default\t${sandbox.url}\t…${sandbox.apiKey.slice(-4)}\tyes`,
      `work\t${sandbox.url}\t…${WRONG_KEY.slice(-4)}\t`,
      '',
    ]);
    expect(res.stderr).toBe('');
    expect(res.stdout).not.toContain(sandbox.apiKey);
    expect(res.stdout).not.toContain(WRONG_KEY);

    const json = await runInProcess(['auth', 'status', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      profile: 'default',
      accepted: true,
      profiles: [
        { name: 'default', baseUrl: sandbox.url, apiKey: `…${sandbox.apiKey.slice(-4)}`, active: true },
        { name: 'work', baseUrl: sandbox.url, apiKey: `…${WRONG_KEY.slice(-4)}`, active: false },
      ],
    });
  });

  it('exit 4 when the service refuses the active profile’s key; -q prints only the active profile’s name', async () => {
    const { env } = twoProfiles({ currentProfile: 'work' });
    const res = await runInProcess(['auth', 'status'], { env });
    expect(res.code).toBe(4);
    expect(res.stdout).toContain('work\t');
    expect(res.stderr.trimEnd().split('\n')).toEqual(['error: the service rejected the key (HTTP 401)']);

    const quiet = await runInProcess(['auth', 'status', '-q'], { env });
    expect(quiet).toMatchObject({ code: 4, stdout: 'work\n' });
    const quietOk = await runInProcess(['--profile', 'default', 'auth', 'status', '-q'], { env });
    expect(quietOk).toMatchObject({ code: 0, stdout: 'default\n' });
  });

  it('lists the profiles that completion offers: `default` on a fresh machine, a key-only one, the current one', async () => {
    const names = async (env: Record<string, string>) => {
      const res = await runInProcess(['auth', 'status', '--json', 'profiles'], { env });
      return JSON.parse(res.stdout).profiles.map((p: { name: string }) => p.name);
    };
    const fresh = { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_SANDBOX: '1' };
    expect(completionValues('profiles', fresh)).toEqual(['default']);
    expect(await names(fresh)).toEqual(['default']);

    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ currentProfile: 'work' }));
    writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ apiKeys: { keyonly: WRONG_KEY } }));
    const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_SANDBOX: '1' };
    expect(completionValues('profiles', env)).toEqual(['default', 'keyonly', 'work']);
    expect(await names(env)).toEqual(completionValues('profiles', env));
  });
});

describe('an unknown --profile', () => {
  it('is exit 5 naming it and the profiles that exist, from the flag and from BLOGCTL_PROFILE; nothing is written', async () => {
    const { dir, env } = twoProfiles();
    const before = files(dir);
    for (const args of [
      ['--profile', 'wrok', 'config', 'set', 'base-url', 'https://api.example.com'],
      ['--profile', 'wrok', 'auth', 'status'],
      ['--profile', 'wrok', 'auth', 'logout', '--yes'],
      ['--profile', 'wrok', 'blog', 'list'],
    ]) {
      const res = await runInProcess(args, { env });
      expect(res.code, args.join(' ')).toBe(5);
      expect(res.stderr).toContain('error: --profile: no account profile "wrok" (profiles: default, work)');
    }
    const fromEnv = await runInProcess(['config', 'get', 'base-url'], {
      env: { ...env, BLOGCTL_PROFILE: 'wrok' },
    });
    expect(fromEnv.code).toBe(5);
    expect(fromEnv.stderr).toContain('BLOGCTL_PROFILE: no account profile "wrok" (profiles: default, work)');
    expect(files(dir)).toEqual(before);
  });

  it('is taken as it is when the environment brings the account (a fresh CI runner): BLOGCTL_API_KEY', async () => {
    const dir = tempConfigDir();
    const env = {
      BLOGCTL_CONFIG_DIR: dir,
      BLOGCTL_PROFILE: 'ci',
      BLOGCTL_BASE_URL: sandbox.url,
      BLOGCTL_API_KEY: sandbox.apiKey,
    };
    const res = await runInProcess(['blog', 'list', '--json', 'id'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(res.stdout))).toBe(true);
    // Without the key in the environment, the same name is refused.
    const { BLOGCTL_API_KEY: _key, ...withoutKey } = env;
    expect((await runInProcess(['blog', 'list'], { env: withoutKey })).code).toBe(5);
  });

  it('is what `help environment` and docs/configuration.md say of BLOGCTL_PROFILE: it must exist, exit 5, auth login makes one', async () => {
    const help = await runInProcess(['help', 'environment']);
    const line = help.stdout.replace(/\s+/g, ' ').match(/BLOGCTL_PROFILE (.*?) BLOGCTL_CONFIG_DIR/)?.[1];
    expect(line).toMatch(
      /must exist, otherwise exit 5 \(auth login creates one\), unless BLOGCTL_API_KEY is set/,
    );
    const readme = readFileSync(join(import.meta.dirname, '../../docs/configuration.md'), 'utf8');
    const row = readme.split('\n').find((l) => l.startsWith('| `BLOGCTL_PROFILE`'));
    expect(row).toMatch(
      /must exist, otherwise exit 5 \(`auth login` creates one\), unless `BLOGCTL_API_KEY` is set/,
    );
  });

  it('is created by auth login', async () => {
    const { dir, env } = twoProfiles();
    const res = await runInProcess(
      ['--profile', 'new', '--base-url', sandbox.url, 'auth', 'login', '--with-key'],
      { env, input: `${sandbox.apiKey}\n` },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(files(dir).config).profiles.new).toEqual({ baseUrl: sandbox.url });
    const status = await runInProcess(['--profile', 'new', 'auth', 'status', '-q'], { env });
    expect(status).toMatchObject({ code: 0, stdout: 'new\n' });
  });
});

describe('auth switch', () => {
  it('makes an existing profile the active one; later commands use it', async () => {
    const { dir, env } = twoProfiles();
    const res = await runInProcess(['auth', 'switch', 'work', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ profile: 'work', previous: 'default' });
    expect(JSON.parse(files(dir).config).currentProfile).toBe('work');
    expect((await runInProcess(['auth', 'status', '-q'], { env })).stdout).toBe('work\n');
  });

  it('refuses an unknown profile (exit 5, naming those that exist) and writes nothing', async () => {
    const { dir, env } = twoProfiles();
    const before = files(dir);
    const res = await runInProcess(['auth', 'switch', 'nope'], { env });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('no account profile "nope" (profiles: default, work)');
    expect(files(dir)).toEqual(before);
  });

  it('warns that BLOGCTL_PROFILE still wins', async () => {
    const { env } = twoProfiles();
    const res = await runInProcess(['auth', 'switch', 'work'], {
      env: { ...env, BLOGCTL_PROFILE: 'default' },
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('BLOGCTL_PROFILE=default is set in the environment and wins');
  });
});

describe('auth token', () => {
  it('prints the active key alone on stdout, nothing on stderr, not even with --debug', async () => {
    const { env } = twoProfiles({ currentProfile: 'work' });
    for (const args of [
      ['auth', 'token'],
      ['--debug', 'auth', 'token'],
      ['auth', 'token', '-q'],
    ]) {
      const res = await runInProcess(args, { env });
      expect(res, args.join(' ')).toMatchObject({ code: 0, stdout: `${WRONG_KEY}\n`, stderr: '' });
    }
    const other = await runInProcess(['--profile', 'default', 'auth', 'token'], { env });
    expect(other.stdout).toBe(`${sandbox.apiKey}\n`);
  });

  it('BLOGCTL_API_KEY is the key in use; no key is exit 4; --json is refused', async () => {
    const { env } = twoProfiles();
    const fromEnv = await runInProcess(['auth', 'token'], { env: { ...env, BLOGCTL_API_KEY: WORK_KEY } });
    expect(fromEnv.stdout).toBe(`${WORK_KEY}\n`);
    const none = await runInProcess(['auth', 'token'], { env: { BLOGCTL_CONFIG_DIR: tempConfigDir() } });
    expect(none).toMatchObject({ code: 4, stdout: '' });
    expect(none.stderr).toContain('no API key for profile "default"');
    const json = await runInProcess(['auth', 'token', '--json'], { env });
    expect(json).toMatchObject({ code: 2, stdout: '' });
    expect(json.stderr).toContain('--json is not accepted');
  });
});

describe('auth logout', () => {
  it('needs --yes without a terminal, naming it, and removes nothing', async () => {
    const { dir, env } = twoProfiles();
    const before = files(dir);
    const res = await runInProcess(['--profile', 'work', 'auth', 'logout'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'error: auth logout needs --yes to remove an account profile without asking (cannot ask: stdin is not a terminal); nothing was removed\n',
    );
    expect(files(dir)).toEqual(before);
  });

  it('with --yes removes the key and the base URL, and the profile is gone', async () => {
    const { dir, env } = twoProfiles({ currentProfile: 'work' });
    const res = await runInProcess(['auth', 'logout', '--yes', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ profile: 'work', removed: true, activeUnset: true });
    const config = JSON.parse(files(dir).config);
    expect(config.profiles).toEqual({ default: { baseUrl: sandbox.url } });
    expect(config.currentProfile).toBeUndefined();
    expect(JSON.parse(files(dir).credentials).apiKeys).toEqual({ default: sandbox.apiKey });
    const status = await runInProcess(['auth', 'status', '--json', 'profiles'], { env });
    expect(JSON.parse(status.stdout).profiles.map((p: { name: string }) => p.name)).toEqual(['default']);
    expect((await runInProcess(['--profile', 'work', 'auth', 'status'], { env })).code).toBe(5);
  });

  it('a profile with nothing stored needs no confirmation', async () => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const res = await runInProcess(['auth', 'logout', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ profile: 'default', removed: false, activeUnset: false });
  });
});

/** IO over in-memory streams that claim to be terminals, so a command may ask. */
function terminal(): { io: IO; stderr(): string } {
  const make = () => Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  const [stdin, stdout, stderr] = [make(), make(), make()];
  let err = '';
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdout.resume();
  return { io: new IO({ stdin, stdout, stderr, env: { NO_COLOR: '1' } }), stderr: () => err };
}

function answering(answer: boolean, asked: string[]): Prompter {
  const fail = () => Promise.reject(new Error('unexpected prompt'));
  return {
    input: fail,
    password: fail,
    select: fail,
    confirm: async (message) => {
      asked.push(message);
      return answer;
    },
  };
}

function depsOn(env: Record<string, string>, answer: boolean, asked: string[], globals = {}): Deps {
  const deps = createDeps({ globals, env, io: terminal().io, signal: new AbortController().signal });
  return { ...deps, prompter: () => answering(answer, asked) };
}

const input = (deps: Deps, opts: object, args: unknown[] = []) =>
  ({ args, opts, globals: deps.globals, deps }) as unknown as ActionInput<never, never>;

describe('destructive commands ask on a terminal', () => {
  it('auth logout: "no" cancels (exit 3) and keeps the profile; "yes" removes it', async () => {
    const { dir, env } = twoProfiles();
    const before = files(dir);
    const asked: string[] = [];
    const declined = await logoutAction(input(depsOn(env, false, asked, { profile: 'work' }), {})).catch(
      (e: unknown) => e,
    );
    expect(declined).toBeInstanceOf(CancelledError);
    expect((declined as CancelledError).exitCode).toBe(3);
    expect(asked).toEqual([`Log out of "work", removing it (key …${WRONG_KEY.slice(-4)}, ${sandbox.url})?`]);
    expect(files(dir)).toEqual(before);

    await logoutAction(input(depsOn(env, true, asked, { profile: 'work' }), {}));
    expect(JSON.parse(files(dir).config).profiles.work).toBeUndefined();
  });

  it('wp sites remove: "no" cancels (exit 3) and keeps the site; "yes" removes it', async () => {
    const { dir, env } = twoProfiles({
      sites: { blog: { url: 'https://blog.example.com', username: 'ed' } },
    });
    const asked: string[] = [];
    const declined = await removeAction(input(depsOn(env, false, asked), {}, ['blog'])).catch(
      (e: unknown) => e,
    );
    expect(declined).toBeInstanceOf(CancelledError);
    expect(asked).toEqual([
      'Remove WordPress site "blog" (https://blog.example.com, user ed) and its stored Application Password?',
    ]);
    expect(JSON.parse(files(dir).config).sites.blog).toBeDefined();
    await removeAction(input(depsOn(env, true, asked), {}, ['blog']));
    expect(JSON.parse(files(dir).config).sites).toEqual({});
  });
});

describe('-q: only the identifying value', () => {
  it('wp sites list/show, config list, wp settings update, blog show', async () => {
    const { env } = twoProfiles({
      sites: {
        a: { url: 'https://a.example.com', username: 'ed' },
        b: { url: 'https://b.example.com', username: 'ed' },
      },
    });
    expect((await runInProcess(['wp', 'sites', 'list', '-q'], { env })).stdout).toBe('a\nb\n');
    expect((await runInProcess(['wp', 'sites', 'show', 'b', '-q'], { env })).stdout).toBe('b\n');
    expect((await runInProcess(['config', 'list', '-q'], { env })).stdout).toBe(
      'base-url\ntimeout\nconnect-timeout\ncreate-timeout\nretries\nconcurrency\ndefault-site\n',
    );
    const update = await runInProcess(['wp', 'settings', 'update', '--site', 'b', '--label', 'B', '-q'], {
      env: { ...env, BLOGCTL_WP_PASSWORD: 'pass word 1234' },
    });
    expect(update, update.stderr).toMatchObject({ code: 0, stdout: 'b\n' });
    const blog = await sandbox.api().createBlog(blogParamsFor());
    const show = await runInProcess(['blog', 'show', blog._id, '-q'], { env });
    expect(show).toMatchObject({ code: 0, stdout: `${blog._id}\n` });
  });
});

describe('config that tells the truth', () => {
  it('auth login --with-key without a base URL fails naming --base-url and --no-verify, storing nothing', async () => {
    const dir = tempConfigDir();
    const res = await runInProcess(['auth', 'login', '--with-key'], {
      env: { BLOGCTL_CONFIG_DIR: dir },
      input: `${WORK_KEY}\n`,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('pass --base-url <url>, or --no-verify to store the key unchecked');
    expect(() => readFileSync(join(dir, 'credentials.json'))).toThrow();

    const unchecked = await runInProcess(['auth', 'login', '--with-key', '--no-verify'], {
      env: { BLOGCTL_CONFIG_DIR: dir },
      input: `${WORK_KEY}\n`,
    });
    expect(unchecked.code, unchecked.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).apiKeys).toEqual({
      default: WORK_KEY,
    });
  });

  it('config set default-site refuses a site that does not exist (exit 5, naming those that do)', async () => {
    const { dir, env } = twoProfiles({
      sites: { blog: { url: 'https://blog.example.com', username: 'ed' } },
    });
    const res = await runInProcess(['config', 'set', 'default-site', 'blgo'], { env });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('default-site: no WordPress site profile "blgo" (sites: blog)');
    expect(JSON.parse(files(dir).config).settings).toBeUndefined();
    expect((await runInProcess(['config', 'set', 'default-site', 'blog'], { env })).code).toBe(0);
    expect(JSON.parse(files(dir).config).settings).toEqual({ 'default-site': 'blog' });
  });

  it('config get of an unset key prints its default, and says so on stderr', async () => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    expect(await runInProcess(['config', 'get', 'timeout'], { env })).toMatchObject({
      code: 0,
      stdout: '60\n',
      stderr: '(timeout is not set: 60 is the default)\n',
    });
    const json = await runInProcess(['config', 'get', 'retries', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ key: 'retries', value: 3, default: true });
    await runInProcess(['config', 'set', 'retries', '5'], { env });
    const set = await runInProcess(['config', 'get', 'retries', '--json'], { env });
    expect(JSON.parse(set.stdout)).toEqual({ key: 'retries', value: 5, default: false });
    // Nothing stands in for an unset base URL.
    expect((await runInProcess(['config', 'get', 'base-url'], { env })).code).toBe(2);
    const list = await runInProcess(['config', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toMatchObject({
      settings: { retries: 5, timeout: null },
      defaults: { retries: 3, timeout: 60 },
    });
  });

  it.each([
    ['http://127.0.0.1:', 'empty port'],
    ['https://blog.example.com:', 'empty port'],
    ['http:blog.example.com', 'expected http://<host>'],
    ['http:///blog.example.com', 'no host'],
    ['ftp://blog.example.com', 'must be an http(s) URL'],
    ['https://blog.example.com/?p=1', 'must not have a query or a fragment'],
  ])('wp sites add --url %s is refused (exit 2 naming --url): %s', async (url, why) => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const res = await runInProcess(
      ['wp', 'sites', 'add', 'x', '--url', url, '--username', 'ed', '--password-stdin'],
      { env, input: 'pass word\n' },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`^error: --url: .*${why.replace(/[()]/g, '\\$&')}`));
    const base = await runInProcess(['config', 'set', 'base-url', url], { env });
    expect(base.code).toBe(2);
    expect(base.stderr).toMatch(/^error: base-url: /);
    const flag = await runInProcess(['--base-url', url, 'auth', 'status'], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^error: --base-url: /);
  });

  // The parser reads a password holding '/' or '?' as a port, a path or a query: none of it may be echoed.
  it.each([
    'https://admin:S3cret@blog.example.com/?p=1',
    'https://admin:S3cret@blog.example.com:',
    'http:admin:S3cret@blog.example.com',
    'https://admin:S3c/ret@blog.example.com',
    'https://admin:12?S3cret@blog.example.com',
    'admin:S3cret@blog.example.com',
  ])('a URL with a username and password (%s) is refused first, quoting nothing of it', async (url) => {
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir };
    const refusals = [
      [
        await runInProcess(
          ['wp', 'sites', 'add', 'x', '--url', url, '--username', 'ed', '--password-stdin'],
          { env, input: 'pass word\n' },
        ),
        '--url',
        'put the username in --username and the password on stdin',
      ],
      [await runInProcess(['config', 'set', 'base-url', url], { env }), 'base-url', 'API key'],
      [await runInProcess(['--base-url', url, 'auth', 'status'], { env }), '--base-url', 'API key'],
      [
        await runInProcess(['auth', 'status'], { env: { ...env, BLOGCTL_BASE_URL: url } }),
        'BLOGCTL_BASE_URL',
        'API key',
      ],
    ] as const;
    for (const [res, name, hint] of refusals) {
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(new RegExp(`^error: ${name}: must not contain a username or password`));
      expect(res.stderr).toContain(hint);
      for (const part of ['S3cret', 'S3c', 'ret@', 'admin']) {
        expect(res.stdout + res.stderr).not.toContain(part);
      }
    }
    // Nothing was stored.
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([]);
  });

  it('a refused query is shown cut off, with nothing after the "?"', async () => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const res = await runInProcess(['--base-url', 'https://api.example.com/?token=T0ken', 'auth', 'status'], {
      env,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'error: --base-url: must not have a query or a fragment: "https://api.example.com/?…"\n',
    );
  });
});
