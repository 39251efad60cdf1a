// The secrets sweep: every command, in every mode (plain, --json, --debug, -q) and in its failures (a wrong
// API key → 401, an unreachable service, a refused WordPress password), run as a real process with known,
// distinctive secrets: an API key, two Application Passwords and a provider key. Then every stdout, every
// stderr (debug included) and every file the CLI wrote in the config dir — except credentials.json, the
// secrets store — is searched for each secret as is, without spaces, base64, URL-encoded, and inside Basic
// auth. Zero hits. The config dir is 0700, config.json and credentials.json 0600.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree, missingFrom, verbPaths } from '../helpers/command-tree.js';
import { BIN, createFlags, runCli, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, unusedLocalUrl, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const API_KEY = 'sk_sweep_K3yV4lueQz9X7wR2';
const WRONG_API_KEY = 'sk_wrong_Pq8Lm3Ns6Rt1Vb5';
const WP_PASSWORD_1 = 'swp1 AbCd EfGh IjKl MnOp QrSt';
const WP_PASSWORD_2 = 'swp2 ZyXw VuTs RqPo NmLk JiHg';
const WRONG_WP_PASSWORD = 'bad0 Wr0n gPas sw0r dXXX YYYY';
const PROVIDER_KEY = 'prov_sweep_Gh5Jk8Lz2Xc4Vn6';
const USER_1 = 'admin';
const USER_2 = 'editor';

/** Every spelling a careless log, file or error message could give a secret. */
function needles(): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const add = (name: string, secret: string, user?: string): void => {
    const compact = secret.replace(/\s+/g, '');
    const spellings: Record<string, string> = {
      '': secret,
      ' without spaces': compact,
      ' base64': Buffer.from(secret).toString('base64'),
      ' base64 without spaces': Buffer.from(compact).toString('base64'),
      ' base64url': Buffer.from(secret).toString('base64url'),
      ' url-encoded': encodeURIComponent(secret),
    };
    if (user) {
      spellings[' in Basic auth'] = Buffer.from(`${user}:${secret}`).toString('base64');
      spellings[' in Basic auth without spaces'] = Buffer.from(`${user}:${compact}`).toString('base64');
    }
    for (const [suffix, value] of Object.entries(spellings))
      if (!out.some((n) => n.value === value)) out.push({ name: name + suffix, value });
  };
  add('API key', API_KEY);
  add('wrong API key', WRONG_API_KEY);
  add('Application Password 1', WP_PASSWORD_1, USER_1);
  add('Application Password 2', WP_PASSWORD_2, USER_2);
  add('wrong Application Password', WRONG_WP_PASSWORD, USER_1);
  add('provider key', PROVIDER_KEY);
  // V8's JSON.parse message quotes about ten characters either side of a syntax error: a part of a secret is
  // as bad as all of it.
  for (const { name, value } of out.slice()) {
    if (/ (base64|url-encoded|in Basic auth)/.test(name)) continue;
    for (let i = 0; i + 8 <= value.length; i++) {
      const part = value.slice(i, i + 8);
      if (!out.some((n) => n.value === part)) out.push({ name: `${name} (part)`, value: part });
    }
  }
  return out;
}
const NEEDLES = needles();

let sandbox: TestSandbox;
let wp1: FakeWordPress;
let wp2: FakeWordPress;
let unreachable: string;
let files: string;

