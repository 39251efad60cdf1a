// vitest globalSetup for the end-to-end suite: brings up real WordPress instances side by side with
// test/e2e/wordpress/up.sh — pretty permalinks on 8081, plain ones (`?rest_route=`) on 8082, and the same
// pair with blogctl's companion plugin (wordpress-plugin/) as an mu-plugin on 8083 and 8084 — hands their
// KEY=value output to the tests (provide/inject: `wordpress` and `wordpressPlugin`), and runs down.sh for all
// at teardown, and also when the bring-up itself fails. Every instance has the test mu-plugins of
// test/e2e/wordpress/mu-plugins/ (inert until a test switches them on).
//
// Knobs: BLOGCTL_E2E_WP_PORTS="8081,8082" (pretty,plain), BLOGCTL_E2E_PLUGIN_PORTS="8083,8084" (pretty,plain;
// "off": no plugin instances, and the tests that need them are skipped), BLOGCTL_E2E_KEEP=1 (leave them
// running; up.sh reuses a healthy instance next time in ~0.1 s), BLOGCTL_E2E_UP_TIMEOUT (seconds, default
// 900: the first run installs Debian packages).
import { readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { WordPressInstance } from './instances.js';

const UP = fileURLToPath(new URL('./wordpress/up.sh', import.meta.url));
const DOWN = fileURLToPath(new URL('./wordpress/down.sh', import.meta.url));
const TEST_MU_PLUGINS = fileURLToPath(new URL('./wordpress/mu-plugins/', import.meta.url));
const SYNC_PLUGIN = fileURLToPath(
  new URL('../../wordpress-plugin/blogctl-sync/blogctl-sync.php', import.meta.url),
);
/** up.sh's default WP_APP_NAME; set explicitly so the tests know it. */
const APP_NAME = 'blogctl-e2e';

interface Planned {
  permalinks: 'pretty' | 'plain';
  port: number;
  /** blogctl's companion plugin installed as an mu-plugin. */
  syncPlugin: boolean;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const planned = plan();
  const started = performance.now();
  const results = await Promise.allSettled(planned.map(bringUp));
  const failed = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${planned[i]!.permalinks}: ${message(r.reason)}`] : [],
  );
  if (failed.length) {
    // Whatever did come up goes away again. A failed instance was already stopped by up.sh, which kept its
    // logs in the state dir: keep them for inspection (the next up.sh clears them).
    const keepLogs = planned.filter((_, i) => results[i]!.status === 'rejected');
    await tearDown(planned, keepLogs);
    throw new Error(`WordPress bring-up failed:\n${failed.join('\n')}`);
  }
  const instances = results.map((r) => (r as PromiseFulfilledResult<WordPressInstance>).value);
  log(
    `${instances.length} WordPress instances ready in ${seconds(started)} (${instances.map((i) => `${i.permalinks}${i.syncPlugin ? ' with the plugin' : ''} ${i.baseUrl}`).join(', ')})`,
  );
  project.provide(
    'wordpress',
    instances.filter((i) => !i.syncPlugin),
  );
  project.provide(
    'wordpressPlugin',
    instances.filter((i) => i.syncPlugin),
  );
  return () => tearDown(planned);
}

function plan(): Planned[] {
  const pair = (knob: string, fallback: string, syncPlugin: boolean): Planned[] => {
    const raw = process.env[knob] ?? fallback;
    if (syncPlugin && raw.trim() === 'off') return [];
    const ports = raw.split(',').map((p) => Number(p.trim()));
    if (
      ports.length !== 2 ||
      ports.some((p) => !Number.isInteger(p) || p <= 0 || p > 65535) ||
      ports[0] === ports[1]
    ) {
      throw new Error(`${knob}: expected two different ports "pretty,plain", got "${raw}"`);
    }
    return [
      { permalinks: 'pretty', port: ports[0]!, syncPlugin },
      { permalinks: 'plain', port: ports[1]!, syncPlugin },
    ];
  };
  const planned = [
    ...pair('BLOGCTL_E2E_WP_PORTS', '8081,8082', false),
    ...pair('BLOGCTL_E2E_PLUGIN_PORTS', '8083,8084', true),
  ];
  const ports = planned.map((p) => p.port);
  if (new Set(ports).size !== ports.length)
    throw new Error(`BLOGCTL_E2E_WP_PORTS and BLOGCTL_E2E_PLUGIN_PORTS share a port: ${ports.join(', ')}`);
  return planned;
}

/** The mu-plugins an instance gets: the test ones always, the companion plugin on the plugin instances. */
function muPlugins(syncPlugin: boolean): string {
  const tests = readdirSync(TEST_MU_PLUGINS)
    .filter((f) => f.endsWith('.php'))
    .sort()
    .map((f) => `${TEST_MU_PLUGINS}${f}`);
  return [...(syncPlugin ? [SYNC_PLUGIN] : []), ...tests].join(' ');
}

async function bringUp({ permalinks, port, syncPlugin }: Planned): Promise<WordPressInstance> {
  const started = performance.now();
  const timeoutS = Number(process.env['BLOGCTL_E2E_UP_TIMEOUT'] ?? 900);
  const { code, stdout } = await run(
    UP,
    {
      WP_PORT: String(port),
      WP_PERMALINKS: permalinks,
      WP_APP_NAME: APP_NAME,
      WP_MU_PLUGINS: muPlugins(syncPlugin),
    },
    timeoutS * 1000,
  );
  if (code !== 0) throw new Error(`up.sh (port ${port}) exited with ${code}; its log is above`);
  const env = parseEnv(stdout);
  const need = (key: string): string => {
    const value = env[key];
    if (!value) throw new Error(`up.sh (port ${port}) printed no ${key}; stdout was:\n${stdout}`);
    return value;
  };
  const instance: WordPressInstance = {
    permalinks,
    baseUrl: need('WP_BASE_URL'),
    restUrl: need('WP_REST_URL'),
    username: need('WP_USERNAME'),
    appPassword: need('WP_APP_PASSWORD'),
    adminPassword: need('WP_ADMIN_PASSWORD'),
    appPasswordName: APP_NAME,
    stateDir: need('WP_STATE_DIR'),
    port: Number(need('WP_PORT')),
    authorUsername: need('WP_AUTHOR_USERNAME'),
    authorAppPassword: need('WP_AUTHOR_APP_PASSWORD'),
    editorUsername: need('WP_EDITOR_USERNAME'),
    editorAppPassword: need('WP_EDITOR_APP_PASSWORD'),
    syncPlugin,
  };
  if (need('WP_PERMALINKS') !== permalinks)
    throw new Error(`up.sh (port ${port}) came up with ${env['WP_PERMALINKS']} permalinks`);
  log(
    `${permalinks} WordPress${syncPlugin ? ' with the plugin' : ''} on ${instance.baseUrl} up in ${seconds(started)}`,
  );
  return instance;
}

async function tearDown(planned: Planned[], keepLogs: Planned[] = []): Promise<void> {
  if (process.env['BLOGCTL_E2E_KEEP'] === '1') {
    log(`BLOGCTL_E2E_KEEP=1: leaving WordPress running on ports ${planned.map((p) => p.port).join(', ')}`);
    return;
  }
  const started = performance.now();
  const results = await Promise.all(
    planned.map((p) =>
      run(
        DOWN,
        { WP_PORT: String(p.port), ...(keepLogs.includes(p) && { WP_KEEP_STATE: '1' }) },
        120_000,
      ).catch((e: unknown) => ({ code: message(e), stdout: '' })),
    ),
  );
  for (const p of keepLogs)
    log(`logs of the failed ${p.permalinks} bring-up: /tmp/blogctl-wp-e2e-${p.port}/`);
  const bad = results.map((r, i) => [planned[i]!.port, r.code] as const).filter(([, code]) => code !== 0);
  if (bad.length)
    throw new Error(`down.sh failed: ${bad.map(([port, code]) => `port ${port}: ${code}`).join(', ')}`);
  log(`WordPress instances stopped in ${seconds(started)}`);
}

/**
 * Runs a script with stdout captured and stderr passed through. Only fds 0–2 reach the child (Node marks every
 * other descriptor close-on-exec), so no daemon up.sh starts can hold our pipe open.
 */
function run(
  script: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    // SIGTERM lets up.sh's EXIT trap stop what it started.
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close' waits for the end of stdout. Should a daemon ever inherit the pipe after all, the script's exit
    // must still end the wait: the values are printed last, just before up.sh exits.
    let graceTimer: NodeJS.Timeout | undefined;
    child.on('exit', () => {
      graceTimer = setTimeout(() => {
        log(`${script}: stdout still open 5 s after the script exited (a daemon holds the pipe?); going on`);
        child.stdout.destroy();
      }, 5_000);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      resolve({ code: code ?? `signal ${signal}`, stdout });
    });
  });
}

/** `KEY=value` lines (up.sh guarantees no spaces or quotes in values); anything else is ignored. */
export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]!] = m[2]!;
  }
  return env;
}

function log(line: string): void {
  process.stderr.write(`[e2e] ${line}\n`);
}
function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}
function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
