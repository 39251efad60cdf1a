// A post's password (a password-protected post) is a secret like the API key and the Application Password:
// it can come from argv, the first line of stdin (--post-password-stdin) or the environment
// (BLOGCTL_POST_PASSWORD), and no output shows it, in any mode, whole or cut short. In-process against the
// sandbox relaying to a fake WordPress.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePostPassword } from '../../src/commands/common/post-password.js';
import { redact } from '../../src/output/redact.js';
import { createFlags, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

// Distinct per test, so that one registered by an earlier run never hides a leak of a later one.
const PASSWORDS = {
  stdin: 'pp-stdin-Qv7Lx2Rk9',
  env: 'pp-env-Hs4Wd8Mn3',
  flag: 'pp-flag-Zt6Jc1Bf5',
  create: 'pp-create-Ny2Gp7Ue4',
  frontMatter: 'pp-file-Ka9Xo3Vd6',
};

let sandbox: TestSandbox;
let wp: FakeWordPress;
let env: Record<string, string>;
let dir: string;
const outputs: CliResult[] = [];

beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  env = {
    BLOGCTL_CONFIG_DIR: tempConfigDir(),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
  };
  dir = mkdtempSync(join(tmpdir(), 'blogctl-post-password-'));
  const added = await blogctl(
    ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    { input: `${wp.password}\n` },
  );
  expect(added.code, added.stderr).toBe(0);
});
afterAll(async () => {
  // Nothing any run printed holds a post password, nor a piece of one long enough to matter.
  for (const r of outputs)
    for (const password of Object.values(PASSWORDS))
      for (const text of [r.stdout, r.stderr]) {
        expect(text).not.toContain(password);
        expect(text).not.toContain(password.slice(0, 10));
        expect(text).not.toContain(password.slice(-10));
      }
  await Promise.all([sandbox?.close(), wp?.close()]);
});

async function blogctl(
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const result = await runInProcess(args, {
    env: { ...env, ...options.env },
    ...(options.input !== undefined && { input: options.input }),
  });
  outputs.push(result);
  return result;
}

const lastPost = () => wp.posts.at(-1)!;

describe('a post password from stdin or the environment', () => {
  it('--post-password-stdin: the first line of stdin, never printed (plain, --json, --debug)', async () => {
    for (const mode of [[], ['--json'], ['--debug']]) {
      const res = await blogctl(
        [
          'wp',
          'publish',
          '--site',
          'blog',
          '--title',
          `Locked ${mode.join('')}`,
          '--content',
          '<p>x</p>',
        ].concat('--post-password-stdin', mode),
        { input: `${PASSWORDS.stdin}\nignored second line\n` },
      );
      expect(res.code, res.stderr).toBe(0);
      expect(lastPost()['password']).toBe(PASSWORDS.stdin);
    }
  });

  it('BLOGCTL_POST_PASSWORD when no flag gives one; the flag wins over it', async () => {
    const byEnv = await blogctl(
      ['wp', 'publish', '--site', 'blog', '--title', 'Env locked', '--content', '<p>x</p>', '--json'],
      { env: { BLOGCTL_POST_PASSWORD: PASSWORDS.env } },
    );
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(lastPost()['password']).toBe(PASSWORDS.env);

    const byFlag = await blogctl(
      ['wp', 'publish', '--site', 'blog', '--title', 'Flag locked', '--content', '<p>x</p>'].concat(
        '--post-password',
        PASSWORDS.flag,
        '--debug',
      ),
      { env: { BLOGCTL_POST_PASSWORD: PASSWORDS.env } },
    );
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(lastPost()['password']).toBe(PASSWORDS.flag);
  });

  it('a dry run and an error that names the password name where it came from, not the password', async () => {
    const dry = await blogctl(
      ['wp', 'publish', '--site', 'blog', '--title', 'Dry', '--content', '<p>x</p>', '--dry-run', '--json'],
      { env: { BLOGCTL_POST_PASSWORD: PASSWORDS.env } },
    );
    expect(dry.code, dry.stderr).toBe(0);

    const sticky = await blogctl(
      ['wp', 'publish', '--site', 'blog', '--title', 'Sticky', '--content', '<p>x</p>', '--sticky', '--json'],
      { env: { BLOGCTL_POST_PASSWORD: PASSWORDS.env } },
    );
    expect(sticky.code).toBe(2);
    expect(sticky.stderr).toMatch(/^error: --sticky and BLOGCTL_POST_PASSWORD cannot go together/);
  });

  it("front matter's password is a secret too", async () => {
    const file = join(dir, 'locked.md');
    writeFileSync(file, `---\npassword: ${PASSWORDS.frontMatter}\n---\n# From a file\n\nBody.\n`);
    for (const mode of [
      ['--dry-run', '--json'],
      ['--json', '--debug'],
    ]) {
      const res = await blogctl(['wp', 'publish', '--site', 'blog', file, ...mode]);
      expect(res.code, res.stderr).toBe(0);
    }
    expect(lastPost()['password']).toBe(PASSWORDS.frontMatter);
  });

  it('refuses two ways at once, and a second reader of stdin, before anything is sent', async () => {
    const sent = wp.requests.length;
    const both = await blogctl(
      ['wp', 'publish', '--site', 'blog', '--title', 'T', '--content', '<p>x</p>'].concat(
        '--post-password',
        'abcd1234',
        '--post-password-stdin',
      ),
      { input: 'other\n' },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /^error: --post-password and --post-password-stdin: give the post password one way/,
    );
    const twoReaders = await blogctl(
      ['wp', 'publish', '--site', 'blog', '--title', 'T', '--content-file', '-', '--post-password-stdin'],
      { input: 'x\n' },
    );
    expect(twoReaders.code).toBe(2);
    expect(twoReaders.stderr).toMatch(/only one input can read stdin/);
    const empty = await blogctl(
      ['wp', 'publish', '--site', 'blog', '--title', 'T', '--content', '<p>x</p>', '--post-password-stdin'],
      { input: '\n' },
    );
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^error: --post-password-stdin: no password on the first line of stdin/);
    expect(wp.requests.slice(sent).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('blog create --publish --post-password-stdin; a --save file never keeps it', async () => {
    const save = join(dir, 'created.md');
    const res = await blogctl(
      ['blog', 'create', ...createFlags('locked espresso'), '--publish', 'blog'].concat(
        '--post-password-stdin',
        '--save',
        save,
        '--json',
      ),
      { input: `${PASSWORDS.create}\n` },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(lastPost()['password']).toBe(PASSWORDS.create);
    expect(readFileSync(save, 'utf8')).not.toContain(PASSWORDS.create);
    const without = await blogctl(['blog', 'create', ...createFlags(), '--post-password-stdin'], {
      input: 'abcd1234\n',
    });
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/^error: --post-password-stdin applies only with --publish/);
  });
});

describe('redaction of a post password once read', () => {
  it('hides it whole and cut short', async () => {
    const password = 'pp-unit-Wq5Rt8Yp2';
    const found = await resolvePostPassword(
      {},
      {
        env: { BLOGCTL_POST_PASSWORD: password },
        readStdin: () => Promise.reject(new Error('not read')),
      },
    );
    expect(found).toEqual({ password, from: 'BLOGCTL_POST_PASSWORD' });
    expect(redact(`password ${password} set`)).toBe('password *** set');
    expect(redact(`password ${password.slice(0, 9)}… set`)).not.toContain(password.slice(0, 9));
    expect(redact(`…${password.slice(-8)} set`)).not.toContain(password.slice(-8));
  });
});
