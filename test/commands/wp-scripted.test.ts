// `wp sites`, `wp settings` and `wp publish` the way a script or cron job runs them (no terminal, secrets from
// stdin and the environment), the command tree in-process, against the sandbox on port 0 relaying to a fake
// WordPress. Every stdout/stderr is kept and searched for the
// Application Passwords at the end.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripMarker } from '../../src/publishing/identity.js';
import { tempConfigDir, type CliOptions, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

const WRONG_PASSWORD = 'wrong-pass ZZZZ 9999';
let typed: TestSandbox;
let alt: TestSandbox;
let wp: FakeWordPress;
const outputs: CliResult[] = [];

beforeAll(async () => {
  [typed, alt, wp] = await Promise.all([
    startTestSandbox(),
    startTestSandbox({ publishShape: 'alt' }),
    startFakeWordPress(),
  ]);
});
afterAll(async () => {
  await Promise.all([typed.close(), alt.close(), wp.close()]);
});

/** A fresh config dir pointed at a sandbox. */
function setup(sandbox: TestSandbox = typed): { dir: string; env: Record<string, string> } {
  const dir = tempConfigDir();
  return {
    dir,
    env: { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: sandbox.apiKey },
  };
}

async function blogctl(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await runInProcess(args, options);
  outputs.push(result);
  return result;
}

async function addSite(env: Record<string, string>, id: string, password = wp.password): Promise<void> {
  const res = await blogctl(
    ['wp', 'sites', 'add', id, '--url', wp.url, '--username', wp.username, '--password-stdin', '--no-verify'],
    { env, input: `${password}\n` },
  );
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
}

const posts = (): Record<string, unknown>[] =>
  wp.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('wp sites', () => {
  it('add --password-stdin: 0600 files, password only in credentials.json, never printed', async () => {
    const { dir, env } = setup();
    await addSite(env, 'blog');
    for (const f of ['config.json', 'credentials.json'])
      expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    const config = readFileSync(join(dir, 'config.json'), 'utf8');
    expect(JSON.parse(config).sites.blog).toEqual({ url: wp.url, username: wp.username });
    expect(config).not.toContain(wp.password);
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).sitePasswords.blog).toBe(
      wp.password,
    );

    const list = await blogctl(['wp', 'sites', 'list'], { env });
    expect(list.stdout).toBe(`blog\t${wp.url}\t${wp.username}\t\tno\tstored\n`);
    const json = await blogctl(['wp', 'sites', 'list', '--json', 'id,password'], { env });
    expect(JSON.parse(json.stdout)).toEqual([{ id: 'blog', password: 'stored' }]);
    const show = await blogctl(['wp', 'sites', 'show', 'blog', '--json'], { env });
    expect(JSON.parse(show.stdout)).toMatchObject({ id: 'blog', url: wp.url, password: 'stored' });
    // A local profile: no service fields in the human view (the service has never heard of it).
    const human = await blogctl(['wp', 'sites', 'show', 'blog'], { env });
    expect(human.stdout).toMatch(/^password: +stored$/m);
    expect(human.stdout).not.toMatch(/auto-publish|integrated/);
  });

  it('add from BLOGCTL_WP_PASSWORD; an existing id needs --force (exit 2)', async () => {
    const { dir, env } = setup();
    const add = [
      'wp',
      'sites',
      'add',
      'envsite',
      '--url',
      'https://env.test',
      '--username',
      'eve',
      '--auto-publish',
      '--label',
      'Env',
      '--no-verify',
    ];
    expect((await blogctl(add, { env: { ...env, BLOGCTL_WP_PASSWORD: 'env-pass-5678' } })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).sitePasswords.envsite).toBe(
      'env-pass-5678',
    );
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).sites.envsite).toEqual({
      url: 'https://env.test',
      username: 'eve',
      label: 'Env',
      autoPublish: true,
    });
    const again = await blogctl(add, { env: { ...env, BLOGCTL_WP_PASSWORD: 'env-pass-5678' } });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
    expect(
      (await blogctl([...add, '--force'], { env: { ...env, BLOGCTL_WP_PASSWORD: 'env-pass-9999' } })).code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).sitePasswords.envsite).toBe(
      'env-pass-9999',
    );
  });

  it('add with no password source off a terminal → exit 2 naming --password-stdin and BLOGCTL_WP_PASSWORD', async () => {
    const { env } = setup();
    const res = await blogctl(['wp', 'sites', 'add', 'x', '--url', 'https://x.test', '--username', 'u'], {
      env,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--password-stdin');
    expect(res.stderr).toContain('BLOGCTL_WP_PASSWORD');
  });

  it('show/remove an unknown id → exit 5; remove deletes profile and password', async () => {
    const { dir, env } = setup();
    expect((await blogctl(['wp', 'sites', 'show', 'ghost'], { env })).code).toBe(5);
    expect((await blogctl(['wp', 'sites', 'remove', 'ghost'], { env })).code).toBe(5);
    await addSite(env, 'gone');
    expect((await blogctl(['wp', 'sites', 'remove', 'gone', '--yes'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).sites).toEqual({});
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).sitePasswords).toEqual({});
  });
});

