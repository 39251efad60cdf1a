// Run tests: the real command tree in-process (cli.run) with captured IO, against the sandbox on port 0 and
// a fake WordPress. Checks the options commander hands over (negatable flags left undefined), what the
// service stored, and the run functions' behaviour without a terminal.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { IO } from '../../src/output/io.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const PASSWORD = 'wp-app-pass 1111 2222';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string>, input = ''): Promise<Ran> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end(input);
  const io = new IO({ stdin, stdout, stderr, env, noInput: args.includes('--no-input') });
  const code = await run(['node', 'blogctl', ...args], { env, io });
  return { code, stdout: out, stderr: err };
}

let sandbox: TestSandbox;
let wp: FakeWordPress;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  wp = await startFakeWordPress();
});
afterAll(async () => {
  await sandbox.close();
  await wp.close();
});

function freshEnv(): Record<string, string> {
  env = {
    BLOGCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'blogctl-wp-cmd-')),
    BLOGCTL_BASE_URL: sandbox.url,
    BLOGCTL_API_KEY: sandbox.apiKey,
  };
  return env;
}

describe('wp sites (in-process)', () => {
  it('adds, lists, shows and removes a profile; the password lives only in credentials.json', async () => {
    freshEnv();
    const add = await cli(
      [
        'wp',
        'sites',
        'add',
        'one',
        '--url',
        'https://one.test/',
        '--username',
        'ann',
        '--label',
        'One',
        '--password-stdin',
        '--no-verify',
        '--json',
      ],
      env,
      `${PASSWORD}\n`,
    );
    expect(add).toMatchObject({ code: 0 });
    expect(JSON.parse(add.stdout)).toEqual({
      id: 'one',
      url: 'https://one.test',
      username: 'ann',
      label: 'One',
      autoPublish: false,
      isIntegrated: null,
      isWebsiteValid: null,
      verifiedAt: null,
      password: 'stored',
      default: false,
    });
    const config = readFileSync(join(env['BLOGCTL_CONFIG_DIR']!, 'config.json'), 'utf8');
    expect(config).not.toContain('wp-app-pass');
    expect(
      JSON.parse(readFileSync(join(env['BLOGCTL_CONFIG_DIR']!, 'credentials.json'), 'utf8')).sitePasswords,
    ).toEqual({ one: PASSWORD });

    const list = await cli(['wp', 'sites', 'list'], env);
    expect(list.stdout).toBe('one\thttps://one.test\tann\tOne\tno\tstored\n');
    const show = await cli(['wp', 'sites', 'show', 'one'], env);
    expect(show.stdout).toContain('password:      stored');

    // The stored Application Password may exist nowhere else: without a terminal, removing it takes --yes.
    const unasked = await cli(['wp', 'sites', 'remove', 'one'], env);
    expect(unasked).toMatchObject({ code: 2, stdout: '' });
    expect(unasked.stderr).toBe(
      'error: wp sites remove needs --yes to remove a site profile and its stored password without asking (cannot ask: stdin is not a terminal); nothing was removed\n',
    );
    expect((await cli(['wp', 'sites', 'remove', 'one', '--yes'], env)).code).toBe(0);
    expect((await cli(['wp', 'sites', 'list', '--json'], env)).stdout.trim()).toBe('[]');
    expect((await cli(['wp', 'sites', 'remove', 'one', '--yes'], env)).code).toBe(5);
  });

  it('refuses a missing url/username and a missing password without a terminal (exit 2)', async () => {
    freshEnv();
    const noUrl = await cli(['wp', 'sites', 'add', 'x', '--username', 'u'], env, PASSWORD);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--url');
    const noPassword = await cli(
      ['wp', 'sites', 'add', 'x', '--url', 'https://x.test', '--username', 'u'],
      env,
    );
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toMatch(/--password-stdin.*BLOGCTL_WP_PASSWORD/);
    expect(
      (
        await cli(
          ['wp', 'sites', 'add', 'x', '--url', 'ftp://x.test', '--username', 'u', '--password-stdin'],
          env,
          PASSWORD,
        )
      ).code,
    ).toBe(2);
    expect(
      (
        await cli(
          ['wp', 'sites', 'add', '-bad', '--url', 'https://x.test', '--username', 'u', '--password-stdin'],
          env,
          PASSWORD,
        )
      ).code,
    ).toBe(2);
  });
});

describe('wp settings update (in-process)', () => {
  it('sends only the flags given; a negatable flag not given is not sent', async () => {
    freshEnv();
    const dry = await cli(['wp', 'settings', 'update', '--site', 's1', '--label', 'L', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ settings: { id: 's1', label: 'L' } });

    const off = await cli(
      [
        'wp',
        'settings',
        'update',
        '--site',
        's1',
        '--no-integrated',
        '--website-valid',
        '--no-auto-publish',
        '--dry-run',
      ],
      env,
    );
    expect(JSON.parse(off.stdout)).toEqual({
      settings: { id: 's1', isIntegrated: false, isWebsiteValid: true, autoPublish: false },
    });
  });

  it('merges -f with flags (flags win) and the sandbox applies it', async () => {
    freshEnv();
    const file = join(env['BLOGCTL_CONFIG_DIR']!, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        settings: {
          id: 'cmd-f',
          label: 'From file',
          isIntegrated: true,
          credentials: { username: 'fileuser' },
        },
      }),
    );
    const res = await cli(
      ['wp', 'settings', 'update', '-f', file, '--label', 'From flag', '--url', 'https://f.test', '--json'],
      env,
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      success: true,
      integration: {
        id: 'cmd-f',
        label: 'From flag',
        isIntegrated: true,
        credentials: { websiteUrl: 'https://f.test', username: 'fileuser' },
      },
    });
  });

  it('refuses an empty update and a wrongly typed file value, naming it (exit 2)', async () => {
    freshEnv();
    const empty = await cli(['wp', 'settings', 'update', '--site', 's1'], env);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('nothing to update');
    const file = join(env['BLOGCTL_CONFIG_DIR']!, 'bad.json');
    writeFileSync(file, JSON.stringify({ isIntegrated: 'yes' }));
    const bad = await cli(['wp', 'settings', 'update', '-f', file], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('settings.isIntegrated: expected boolean, got string');
  });
});

