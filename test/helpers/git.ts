// git for tests: in a folder, with a fixed identity and no system or user configuration, each commit at a
// chosen time so commit dates order commits as the test means them to.
import { execFileSync } from 'node:child_process';

/** git `args` in `cwd`, authored and committed at `at` (seconds since the epoch); its output, trimmed. */
export function git(cwd: string, args: string[], at = 1_700_000_000): string {
  const date = `@${at} +0000`;
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.test',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.test',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  }).trim();
}
