// The programs some tests drive (tmux for real terminals, zsh and fish for completion, dbus-daemon and
// gnome-keyring-daemon for a real OS keyring). The suite never installs them: `.ci/run` does, before the
// tests. Where one is missing, the tests that need it are skipped with a line saying which and why — unless
// BLOGCTL_TEST_REQUIRE_TOOLS is set (`.ci/run` sets it), where a missing tool fails the run instead, so a
// green CI always means every one of those tests ran.
import { spawnSync } from 'node:child_process';

/** The variable that turns a missing tool from a skip into a failure. */
export const REQUIRE_TOOLS = 'BLOGCTL_TEST_REQUIRE_TOOLS';

/** Whether `program` runs here (`program --version`, or `args`, exits 0). */
export function canRun(program: string, args: string[] = ['--version']): boolean {
  return spawnSync(program, args, { stdio: 'ignore' }).status === 0;
}

function required(env: NodeJS.ProcessEnv): boolean {
  const value = env[REQUIRE_TOOLS];
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * Of `tools` (name → whether it is there), those missing, with why: an empty object when every one is there.
 * With BLOGCTL_TEST_REQUIRE_TOOLS set a missing tool throws instead; otherwise each is announced on stderr as
 * skipped, naming `what` (the tests that need it).
 */
export function missingTools(
  what: string,
  tools: Record<string, boolean>,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const missing = Object.entries(tools)
    .filter(([, present]) => !present)
    .map(([name]) => name);
  if (!missing.length) return {};
  if (required(env)) {
    throw new Error(
      `${REQUIRE_TOOLS} is set, so ${what} must run, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed`,
    );
  }
  console.warn(
    `\n!!! ${what} SKIPPED: ${missing.join(', ')} not installed (.ci/run installs ${missing.length === 1 ? 'it' : 'them'})\n`,
  );
  return Object.fromEntries(missing.map((name) => [name, `${name} is not installed`]));
}

/** True when the tests needing `tools` should be skipped here (see missingTools). */
export function skipWithout(
  what: string,
  tools: Record<string, boolean>,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return Object.keys(missingTools(what, tools, env)).length > 0;
}