describe('wp publish (in-process)', () => {
  it('publishes through the sandbox to the fake WordPress, with every flag mapped', async () => {
    freshEnv();
    // Ids are checked on the site (WordPress drops unknown ones silently): these exist.
    wp.terms.categories.push({ id: 903, name: 'Three', slug: 'three', parent: 0 });
    wp.terms.tags.push(
      { id: 904, name: 'Four', slug: 'four', parent: 0 },
      { id: 905, name: 'Five', slug: 'five', parent: 0 },
    );
    const before = wp.requests.length;
    const res = await cli(
      [
        'wp',
        'publish',
        '--url',
        wp.url,
        '--username',
        wp.username,
        '--password-stdin',
        '--title',
        'All flags',
        '--content',
        '<p>x</p>',
        '--status',
        'publish',
        '--slug',
        'all-flags',
        '--excerpt',
        'ex',
        '--author',
        '1',
        '--featured-media',
        '0',
        '--comment-status',
        'closed',
        '--ping-status',
        'open',
        '--format',
        'aside',
        '--meta',
        'views=5',
        '--meta',
        'name=x',
        '--no-sticky',
        '--template',
        't.php',
        '--category',
        '903',
        '--tag',
        '904,905',
        '--post-password',
        'pp',
        '--date',
        '2026-01-01T10:00:00+01:00',
        '--json',
      ],
      env,
      `${wp.password}\n`,
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as object[])[0]).toMatchObject({
      action: 'created',
      published: true,
      status: 'publish',
      type: 'post',
      link: `${wp.url}/all-flags/`,
    });
    const sent = wp.requests.slice(before).find((r) => r.method === 'POST');
    // Ids only: one include= lookup per taxonomy, no listing. The date travels as UTC date_gmt, never as `date`.
    expect(
      wp.requests
        .slice(before)
        .filter((r) => /wp\/v2\/(categories|tags|media)/.test(decodeURIComponent(r.url)))
        .map((r) => `${r.method} ${new URL(r.url, wp.url).searchParams.get('include')}`),
    ).toEqual(['GET 903', 'GET 904,905']);
    // --slug names the post on the site: its content carries blogctl's marker for that source.
    expect(JSON.parse(sent!.body)).toEqual({
      title: 'All flags',
      content: expect.stringMatching(
        /^<p>x<!-- blogctl:v1 ns=[0-9a-f]{16} key=[0-9a-f]{24} sums=\S+ --><\/p>$/,
      ),
      status: 'publish',
      slug: 'all-flags',
      excerpt: 'ex',
      author: 1,
      featured_media: 0,
      comment_status: 'closed',
      ping_status: 'open',
      format: 'aside',
      meta: { views: 5, name: 'x' },
      sticky: false,
      template: 't.php',
      categories: [903],
      tags: [904, 905],
      password: 'pp',
      date_gmt: '2026-01-01T09:00:00',
    });
  });

  it('refuses before sending: --sticky with --post-password, --date with --date-gmt, future without a date', async () => {
    freshEnv();
    const before = wp.requests.length;
    const base = ['wp', 'publish', '--url', wp.url, '--username', 'u', '--title', 't', '--content', 'c'];
    const sticky = await cli([...base, '--sticky', '--post-password', 'pp'], env);
    expect(sticky.code).toBe(2);
    expect(sticky.stderr).toContain('--sticky and --post-password cannot go together');
    const both = await cli([...base, '--date', '2026-01-01T10:00', '--date-gmt', '2026-01-01T09:00'], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --date or --date-gmt, not both');
    const future = await cli([...base, '--status', 'future'], env);
    expect(future.code).toBe(2);
    expect(future.stderr).toContain('--status future needs --date');
    expect(future.stderr).toContain('--allow-immediate');
    expect(wp.requests.length).toBe(before);
  });

  it('refuses --site together with --url (exit 2) and an unknown site (exit 5)', async () => {
    freshEnv();
    expect(
      (await cli(['wp', 'publish', '--site', 'a', '--url', wp.url, '--title', 't', '--content', 'c'], env))
        .code,
    ).toBe(2);
    const unknown = await cli(['wp', 'publish', '--site', 'nope', '--title', 't', '--content', 'c'], env);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('no WordPress site profile "nope"');
  });

  it('refuses two inputs on stdin (exit 2)', async () => {
    freshEnv();
    const res = await cli(
      [
        'wp',
        'publish',
        '--url',
        wp.url,
        '--username',
        'u',
        '--password-stdin',
        '--title',
        't',
        '--content-file',
        '-',
      ],
      env,
      'x',
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('only one input can read stdin');
  });
});
