// Spawns the built CLI (bin/blogctl.js → dist/) as a real process, the way a script or cron job would.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/blogctl.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. Without it stdin is an empty, closed pipe (never a terminal). */
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

/** Every flag `blog create` requires, so that nothing is prompted for; the keywords may be chosen. */
export function createFlags(keywords = 'home espresso,grinder'): string[] {
  return [
    '-k',
    keywords,
    '--language',
    'English',
    '--tone',
    'Friendly',
    '--structure',
    'How-to guide',
    '--cta',
    'Subscribe',
    '--audience',
    'Beginners',
    '--length',
    'short',
  ];
}

/** A fresh, empty config dir for one test. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'blogctl-test-'));
}

/** The caller's environment without its BLOGCTL_* / CI / colour / proxy variables, plus `overrides`. */
export function cliEnv(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (
      /^(BLOGCTL_|CI$|NO_COLOR$|FORCE_COLOR$|CLICOLOR|HTTPS?_PROXY$|https?_proxy$|NO_PROXY$|no_proxy$)/.test(
        k,
      )
    )
      continue;
    base[k] = v;
  }
  const env: Record<string, string> = { ...base };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * Runs `blogctl ...args`. The environment is scrubbed of the caller's BLOGCTL_* / CI / proxy variables so a
 * developer's own settings never leak into a test; pass what the test needs in `env`.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const env = cliEnv(options.env);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
