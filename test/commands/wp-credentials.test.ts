// Credentials WordPress refuses, in-process against the sandbox and a fake WordPress that answers as the real
// one does (a wrong Application Password is served as anonymous: 401 where a route needs a user, 400
// "Invalid parameter(s): status" where an anonymous caller asks for drafts): `wp sites add` checks them
// before storing anything, `wp sites set-password` replaces them, and every refusal is exit 4 with the
// causes a person can check.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, unusedLocalUrl, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

const WRONG = 'aaaa bbbb cccc dddd eeee ffff';

let sandbox: TestSandbox;
let wp: FakeWordPress;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close()]);
});

function setup(extraEnv: Record<string, string> = {}): {
  dir: string;
  run: (args: string[], input?: string) => Promise<CliResult>;
} {
  const dir = tempConfigDir();
  const env = {
    BLOGCTL_CONFIG_DIR: dir,
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
    ...extraEnv,
  };
  return {
    dir,
    run: (args, input) => runInProcess(args, { env, ...(input !== undefined && { input }) }),
  };
}

const addArgs = (id: string, ...extra: string[]): string[] => [
  'wp',
  'sites',
  'add',
  id,
  '--url',
  wp.url,
  '--username',
  wp.username,
  '--password-stdin',
  ...extra,
];

const storedPasswords = (dir: string): Record<string, string> =>
  (
    JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as {
      sitePasswords?: Record<string, string>;
    }
  ).sitePasswords ?? {};

const CAUSE = 'the Application Password is wrong or was revoked';

