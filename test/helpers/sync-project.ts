// What the sync tests share: a run from a new, empty config dir (a fresh CI runner) with a site profile,
// pointed at the service; project folders (blogctl.yml and their source folders); and, for the in-process
// files, the sandbox relaying to a fake WordPress, started once per file.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { WordPressClient } from '../../src/wordpress/client.js';
import { runCli, tempConfigDir, type CliResult } from './cli.js';
import { startFakeWordPress, type FakeWordPress, type FakeWordPressOptions } from './fake-wordpress.js';
import { runInProcess } from './in-process.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

/** A WordPress site and the account (with its Application Password) a profile holds. */
export interface SiteLogin {
  url: string;
  username: string;
  password: string;
}

/** The administrator's login of a real WordPress instance (test/e2e/instances.ts). */
export function adminLogin(wp: { baseUrl: string; username: string; appPassword: string }): SiteLogin {
  return { url: wp.baseUrl, username: wp.username, password: wp.appPassword };
}

/** A client of the site with this login, for the enclosing describe block (closed after it). */
export function siteClient(site: SiteLogin): WordPressClient {
  const client = new WordPressClient({
    websiteUrl: site.url,
    username: site.username,
    password: site.password,
  });
  afterAll(() => client.close());
  return client;
}

/** The blogctl service a run talks to. */
export interface Service {
  url: string;
  apiKey: string;
}

/** Runs `blogctl ...args` with one config dir; `cwd` is the directory it runs in. */
export type Run = (args: string[], options?: { cwd?: string }) => Promise<CliResult>;

export interface FreshOptions {
  service: Service;
  /** The profile `profile` is added for this site first (its password through stdin); without, none is. */
  site?: SiteLogin;
  /** Default "blog". */
  profile?: string;
  /**
   * The built CLI as a process, the service given by --base-url. Default: in-process (src/cli.ts's run), the
   * service given by BLOGCTL_BASE_URL, `cwd` entered with process.chdir.
   */
  spawn?: boolean;
  /** More environment for every run. */
  env?: Record<string, string>;
}

/** A new, empty config dir (a fresh CI runner) pointed at the service, with the site profile when given. */
export async function freshRunner(options: FreshOptions): Promise<Run> {
  const { service, site, profile = 'blog' } = options;
  const env = { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_API_KEY: service.apiKey, ...options.env };
  const run: Run = options.spawn
    ? (args, { cwd } = {}) =>
        runCli(['--base-url', service.url, ...args], { env, timeoutMs: 90_000, ...(cwd && { cwd }) })
    : (args, { cwd } = {}) => {
        if (cwd) process.chdir(cwd);
        return runInProcess(args, { env: { ...env, BLOGCTL_BASE_URL: service.url } });
      };
  if (site) {
    const add = ['wp', 'sites', 'add', profile, '--url', site.url, '--username', site.username];
    const input = `${site.password}\n`;
    const added = options.spawn
      ? await runCli([...add, '--password-stdin'], { env, input })
      : await runInProcess([...add, '--password-stdin'], { env, input });
    expect(added.code, added.stderr).toBe(0);
  }
  return run;
}

/** One run from a new, empty config dir (see freshRunner). */
export async function freshRun(args: string[], options: FreshOptions & { cwd?: string }): Promise<CliResult> {
  const run = await freshRunner(options);
  return run(args, options.cwd !== undefined ? { cwd: options.cwd } : {});
}

/**
 * A new project folder in `parent`: `blogctl.yml` holding `config`, and the folders named (relative to the
 * project's root). Returns the root.
 */
export function newProject(parent: string, config: string, folders: string[] = ['posts/sub']): string {
  const root = mkdtempSync(join(parent, 'project-'));
  writeFileSync(join(root, 'blogctl.yml'), config);
  for (const folder of folders) mkdirSync(join(root, folder), { recursive: true });
  return root;
}

export interface SyncWorld {
  /** The sandbox, in this process. */
  readonly sandbox: TestSandbox;
  /** The fake WordPress the file's projects publish to (not with `fakeWordPress: false`). */
  readonly wp: FakeWordPress;
  /** A folder of this file's own (its real path, no symlink in it), removed after the file. */
  readonly home: string;
  /**
   * A fresh config dir with the site profile `profile` (default "blog") on `wp` (default: the file's fake
   * WordPress), talking to `service` (default: the sandbox) with the sandbox's API key; in-process.
   */
  runner(options?: { wp?: FakeWordPress; service?: string; profile?: string }): Promise<Run>;
}

export interface SyncWorldOptions {
  /** Start a fake WordPress (default true); the e2e files publish to the real one. */
  fakeWordPress?: boolean;
  /** The sandbox's wait for WordPress (SandboxOptions.wordpressTimeoutMs). */
  wordpressTimeoutMs?: number;
}

/**
 * For a test file: the sandbox (and a fake WordPress) started before its tests and closed after them, a home
 * folder, and the working directory put back after each test. Call at the top of the file.
 */
export function syncWorld(name: string, options: SyncWorldOptions = {}): SyncWorld {
  let sandbox: TestSandbox | undefined;
  let wp: FakeWordPress | undefined;
  let home: string | undefined;
  const cwd = process.cwd();
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('syncWorld: used before its beforeAll ran');
    return value;
  };
  beforeAll(async () => {
    [sandbox, wp] = await Promise.all([
      startTestSandbox(
        options.wordpressTimeoutMs !== undefined ? { wordpressTimeoutMs: options.wordpressTimeoutMs } : {},
      ),
      options.fakeWordPress === false ? undefined : startFakeWordPress(),
    ]);
    home = realpathSync(mkdtempSync(join(tmpdir(), `blogctl-${name}-`)));
  });
  afterEach(() => process.chdir(cwd));
  afterAll(async () => {
    process.chdir(cwd);
    await Promise.all([sandbox?.close(), wp?.close()]);
    if (home) rmSync(home, { recursive: true, force: true });
  });
  const world: SyncWorld = {
    get sandbox() {
      return ready(sandbox);
    },
    get wp() {
      return ready(wp);
    },
    get home() {
      return ready(home);
    },
    runner: ({ wp: site = world.wp, service = world.sandbox.url, profile } = {}) =>
      freshRunner({
        service: { url: service, apiKey: world.sandbox.apiKey },
        site: { url: site.url, username: site.username, password: site.password },
        ...(profile !== undefined && { profile }),
      }),
  };
  return world;
}

/**
 * For a file of `syncWorld(name, { fakeWordPress: false })`: fake WordPress sites of its own options (closed
 * after the file), and folders of posts published to one of them from a fresh runner each time.
 */
export function siteFolders(world: SyncWorld): {
  fakeSite: (options?: FakeWordPressOptions) => Promise<FakeWordPress>;
  folder: (
    wp: FakeWordPress,
  ) => Promise<{ dir: string; publish: (...extra: string[]) => Promise<CliResult> }>;
} {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(closers.map((c) => c()));
  });
  return {
    fakeSite: async (options = {}) => {
      const wp = await startFakeWordPress(options);
      closers.push(() => wp.close());
      return wp;
    },
    folder: async (wp) => {
      const dir = mkdtempSync(join(world.home, 'posts-'));
      return {
        dir,
        publish: async (...extra) => {
          const run = await world.runner({ wp });
          return run(['wp', 'publish', '--site', 'blog', dir, '--json', ...extra]);
        },
      };
    },
  };
}

/** The requests that changed something on a fake WordPress (anything but GET). */
export const writesTo = (wp: FakeWordPress): number => wp.requests.filter((r) => r.method !== 'GET').length;