beforeAll(async () => {
  [sandbox, wp1, wp2, unreachable] = await Promise.all([
    startTestSandbox({ apiKeys: [API_KEY] }),
    startFakeWordPress({ username: USER_1, password: WP_PASSWORD_1 }),
    startFakeWordPress({ username: USER_2, password: WP_PASSWORD_2 }),
    unusedLocalUrl(),
  ]);
  files = mkdtempSync(join(tmpdir(), 'blogctl-sweep-input-'));
  const params = { blogParams: blogParamsFor({ topicKeywords: ['sweep from a file'] }) };
  writeFileSync(join(files, 'params.json'), JSON.stringify(params));
  writeFileSync(
    join(files, 'sites.json'),
    JSON.stringify([
      {
        id: 'from-file',
        label: 'From a file',
        isIntegrated: true,
        credentials: { websiteUrl: wp2.url, username: USER_2, password: WP_PASSWORD_2 },
      },
    ]),
  );
  writeFileSync(
    join(files, 'payload.json'),
    JSON.stringify({
      credentials: { websiteUrl: wp2.url, username: USER_2, password: WP_PASSWORD_2 },
      content: { title: 'From a payload file', content: '<p>payload</p>', status: 'draft' },
    }),
  );
  // Malformed files with a secret right where the JSON breaks, which is what V8's message would quote.
  writeFileSync(
    join(files, 'broken-payload.json'),
    `{"credentials": {"websiteUrl": "${wp2.url}", "username": "${USER_2}",\n"password": ${WP_PASSWORD_2}}}`,
  );
  writeFileSync(
    join(files, 'broken-sites.json'),
    `[{"id": "x", "credentials": {"password": ${WP_PASSWORD_1}`,
  );
  writeFileSync(
    join(files, 'broken-settings.json'),
    `{"id": "one", "credentials": {"password": '${WP_PASSWORD_1}'}}`,
  );
  writeFileSync(
    join(files, 'broken-params.json'),
    `{"blogParams": {"topicKeywords": ["x"],\n"externalProviderApiKey": ${PROVIDER_KEY}}}`,
  );
  writeFileSync(
    join(files, 'broken-front-matter.md'),
    `---json\n{"title": "Broken", "password": ${WP_PASSWORD_2}}\n---\nBody\n`,
  );
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), wp1?.close(), wp2?.close()]);
});

// ---------------------------------------------------------------------------------------------------------

type Mode = 'plain' | 'json' | 'debug' | 'quiet';
const MODES: Record<Mode, string[]> = { plain: [], json: ['--json'], debug: ['--debug'], quiet: ['-q'] };

/** A config dir as `auth login` and `wp sites add` leave it: the secrets in credentials.json only. */
function seededConfigDir(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'blogctl-sweep-')), 'config');
  mkdirSync(dir, { mode: 0o700 });
  const config = {
    profiles: { default: { baseUrl: sandbox.url } },
    settings: { 'default-site': 'one' },
    sites: {
      one: { url: wp1.url, username: USER_1, label: 'One' },
      two: { url: wp2.url, username: USER_2 },
    },
  };
  const credentials = {
    apiKeys: { default: API_KEY },
    sitePasswords: { one: WP_PASSWORD_1, two: WP_PASSWORD_2 },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, '\t'), { mode: 0o600 });
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify(credentials, null, '\t'), { mode: 0o600 });
  return dir;
}

/** credentials.json damaged right at the API key, as a crash or a bad hand edit could leave it. */
function damagedCredentialsDir(): string {
  const dir = seededConfigDir();
  writeFileSync(join(dir, 'credentials.json'), `{"apiKeys": {"default": ${API_KEY}}}`, { mode: 0o600 });
  return dir;
}

/** Not created yet: the CLI makes it (and its parent), which is what the 0700 check is about. */
function freshConfigDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'blogctl-sweep-')), 'new', 'blogctl');
}