describe('wp sites add checks the credentials with the site', () => {
  it('a wrong Application Password: exit 4 with the causes, nothing stored', async () => {
    const { run } = setup();
    const res = await run(addArgs('blog'), `${WRONG}\n`);
    expect(res.code, res.stderr).toBe(4);
    expect(res.stderr).toContain('WordPress site "blog" not added');
    expect(res.stderr).toContain(CAUSE);
    expect(res.stdout).toBe('');
    const list = await run(['wp', 'sites', 'list', '--json', 'id']);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('the right one: added and recorded as a valid site', async () => {
    const { run } = setup();
    const res = await run(addArgs('blog', '--json', 'isWebsiteValid,verifiedAt'), `${wp.password}\n`);
    expect(res.code, res.stderr).toBe(0);
    const view = JSON.parse(res.stdout) as { isWebsiteValid: boolean; verifiedAt: string };
    expect(view.isWebsiteValid).toBe(true);
    expect(Date.parse(view.verifiedAt)).not.toBeNaN();
  });

  it('--no-verify stores it without asking the site', async () => {
    const { run, dir } = setup();
    const before = wp.requests.length;
    const res = await run(addArgs('blog', '--no-verify'), `${WRONG}\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(wp.requests.length).toBe(before);
    expect(storedPasswords(dir)['blog']).toBe(WRONG);
  });

  it('a site that cannot be reached: exit 7, nothing stored, and --no-verify named', async () => {
    const { run } = setup();
    const url = await unusedLocalUrl();
    const res = await run(
      ['wp', 'sites', 'add', 'gone', '--url', url, '--username', 'u', '--password-stdin', '--retries', '0'],
      `${WRONG}\n`,
    );
    expect(res.code, res.stderr).toBe(7);
    expect(res.stderr).toContain('--no-verify');
    const list = await run(['wp', 'sites', 'list', '--json', 'id']);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });
});

describe('a refused password on publish is exit 4 with the hints, and set-password mends it', () => {
  it('publish with a wrong stored password: exit 4 before anything is sent, then set-password', async () => {
    const { run, dir } = setup();
    expect((await run(addArgs('blog', '--no-verify', '--label', 'Mine'), `${WRONG}\n`)).code).toBe(0);
    const post = join(dir, 'post.md');
    writeFileSync(post, '---\nkey: hello\n---\n# Hello\n\nBody.\n');

    const refused = await run(['wp', 'publish', '--site', 'blog', post]);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toContain('HTTP 401');
    expect(refused.stderr).toContain(CAUSE);
    expect(refused.stderr).toContain('blogctl wp sites set-password');
    expect(wp.posts.filter((p) => p.title === 'Hello')).toEqual([]);

    // A password the site refuses replaces nothing.
    const wrongAgain = await run(['wp', 'sites', 'set-password', 'blog', '--password-stdin'], 'nope\n');
    expect(wrongAgain.code, wrongAgain.stderr).toBe(4);
    expect(wrongAgain.stderr).toContain('password not changed');
    expect(storedPasswords(dir)['blog']).toBe(WRONG);

    const set = await run(
      ['wp', 'sites', 'set-password', 'blog', '--password-stdin', '--json', 'id,label,isWebsiteValid'],
      `${wp.password}\n`,
    );
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ id: 'blog', label: 'Mine', isWebsiteValid: true });
    expect(storedPasswords(dir)['blog']).toBe(wp.password);

    const published = await run(['wp', 'publish', '--site', 'blog', post, '--json']);
    expect(published.code, published.stderr).toBe(0);
  });

  it("an untracked file the service relays: WordPress's refusal is exit 4 with the same hints", async () => {
    const { run, dir } = setup();
    expect((await run(addArgs('blog', '--no-verify'), `${WRONG}\n`)).code).toBe(0);
    // No key, no project, no git work tree: nothing to look up, so the refusal comes back through the service.
    const post = join(dir, 'untracked.md');
    writeFileSync(post, '# Untracked\n\nBody.\n');
    const refused = await run(['wp', 'publish', '--site', 'blog', post]);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toContain('blogctl wp sites verify');
    expect(refused.stderr).toContain('blogctl wp sites set-password');
    expect(wp.posts.filter((p) => p.title === 'Untracked')).toEqual([]);
  });

  it('set-password from BLOGCTL_WP_PASSWORD, --no-verify; an unknown id is exit 5 before any password', async () => {
    const { run, dir } = setup();
    expect((await run(addArgs('blog'), `${wp.password}\n`)).code).toBe(0);
    const { run: runEnv } = {
      run: (args: string[]) =>
        runInProcess(args, {
          env: {
            BLOGCTL_CONFIG_DIR: dir,
            BLOGCTL_BASE_URL: sandbox.url,
            BLOGCTL_API_KEY: sandbox.apiKey,
            BLOGCTL_WP_PASSWORD: 'from-env 1234',
          },
        }),
    };
    const set = await runEnv(['wp', 'sites', 'set-password', 'blog', '--no-verify']);
    expect(set.code, set.stderr).toBe(0);
    expect(storedPasswords(dir)['blog']).toBe('from-env 1234');
    const shown = await run(['wp', 'sites', 'show', 'blog', '--json', 'isWebsiteValid,verifiedAt']);
    // The last verdict was for another password.
    expect(JSON.parse(shown.stdout)).toEqual({ isWebsiteValid: null, verifiedAt: null });

    const unknown = await run(['wp', 'sites', 'set-password', 'ghost', '--no-input']);
    expect(unknown.code, unknown.stderr).toBe(5);
    const missing = await run(['wp', 'sites', 'set-password', 'blog', '--no-input']);
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('--password-stdin');
  });
});

describe('choosing the site', () => {
  it('wp sites verify without an id verifies the default site; BLOGCTL_SITE overrides default-site', async () => {
    const { run, dir } = setup();
    expect((await run(addArgs('one'), `${wp.password}\n`)).code).toBe(0);
    expect((await run(addArgs('two', '--no-verify'), `${WRONG}\n`)).code).toBe(0);

    const none = await run(['wp', 'sites', 'verify']);
    expect(none.code, none.stderr).toBe(2);
    expect(none.stderr).toContain('default-site');

    expect((await run(['config', 'set', 'default-site', 'one'])).code).toBe(0);
    const viaConfig = await run(['wp', 'sites', 'verify', '-q']);
    expect(viaConfig.code, viaConfig.stderr).toBe(0);
    expect(viaConfig.stdout).toBe('one\n');

    const { run: runEnv } = setup({ BLOGCTL_CONFIG_DIR: dir, BLOGCTL_SITE: 'two' });
    const viaEnv = await runEnv(['wp', 'sites', 'verify', '-q']);
    expect(viaEnv.code, viaEnv.stderr).toBe(4);
    expect(viaEnv.stderr).toContain('blogctl wp sites set-password two');

    const { run: runGhost } = setup({ BLOGCTL_CONFIG_DIR: dir, BLOGCTL_SITE: 'ghost' });
    const ghost = await runGhost(['wp', 'publish', '--title', 'T', '--content', 'x']);
    expect(ghost.code, ghost.stderr).toBe(5);
    expect(ghost.stderr).toContain('"ghost"');
  });

  it('--site twice is refused (exit 2) before anything is sent', async () => {
    const { run } = setup();
    const before = wp.requests.length;
    const res = await run(['wp', 'publish', '--site', 'a', '--site', 'b', '--title', 'T', '--content', 'x']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--site given twice');
    expect(wp.requests.length).toBe(before);
  });
});
