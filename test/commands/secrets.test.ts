// The secrets sweep: every command, in every mode (plain, --json, --debug, -q) and in its failures (a wrong
// API key → 401, an unreachable service, a refused WordPress password), with known, distinctive secrets: an
// API key, two Application Passwords and a provider key. Then every stdout, every stderr (debug included)
// and every file the CLI wrote in the config dir — except credentials.json, the secrets store — is searched
// for each secret as is, without spaces, base64, URL-encoded, and inside Basic auth. Zero hits. The config dir
// is 0700, config.json and credentials.json 0600.
// The command tree runs in-process, one run at a time (a run may change the working folder): each run has
// its own list of secrets to redact, as a process would (src/output/secret-scope.ts withOwnSecrets), so a secret
// one run registered never hides another's leak; guardStrayOutput fails the file if anything bypassed the
// runs' IO. `blogctl sandbox`, a server stopped by a signal, runs as a process.
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
import { BIN, createFlags, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, unusedLocalUrl, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  notSecretSwept,
  secretScenarios,
  type Failure,
  type Scenario,
  type SecretsContext,
} from '../helpers/sweeps.js';

guardStrayOutput();

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

/** Every failure mode of a command that calls the service. */
const SERVICE_FAILURES: Failure[] = [
  { name: 'wrong API key (401)', code: 4, env: { BLOGCTL_API_KEY: WRONG_API_KEY } },
  { name: 'unreachable service', code: 7, env: { BLOGCTL_BASE_URL: '' } },
];

const CREATE_FLAGS = createFlags('secret sweep,espresso');

/** What each verb's secrets scenarios (its sweep.ts) run with; the servers once beforeAll has started them. */
const context: SecretsContext = {
  API_KEY,
  WRONG_API_KEY,
  WP_PASSWORD_1,
  WP_PASSWORD_2,
  WRONG_WP_PASSWORD,
  PROVIDER_KEY,
  USER_1,
  USER_2,
  get sandbox() {
    return sandbox;
  },
  get wp1() {
    return wp1;
  },
  get wp2() {
    return wp2;
  },
  get unreachable() {
    return unreachable;
  },
  inputFile: (name) => join(files, name),
  SERVICE_FAILURES,
  CREATE_FLAGS,
  freshConfigDir,
  damagedCredentialsDir,
  newBlogId,
};

function scenarios(): Scenario[] {
  return secretScenarios(context);
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

/** The declared verbs the scenarios leave out, and why (their sweep.ts says); with the scenarios they name every verb. */
const NOT_SWEPT: Record<string, string> = notSecretSwept();

describe('the scenarios', () => {
  it('run every declared verb, or say why not', () => {
    const keys = [...scenarios().map((s) => s.name), ...Object.keys(NOT_SWEPT)];
    expect(missingFrom(verbPaths(commandTree()), keys)).toEqual([]);
  });
});

describe('secrets sweep: every command, every mode, every failure', () => {
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
        const result = await runInProcess(run.args, {
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