describe('wp settings update', () => {
  it('sends only the given fields; the sandbox merges successive updates', async () => {
    const { env } = setup();
    const first = await blogctl(
      [
        'wp',
        'settings',
        'update',
        '--site',
        'u1',
        '--label',
        'Main',
        '--integrated',
        '--no-auto-publish',
        '--json',
      ],
      { env },
    );
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      success: true,
      integration: { id: 'u1', label: 'Main', isIntegrated: true, autoPublish: false },
    });
    const second = await blogctl(
      [
        'wp',
        'settings',
        'update',
        '--site',
        'u1',
        '--no-integrated',
        '--website-valid',
        '--json',
        'integration',
      ],
      { env },
    );
    expect(JSON.parse(second.stdout)).toEqual({
      integration: { id: 'u1', label: 'Main', isIntegrated: false, isWebsiteValid: true, autoPublish: false },
    });
  });

  it('--with-credentials sends the profile credentials; the password never comes back', async () => {
    const { dir, env } = setup();
    await addSite(env, 'u2');
    const res = await blogctl(
      ['wp', 'settings', 'update', '--site', 'u2', '--with-credentials', '--auto-publish', '--json'],
      { env },
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).integration).toEqual({
      id: 'u2',
      autoPublish: true,
      credentials: { websiteUrl: wp.url, username: wp.username, hasPassword: true },
    });
    // A successful update is mirrored into the local profile.
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).sites.u2.autoPublish).toBe(true);
    // Now the service knows it: its fields are shown.
    expect((await blogctl(['wp', 'sites', 'show', 'u2'], { env })).stdout).toMatch(/^auto-publish: +yes$/m);
    const human = await blogctl(['wp', 'settings', 'update', '--site', 'u2', '--label', 'Two'], { env });
    expect(human.stdout).toContain('label:');
    expect(human.stdout).toContain('Two');
  });

  it('--password-stdin with --url/--username, and --dry-run prints *** and sends nothing', async () => {
    const { env } = setup();
    const dry = await blogctl(
      [
        'wp',
        'settings',
        'update',
        '--site',
        'u3',
        '--url',
        wp.url,
        '--username',
        'x',
        '--password-stdin',
        '--dry-run',
      ],
      {
        env,
        input: 'dry-secret-4242\n',
      },
    );
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      settings: { id: 'u3', credentials: { websiteUrl: wp.url, username: 'x', password: '***' } },
    });
    expect(dry.stdout + dry.stderr).not.toContain('dry-secret-4242');
    const real = await blogctl(
      ['wp', 'settings', 'update', '--site', 'u3', '--username', 'x', '--password-stdin', '--json'],
      {
        env,
        input: 'real-secret-4242\n',
      },
    );
    expect(JSON.parse(real.stdout).integration).toEqual({
      id: 'u3',
      credentials: { username: 'x', hasPassword: true },
    });
    expect(real.stdout + real.stderr).not.toContain('real-secret-4242');
  });

  it('-f settings.json with flags overriding; nothing given → exit 2', async () => {
    const { dir, env } = setup();
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ id: 'u4', label: 'File', isWebsiteValid: false }));
    const res = await blogctl(['wp', 'settings', 'update', '-f', file, '--website-valid', '--json'], { env });
    expect(JSON.parse(res.stdout).integration).toEqual({ id: 'u4', label: 'File', isWebsiteValid: true });
    const none = await blogctl(['wp', 'settings', 'update'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing to update');
  });
});