async function newBlogId(): Promise<string> {
  const res = await sandbox.fetch('/api/v1/public/create-blog', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blogParams: blogParamsFor({ topicKeywords: ['to show and delete'] }) }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

interface Scenario {
  name: string;
  /** Arguments after the global flags. A function runs per invocation (for ids that must be fresh). */
  args: string[] | (() => Promise<string[]>);
  input?: string;
  env?: Record<string, string>;
  /** Default: a seeded config dir. */
  dir?: () => string;
  /** Expected exit code of the successful run (default 0). */
  code?: number;
  /**
   * A project folder made beside the config dir for each run, holding this blogctl.yml: the run's working
   * directory, and every file written in it is searched too.
   */
  project?: string;
  /** Failure runs: wrong API key (401 → 4) and unreachable service (7), unless the command is local. */
  failures?: Failure[];
}

interface Failure {
  name: string;
  code: number;
  args?: string[] | (() => Promise<string[]>);
  env?: Record<string, string>;
  input?: string;
}

/** Every failure mode of a command that calls the service. */
const SERVICE_FAILURES: Failure[] = [
  { name: 'wrong API key (401)', code: 4, env: { BLOGCTL_API_KEY: WRONG_API_KEY } },
  { name: 'unreachable service', code: 7, env: { BLOGCTL_BASE_URL: '' } },
];

const CREATE_FLAGS = createFlags('secret sweep,espresso');

function scenarios(): Scenario[] {
  const viaStdin = (password: string) => `${password}\n`;
  return [
    // auth
    {
      name: 'auth login --with-key',
      args: () => Promise.resolve(['--base-url', sandbox.url, 'auth', 'login', '--with-key']),
      input: `${API_KEY}\n`,
      dir: freshConfigDir,
      failures: [
        { name: 'wrong API key (401)', code: 4, input: `${WRONG_API_KEY}\n` },
        {
          name: 'unreachable service',
          code: 7, // nothing stored: --no-verify is how to store a key unchecked
          args: () => Promise.resolve(['--base-url', unreachable, 'auth', 'login', '--with-key']),
        },
      ],
    },
    { name: 'auth status', args: ['auth', 'status'], failures: SERVICE_FAILURES },
    {
      name: 'auth switch',
      args: ['auth', 'switch', 'default'],
      failures: [{ name: 'no such profile', code: 5, args: ['auth', 'switch', 'nobody'] }],
    },
    {
      name: 'auth logout',
      args: ['auth', 'logout', '--yes'],
      failures: [
        { name: 'no such profile', code: 5, args: ['--profile', 'nobody', 'auth', 'logout', '--yes'] },
        { name: 'no --yes without a terminal', code: 2, args: ['auth', 'logout'] },
      ],
    },
    // config
    {
      name: 'config set',
      args: ['config', 'set', 'timeout', '30'],
      dir: freshConfigDir,
      failures: [{ name: 'bad value', code: 2, args: ['config', 'set', 'timeout', 'soon'] }],
    },
    {
      name: 'config get',
      args: ['config', 'get', 'base-url'],
      failures: [{ name: 'unknown key', code: 2, args: ['config', 'get', 'api-key'] }],
    },
    {
      name: 'config unset',
      args: ['config', 'unset', 'default-site'],
      failures: [{ name: 'unknown key', code: 2, args: ['config', 'unset', 'password'] }],
    },
    { name: 'config list', args: ['config', 'list'] },
    { name: 'config path', args: ['config', 'path'] },
    // blog
    {
      name: 'blog create (flags, BLOGCTL_PROVIDER_API_KEY)',
      args: ['blog', 'create', ...CREATE_FLAGS],
      env: { BLOGCTL_PROVIDER_API_KEY: PROVIDER_KEY },
      failures: SERVICE_FAILURES,
    },
    {
      name: 'blog create -f --provider-key-stdin',
      args: () =>
        Promise.resolve(['blog', 'create', '-f', join(files, 'params.json'), '--provider-key-stdin']),
      input: `${PROVIDER_KEY}\n`,
      failures: SERVICE_FAILURES,
    },
    {
      name: 'blog create --dry-run',
      args: ['blog', 'create', ...CREATE_FLAGS, '--dry-run'],
      env: { BLOGCTL_PROVIDER_API_KEY: PROVIDER_KEY },
      failures: [
        { name: 'invalid length', code: 2, args: ['blog', 'create', '-k', 'x', '--length', 'huge'] },
      ],
    },
    { name: 'blog list', args: ['blog', 'list'], failures: SERVICE_FAILURES },
    {
      name: 'blog show',
      args: async () => ['blog', 'show', await newBlogId()],
      failures: [
        ...SERVICE_FAILURES.map((f) => ({ ...f, args: async () => ['blog', 'show', await newBlogId()] })),
        { name: 'unknown id', code: 5, args: ['blog', 'show', 'no-such-blog'] },
      ],
    },
    {
      name: 'blog delete',
      args: async () => ['blog', 'delete', '--yes', await newBlogId()],
      failures: [
        ...SERVICE_FAILURES.map((f) => ({
          ...f,
          args: async () => ['blog', 'delete', '--yes', await newBlogId()],
        })),
        { name: 'unknown id', code: 5, args: ['blog', 'delete', '--yes', 'no-such-blog'] },
      ],
    },
    // wp sites
    {
      name: 'wp sites add --password-stdin',
      args: () =>
        Promise.resolve([
          'wp',
          'sites',
          'add',
          'three',
          '--url',
          wp1.url,
          '--username',
          USER_1,
          '--password-stdin',
        ]),
      input: viaStdin(WP_PASSWORD_1),
      dir: freshConfigDir,
      failures: [
        {
          name: 'password in the URL',
          code: 2,
          args: () =>
            Promise.resolve([
              'wp',
              'sites',
              'add',
              'bad',
              '--url',
              wp1.url.replace('//', `//${USER_1}:${encodeURIComponent(WP_PASSWORD_1)}@`),
              '--username',
              USER_1,
              '--password-stdin',
            ]),
          input: viaStdin(WP_PASSWORD_1),
        },
      ],
    },
    {
      name: 'wp sites add (BLOGCTL_WP_PASSWORD)',
      args: () => Promise.resolve(['wp', 'sites', 'add', 'four', '--url', wp2.url, '--username', USER_2]),
      env: { BLOGCTL_WP_PASSWORD: WP_PASSWORD_2 },
      failures: [
        {
          name: 'existing id',
          code: 2,
          args: () => Promise.resolve(['wp', 'sites', 'add', 'one', '--url', wp2.url, '--username', USER_2]),
          env: { BLOGCTL_WP_PASSWORD: WP_PASSWORD_2 },
        },
      ],
    },
    {
      name: 'wp sites set-password',
      args: ['wp', 'sites', 'set-password', 'one', '--password-stdin'],
      input: `${WP_PASSWORD_1}\n`,
      failures: [
        {
          name: 'a password the site refuses',
          code: 4,
          args: ['wp', 'sites', 'set-password', 'one', '--password-stdin'],
          input: `${WRONG_WP_PASSWORD}\n`,
        },
      ],
    },
    { name: 'wp sites list', args: ['wp', 'sites', 'list'] },
    {
      name: 'wp sites verify',
      args: ['wp', 'sites', 'verify', 'one'],
      failures: [{ name: 'unknown site', code: 5, args: ['wp', 'sites', 'verify', 'nope'] }],
    },
    {
      name: 'wp sites show',
      args: ['wp', 'sites', 'show', 'one'],
      failures: [{ name: 'unknown site', code: 5, args: ['wp', 'sites', 'show', 'nope'] }],
    },
    {
      name: 'wp sites remove',
      args: ['wp', 'sites', 'remove', 'two', '--yes'],
      failures: [
        { name: 'unknown site', code: 5, args: ['wp', 'sites', 'remove', 'nope', '--yes'] },
        { name: 'no --yes without a terminal', code: 2, args: ['wp', 'sites', 'remove', 'two'] },
      ],
    },
    // wp settings
    {
      name: 'wp settings update --password-stdin',
      args: () =>
        Promise.resolve([
          'wp',
          'settings',
          'update',
          '--site',
          'one',
          '--label',
          'Sweep',
          '--url',
          wp1.url,
          '--username',
          USER_1,
          '--password-stdin',
        ]),
      input: viaStdin(WP_PASSWORD_1),
      failures: SERVICE_FAILURES,
    },
    {
      name: 'wp settings update --with-credentials',
      args: ['wp', 'settings', 'update', '--site', 'one', '--with-credentials', '--auto-publish'],
      failures: SERVICE_FAILURES,
    },
    {
      name: 'wp settings update --with-credentials --dry-run',
      args: ['wp', 'settings', 'update', '--site', 'two', '--with-credentials', '--dry-run'],
      failures: [
        {
          name: 'unknown site',
          code: 5,
          args: ['wp', 'settings', 'update', '--site', 'nope', '--with-credentials'],
        },
      ],
    },
    {
      name: 'wp settings replace --from-sites',
      args: ['wp', 'settings', 'replace', '--from-sites', '--yes'],
      failures: [
        ...SERVICE_FAILURES,
        { name: 'no --yes without a terminal', code: 2, args: ['wp', 'settings', 'replace', '--from-sites'] },
      ],
    },
    {
      name: 'wp settings replace -f',
      args: () => Promise.resolve(['wp', 'settings', 'replace', '-f', join(files, 'sites.json'), '--yes']),
      failures: SERVICE_FAILURES.map((f) => ({
        ...f,
        args: () => Promise.resolve(['wp', 'settings', 'replace', '-f', join(files, 'sites.json'), '--yes']),
      })),
    },
    {
      name: 'wp settings replace --dry-run',
      args: ['wp', 'settings', 'replace', '--from-sites', '--dry-run'],
    },
    // wp publish
    {
      name: 'wp publish --site',
      args: ['wp', 'publish', '--site', 'one', '--title', 'Sweep', '--content', '<p>sweep</p>'],
      failures: [
        ...SERVICE_FAILURES,
        {
          name: 'WordPress refuses the password',
          code: 4, // authentication: the same cause, the same code as wp sites verify
          args: () =>
            Promise.resolve([
              'wp',
              'publish',
              '--url',
              wp1.url,
              '--username',
              USER_1,
              '--password-stdin',
              '--title',
              'Refused',
              '--content',
              '<p>x</p>',
            ]),
          input: viaStdin(WRONG_WP_PASSWORD),
        },
      ],
    },
    {
      name: 'wp publish --url --username --password-stdin',
      args: () =>
        Promise.resolve([
          'wp',
          'publish',
          '--url',
          wp2.url,
          '--username',
          USER_2,
          '--password-stdin',
          '--title',
          'Sweep 2',
          '--content',
          '<p>two</p>',
        ]),
      input: viaStdin(WP_PASSWORD_2),
      failures: SERVICE_FAILURES,
    },
    {
      name: 'wp publish --dry-run',
      args: ['wp', 'publish', '--site', 'two', '--title', 'Dry', '--content', '<p>dry</p>', '--dry-run'],
      failures: [
        { name: 'invalid status', code: 2, args: ['wp', 'publish', '--site', 'two', '--status', 'nope'] },
      ],
    },
    {
      name: 'wp publish -f with credentials',
      args: () => Promise.resolve(['wp', 'publish', '-f', join(files, 'payload.json')]),
      // A source of its own: the payload's post is already on the site (unchanged: nothing would be sent).
      failures: SERVICE_FAILURES.map((f) => ({
        ...f,
        args: () =>
          Promise.resolve(['wp', 'publish', '-f', join(files, 'payload.json'), '--key', 'never-published']),
      })),
    },
    {
      name: 'wp publish --from-blog',
      args: async () => ['wp', 'publish', '--site', 'two', '--from-blog', await newBlogId()],
      failures: [
        { name: 'unknown blog', code: 5, args: ['wp', 'publish', '--site', 'two', '--from-blog', 'nope'] },
      ],
    },
    // Malformed input files holding secrets: exit 2, and the error quotes none of the file.
    {
      name: 'wp publish -f (malformed, password inside)',
      args: () => Promise.resolve(['wp', 'publish', '-f', join(files, 'broken-payload.json')]),
      code: 2,
    },
    {
      name: 'wp publish --content-file (malformed JSON front matter)',
      args: () =>
        Promise.resolve([
          'wp',
          'publish',
          '--site',
          'one',
          '--content-file',
          join(files, 'broken-front-matter.md'),
        ]),
      code: 2,
    },
    {
      name: 'wp settings replace -f (malformed)',
      args: () =>
        Promise.resolve(['wp', 'settings', 'replace', '-f', join(files, 'broken-sites.json'), '--yes']),
      code: 2,
    },
    {
      name: 'wp settings update -f (malformed)',
      args: () => Promise.resolve(['wp', 'settings', 'update', '-f', join(files, 'broken-settings.json')]),
      code: 2,
    },
    {
      name: 'blog create -f (malformed, provider key inside)',
      args: () => Promise.resolve(['blog', 'create', '-f', join(files, 'broken-params.json')]),
      code: 2,
    },
    {
      name: 'auth status (damaged credentials.json)',
      args: ['auth', 'status'],
      dir: damagedCredentialsDir,
      code: 2,
    },
    // --sandbox: the in-process sandbox keeps its state (sealed passwords included) in the config dir.
    {
      name: '--sandbox blog create',
      args: ['--sandbox', 'blog', 'create', ...CREATE_FLAGS],
      env: { BLOGCTL_PROVIDER_API_KEY: PROVIDER_KEY },
    },
    {
      name: '--sandbox wp settings update --with-credentials',
      args: ['--sandbox', 'wp', 'settings', 'update', '--site', 'one', '--with-credentials', '--integrated'],
    },
    {
      name: '--sandbox wp publish',
      args: ['--sandbox', 'wp', 'publish', '--site', 'two', '--title', 'Sandboxed', '--content', '<p>s</p>'],
    },
    // wp pull: reads the site with the profile's Application Password and writes the posts as files.
    {
      name: 'wp pull',
      project: 'site: one\nnamespace: sweep-pull\nsources: [posts]\n',
      args: () => {
        seedPost(wp1, 'Pulled in the sweep');
        return Promise.resolve(['wp', 'pull']);
      },
      failures: [
        {
          name: 'WordPress refuses the password',
          code: 4,
          args: () =>
            Promise.resolve(['wp', 'pull', '--url', wp1.url, '--username', USER_1, '--password-stdin']),
          input: viaStdin(WRONG_WP_PASSWORD),
        },
      ],
    },
  ];
}

/** A published post on `site`, as an editor would have written it in WordPress. */
function seedPost(site: FakeWordPress, title: string): void {
  const id = Math.max(0, ...site.posts.map((p) => p.id)) + 1;
  site.posts.push({
    id,
    status: 'publish',
    slug: `sweep-${id}`,
    title,
    content: `<p>${title}.</p>`,
    date: '2025-05-01T10:00:00',
    date_gmt: '2025-05-01T10:00:00',
    modified: '2025-05-01T10:00:00',
    categories: [1],
    author: 1,
  });
}

// ---------------------------------------------------------------------------------------------------------

interface Leak {
  run: string;
  where: string;
  needle: string;
}

/** Files the CLI wrote in the config dir, except the secrets store. */
function writtenFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && path !== join(dir, 'credentials.json')) out.push(path);
    }
  };
  walk(dir);
  return out;
}