describe('wp settings replace', () => {
  it('-f sites.json --yes sends the whole list', async () => {
    const { dir, env } = setup();
    const file = join(dir, 'sites.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          id: 'r1',
          label: 'One',
          isIntegrated: true,
          credentials: { websiteUrl: 'https://r1.test', username: 'a', password: 'file-secret-1' },
        },
        { id: 'r2', autoPublish: true },
      ]),
    );
    const res = await blogctl(['wp', 'settings', 'replace', '-f', file, '--yes', '--json'], { env });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      success: true,
      integration: [
        {
          id: 'r1',
          label: 'One',
          isIntegrated: true,
          credentials: { websiteUrl: 'https://r1.test', username: 'a', hasPassword: true },
        },
        { id: 'r2', autoPublish: true },
      ],
    });
    expect(res.stdout + res.stderr).not.toContain('file-secret-1');
  });

  it('--from-sites --yes sends every local profile with its password', async () => {
    const { env } = setup(alt);
    await addSite(env, 'fa');
    await addSite(env, 'fb');
    const dry = await blogctl(['wp', 'settings', 'replace', '--from-sites', '--dry-run'], { env });
    expect(
      JSON.parse(dry.stdout).settings.map(
        (s: { credentials: { password: string } }) => s.credentials.password,
      ),
    ).toEqual(['***', '***']);
    const res = await blogctl(
      ['wp', 'settings', 'replace', '--from-sites', '--yes', '--json', 'integration'],
      { env },
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).integration).toEqual([
      { id: 'fa', credentials: { websiteUrl: wp.url, username: wp.username, hasPassword: true } },
      { id: 'fb', credentials: { websiteUrl: wp.url, username: wp.username, hasPassword: true } },
    ]);
    // The human form is a table (TSV when piped).
    const human = await blogctl(['wp', 'settings', 'replace', '--from-sites', '--yes'], { env });
    expect(human.stdout.split('\n')[0]).toBe(`fa\t\t\t\t\t${wp.url}\t${wp.username}`);
  });

  it('without --yes off a terminal → exit 2; invalid file → exit 2; neither source → exit 2', async () => {
    const { dir, env } = setup();
    const file = join(dir, 'sites.json');
    writeFileSync(file, JSON.stringify([{ id: 'r1' }]));
    const res = await blogctl(['wp', 'settings', 'replace', '-f', file], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--yes');
    writeFileSync(
      file,
      JSON.stringify([{ label: 'no id' }, { id: 'x', credentials: { websiteUrl: 'nope' } }]),
    );
    const bad = await blogctl(['wp', 'settings', 'replace', '-f', file, '--yes'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('settings[0].id');
    expect(bad.stderr).toContain('settings[1].credentials.websiteUrl');
    expect((await blogctl(['wp', 'settings', 'replace', '--yes'], { env })).code).toBe(2);
  });
});

describe('wp publish', () => {
  it('--site: prints published/id/link/status/type; --json and -q', async () => {
    const { env } = setup();
    await addSite(env, 'pub');
    const human = await blogctl(
      [
        'wp',
        'publish',
        '--site',
        'pub',
        '--title',
        'Hello site',
        '--content',
        '<p>Hi</p>',
        '--status',
        'publish',
      ],
      { env },
    );
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /^action: +created\nid: +\d+\nlink: +http:\/\/127\.0\.0\.1:\d+\/hello-site\/\nstatus: +publish\ntype: +post\n$/,
    );
    const json = await blogctl(
      ['wp', 'publish', '--site', 'pub', '--title', 'Json', '--content', '<p>x</p>', '--json'],
      { env },
    );
    const [parsed] = JSON.parse(json.stdout);
    expect(parsed).toEqual({
      source: 'flags',
      action: 'created',
      published: true,
      id: expect.any(String),
      link: `${wp.url}/?p=${parsed.id}`,
      status: 'draft',
      type: 'post',
    });
    const quiet = await blogctl(
      ['wp', 'publish', '--site', 'pub', '--title', 'Quiet', '--content', 'q', '-q'],
      { env },
    );
    expect(quiet.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?p=\d+\n$/);
    expect(posts().at(-1)).toEqual({ title: 'Quiet', content: 'q', status: 'draft' });
  });

  it('default-site is used when no site is named', async () => {
    const { env } = setup();
    await addSite(env, 'dflt');
    expect((await blogctl(['config', 'set', 'default-site', 'dflt'], { env })).code).toBe(0);
    const res = await blogctl(
      ['wp', 'publish', '--title', 'Default', '--content', 'd', '--json', 'published'],
      { env },
    );
    expect(res.stdout.trim()).toBe('[\n  {\n    "published": true\n  }\n]');
  });

  it('--url/--username/--password-stdin against the alt response shape gives the same output', async () => {
    const { env } = setup(alt);
    const res = await blogctl(
      [
        'wp',
        'publish',
        '--url',
        wp.url,
        '--username',
        wp.username,
        '--password-stdin',
        '--title',
        'Alt',
        '--content',
        'a',
        '--status',
        'publish',
        '--json',
      ],
      {
        env,
        input: `${wp.password}\n`,
      },
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([
      {
        source: 'flags',
        action: 'created',
        published: true,
        id: expect.any(String),
        link: `${wp.url}/alt/`,
        status: 'publish',
        type: 'post',
      },
    ]);
  });

  it('-f payload.json with {credentials, content}; flags override the file', async () => {
    const { dir, env } = setup();
    // Ids are checked on the site: this one exists.
    wp.terms.tags.push({ id: 902, name: 'Two', slug: 'two', parent: 0 });
    const file = join(dir, 'payload.json');
    writeFileSync(
      file,
      JSON.stringify({
        credentials: { websiteUrl: wp.url, username: wp.username, password: wp.password },
        content: { title: 'From file', content: '<p>file</p>', status: 'pending', tags: [902] },
      }),
    );
    const res = await blogctl(['wp', 'publish', '-f', file, '--title', 'Flag title', '--json'], { env });
    expect(res.code).toBe(0);
    // The -f file is the post's source (its path): the content carries blogctl's marker.
    const post = posts().at(-1)!;
    expect({ ...post, content: stripMarker(String(post.content)) }).toEqual({
      title: 'Flag title',
      content: '<p>file</p>',
      status: 'pending',
      tags: [902],
    });
  });

  it('--content-file - reads the HTML from stdin as-is', async () => {
    const { env } = setup();
    await addSite(env, 'stdin');
    const html = '<h2>Piped</h2>\n<p>body</p>\n';
    const res = await blogctl(
      ['wp', 'publish', '--site', 'stdin', '--title', 'Piped', '--content-file', '-'],
      { env, input: html },
    );
    expect(res.code).toBe(0);
    expect(posts().at(-1)).toEqual({ title: 'Piped', content: html, status: 'draft' });
  });

  it('--from-blog takes title and content of a generated blog; an unknown blog → exit 5', async () => {
    const { env } = setup();
    await addSite(env, 'fromblog');
    const blog = await typed.api().createBlog(blogParamsFor());
    const res = await blogctl(['wp', 'publish', '--site', 'fromblog', '--from-blog', blog._id, '--json'], {
      env,
    });
    expect(res.code).toBe(0);
    // The post's source is the blog: its content ends with blogctl's marker.
    const post = posts().at(-1)!;
    // Its excerpt and slug too: what a file of the blog (`blog show --markdown`) would send, the same post.
    expect({ ...post, content: stripMarker(String(post.content)) }).toEqual({
      title: blog.title,
      content: String(blog['content']).trimEnd(),
      excerpt: blog['excerpt'],
      slug: blog['slug'],
      status: 'draft',
    });
    const unknown = await blogctl(['wp', 'publish', '--site', 'fromblog', '--from-blog', 'no-such-blog'], {
      env,
    });
    expect(unknown.code).toBe(5);
  });

  it('a wrong Application Password → isPublished false → exit 4 (authentication) with the reason, password never shown', async () => {
    for (const sandbox of [typed, alt]) {
      const { env } = setup(sandbox);
      await addSite(env, 'wrong', WRONG_PASSWORD);
      const res = await blogctl(
        ['wp', 'publish', '--site', 'wrong', '--title', 'Nope', '--content', 'n', '--json'],
        { env },
      );
      expect(res.code).toBe(4);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('WordPress did not publish the post');
      expect(res.stderr).toContain('rest_cannot_create');
      expect(JSON.parse(res.stderr.split('\n').find((l) => l.startsWith('{'))!)).toMatchObject({
        error: 'auth',
        exitCode: 4,
      });
    }
  });

  it('invalid --status, --format, --date → exit 2 and nothing is sent', async () => {
    const { env } = setup();
    await addSite(env, 'strict');
    const before = wp.requests.length;
    const base = ['wp', 'publish', '--site', 'strict', '--title', 't', '--content', 'c'];
    for (const bad of [
      ['--status', 'live'],
      ['--format', 'poem'],
      ['--date', 'next tuesday'],
      ['--author', 'me'],
      ['--meta', 'novalue'],
    ]) {
      const res = await blogctl([...base, ...bad], { env });
      expect(res.code, bad.join(' ')).toBe(2);
      expect(res.stderr).toContain(bad[0]);
    }
    const noTitle = await blogctl(['wp', 'publish', '--site', 'strict', '--content', 'c'], { env });
    expect(noTitle.code).toBe(2);
    expect(noTitle.stderr).toContain('--title is required');
    expect(wp.requests.length).toBe(before);
  });

  it('--dry-run prints the plan, never the password, and needs no API key or base URL', async () => {
    const { env } = setup();
    await addSite(env, 'dry');
    const before = wp.requests.length;
    const res = await blogctl(
      [
        'wp',
        'publish',
        '--site',
        'dry',
        '--title',
        'Dry',
        '--content',
        'd',
        '--meta',
        'n=1',
        '--dry-run',
        '--json',
      ],
      {
        env: { ...env, BLOGCTL_API_KEY: undefined, BLOGCTL_BASE_URL: undefined },
      },
    );
    expect(res.code).toBe(0);
    // A post from flags alone has no source to look up: nothing is asked of the site either.
    expect(JSON.parse(res.stdout)).toEqual([
      {
        source: 'flags',
        action: 'create',
        id: null,
        link: null,
        status: null,
        post: { title: 'Dry', content: 'd', status: 'draft', meta: { n: 1 } },
      },
    ]);
    expect(res.stdout + res.stderr).not.toContain(wp.password);
    // Piped without --json: the plan as tab-separated rows.
    const rows = await blogctl(
      ['wp', 'publish', '--site', 'dry', '--title', 'Dry', '--content', 'd', '--dry-run'],
      {
        env: { ...env, BLOGCTL_API_KEY: undefined, BLOGCTL_BASE_URL: undefined },
      },
    );
    // The columns of a real run: SOURCE ACTION WP STATUS ID LINK ERROR.
    expect(rows.stdout).toBe('flags\tcreate\t\t\t\t\n');
    expect(rows.stderr).toContain('dry run: nothing was sent (1 create)');
    expect(wp.requests.length).toBe(before);
  });

  it('an unknown --site → exit 5; no site at all → exit 2', async () => {
    const { env } = setup();
    const unknown = await blogctl(['wp', 'publish', '--site', 'ghost', '--title', 't', '--content', 'c'], {
      env,
    });
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('no WordPress site profile "ghost"');
    const none = await blogctl(['wp', 'publish', '--title', 't', '--content', 'c'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--site');
  });

  it('without a password source off a terminal → exit 2 naming the sources', async () => {
    const { env } = setup();
    const res = await blogctl(
      ['wp', 'publish', '--url', wp.url, '--username', 'u', '--title', 't', '--content', 'c'],
      { env },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--password-stdin');
  });
});

describe('secrets', () => {
  it('no Application Password appears in any stdout or stderr of this file', () => {
    const secrets = [
      wp.password,
      wp.password.replace(/\s+/g, ''),
      WRONG_PASSWORD,
      'env-pass-5678',
      'env-pass-9999',
      'file-secret-1',
    ];
    expect(outputs.length).toBeGreaterThan(30);
    for (const out of outputs) for (const s of secrets) expect(out.stdout + out.stderr).not.toContain(s);
  });
});