function search(run: string, result: CliResult, dir: string, leaks: Leak[]): void {
  const places: [string, string][] = [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
    ...writtenFiles(dir).map((f): [string, string] => [relative(dir, f), readFileSync(f, 'latin1')]),
  ];
  for (const [where, text] of places) {
    for (const needle of NEEDLES)
      if (text.includes(needle.value)) leaks.push({ run, where, needle: needle.name });
  }
}

function checkModes(run: string, dir: string, problems: string[]): void {
  if (!existsSync(dir)) return;
  const mode = (p: string): number => statSync(p).mode & 0o777;
  if (mode(dir) !== 0o700) problems.push(`${run}: config dir is ${mode(dir).toString(8)}`);
  for (const name of ['config.json', 'credentials.json']) {
    const path = join(dir, name);
    if (existsSync(path) && mode(path) !== 0o600)
      problems.push(`${run}: ${name} is ${mode(path).toString(8)}`);
  }
}

const resolveArgs = (args: string[] | (() => Promise<string[]>)): Promise<string[]> =>
  typeof args === 'function' ? args() : Promise.resolve(args);

const COMMON_ENV = { BLOGCTL_RETRY_BASE_MS: '1', BLOGCTL_NO_INPUT: '1' };

describe('the sweep itself', () => {
  it('finds a planted secret in output and in any file but credentials.json', () => {
    const dir = seededConfigDir();
    writeFileSync(
      join(dir, 'notes.jsonl'),
      `{"link":"x","note":"${Buffer.from(WP_PASSWORD_2).toString('base64')}"}\n`,
    );
    const leaks: Leak[] = [];
    search('control', { code: 0, signal: null, stdout: `key ${API_KEY}`, stderr: '' }, dir, leaks);
    expect(leaks).toEqual(
      expect.arrayContaining([
        { run: 'control', where: 'stdout', needle: 'API key' },
        { run: 'control', where: 'notes.jsonl', needle: 'Application Password 2 base64' },
      ]),
    );
    expect(leaks.every((l) => l.where !== 'credentials.json')).toBe(true);
  });
});

/** The declared verbs the scenarios leave out, and why; with the scenarios they name every verb. */
const NOT_SWEPT: Record<string, string> = {
  'auth token': 'prints the API key on stdout by design, and nothing else',
  completion: 'prints a script made from the command tree alone',
  __complete: 'prints site ids and profile names',
  help: 'prints help',
  sandbox: 'swept by "sandbox command" below',
  'wp init': 'writes the project file (site id, namespace); asks nothing and sends nothing',
};

describe('the scenarios', () => {
  it('run every declared verb, or say why not', () => {
    const keys = [...scenarios().map((s) => s.name), ...Object.keys(NOT_SWEPT)];
    expect(missingFrom(verbPaths(commandTree()), keys)).toEqual([]);
  });
});

describe.concurrent('secrets sweep: every command, every mode, every failure', () => {
  it.each(scenarios().map((s) => [s.name, s] as const))(
    '%s',
    async (_name, scenario) => {
      const leaks: Leak[] = [];
      const problems: string[] = [];
      const runs: {
        label: string;
        code: number;
        args: string[];
        env: Record<string, string>;
        input?: string;
        dir: string;
      }[] = [];
      /** The run's working directory: a new project folder beside its config dir, when the scenario has one. */
      const projectFor = (dir: string): string | undefined => {
        if (scenario.project === undefined) return undefined;
        const root = join(dirname(dir), 'project');
        mkdirSync(root, { recursive: true });
        writeFileSync(join(root, 'blogctl.yml'), scenario.project);
        return root;
      };

      for (const [mode, flags] of Object.entries(MODES) as [Mode, string[]][]) {
        runs.push({
          label: `${scenario.name} [${mode}]`,
          code: scenario.code ?? 0,
          // After the command: `--json [fields]` would take a command name before it as its fields.
          args: [...(await resolveArgs(scenario.args)), ...flags],
          env: { ...scenario.env },
          ...(scenario.input !== undefined && { input: scenario.input }),
          dir: (scenario.dir ?? seededConfigDir)(),
        });
      }
      for (const failure of scenario.failures ?? []) {
        // --debug --json prints everything a plain failure does, plus the debug log, the stack and the JSON error.
        for (const flags of [['--debug', '--json']]) {
          const env = { ...scenario.env, ...failure.env };
          // "Unreachable": the base URL points at a port where nothing listens.
          if (env['BLOGCTL_BASE_URL'] === '') env['BLOGCTL_BASE_URL'] = unreachable;
          const input = failure.input ?? scenario.input;
          runs.push({
            label: `${scenario.name} / ${failure.name} [${flags.join(' ')}]`,
            code: failure.code,
            args: [...(await resolveArgs(failure.args ?? scenario.args)), ...flags],
            env,
            ...(input !== undefined && { input }),
            dir: (scenario.dir ?? seededConfigDir)(),
          });
        }
      }

      for (const run of runs) {
        const project = projectFor(run.dir);
        const result = await runCli(run.args, {
          env: { ...COMMON_ENV, BLOGCTL_CONFIG_DIR: run.dir, ...run.env },
          ...(run.input !== undefined && { input: run.input }),
          ...(project !== undefined && { cwd: project }),
        });
        if (result.code !== run.code)
          problems.push(`${run.label}: exit ${result.code}, expected ${run.code}\n${result.stderr}`);
        search(run.label, result, run.dir, leaks);
        if (project !== undefined) {
          const written = writtenFiles(project);
          if (run.code === 0 && written.length < 2)
            problems.push(`${run.label}: wrote no file in its project (${written.length} there)`);
          search(run.label, { ...result, stdout: '', stderr: '' }, project, leaks);
        }
        checkModes(run.label, run.dir, problems);
      }
      expect(leaks, JSON.stringify(leaks, null, 2)).toEqual([]);
      expect(problems).toEqual([]);
    },
    180_000,
  );

  it.each(Object.entries(MODES))('sandbox command [%s]', async (_mode, flags) => {
    const dir = seededConfigDir();
    const dataFile = join(dir, 'sandbox-server', 'data.json');
    const child = spawn(
      process.execPath,
      [BIN, 'sandbox', '--port', '0', '--api-key', API_KEY, '--data', dataFile, ...flags],
      { env: { ...process.env, BLOGCTL_CONFIG_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening on": ${stderr}`)), 15_000);
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        const m = /listening on (\S+)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
    const settings = await fetch(`${url}/api/v1/public/integrations/wordpress/update-settings`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({
        settings: {
          id: 'one',
          credentials: { websiteUrl: wp1.url, username: USER_1, password: WP_PASSWORD_1 },
        },
      }),
    });
    expect(settings.status).toBe(200);
    const wrong = await fetch(`${url}/api/v1/public/get-all-blogs`, {
      headers: { authorization: `Bearer ${WRONG_API_KEY}` },
    });
    expect(wrong.status).toBe(401);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const leaks: Leak[] = [];
    search(`sandbox ${flags.join(' ')}`, { code: 0, signal: null, stdout, stderr }, dir, leaks);
    expect(writtenFiles(dir).map((f) => relative(dir, f))).toContain(join('sandbox-server', 'data.json'));
    expect(leaks, JSON.stringify(leaks, null, 2)).toEqual([]);
  });
});
