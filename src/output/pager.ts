// Long text for a person at a terminal goes through a pager, as gh and git do: BLOGCTL_PAGER, else PAGER,
// else `less -FRX` (which quits at once when the text fits the screen, keeps colour and leaves the text on
// the screen). An empty value or `cat` means no pager. A pager that cannot be started, or that fails,
// leaves the text to be printed as it would have been without one. The caller decides that a person is
// there (stdout a terminal, no --json); nothing here pages otherwise.
import { spawn } from 'node:child_process';
import type { IO } from './io.js';
import { redact } from './redact.js';
import { terminalSafe } from './terminal-text.js';

export const DEFAULT_PAGER = 'less -FRX';

/** The pager command for `env`, or undefined for none. */
export function pagerCommand(env: Record<string, string | undefined>): string | undefined {
  const chosen = env['BLOGCTL_PAGER'] ?? env['PAGER'] ?? DEFAULT_PAGER;
  const command = chosen.trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/**
 * The pager's environment: less's defaults when the person has set none, as gh does (the same as
 * `less -FRX`), and the text's encoding. blogctl's text is always UTF-8; less takes its charset from the
 * locale, so without a UTF-8 locale (LANG=C, a bare cron or ssh session) it shows `…` as `<E2><80><A6>`.
 * LESSCHARSET=utf-8 tells it, unless the person chose a charset (LESSCHARSET or LESSCHARDEF).
 */
export function pagerEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    ...env,
    LESS: env['LESS'] ?? 'FRX',
    LV: env['LV'] ?? '-c',
    ...(env['LESSCHARSET'] === undefined && env['LESSCHARDEF'] === undefined && { LESSCHARSET: 'utf-8' }),
  };
}

/**
 * Shows `text` through the pager on stdout; prints it to stdout when there is no pager, or the pager could
 * not be started or failed (exit status other than 0).
 */
export async function page(
  io: Pick<IO, 'stdout' | 'outRaw'>,
  env: Record<string, string | undefined>,
  text: string,
): Promise<void> {
  const command = pagerCommand(env);
  // The pager writes to the terminal what it is given: data's control characters are shown, not obeyed,
  // as io.outRaw does for text it prints itself.
  if (command === undefined || !(await runPager(command, terminalSafe(redact(text)), io.stdout, env)))
    io.outRaw(text);
}

/** Whether the pager ran and exited 0. */
function runPager(
  command: string,
  text: string,
  stdout: IO['stdout'],
  env: Record<string, string | undefined>,
): Promise<boolean> {
  return new Promise((resolve) => {
    // The real terminal is handed to the pager itself; any other stream (a test's) gets what it writes.
    const direct = stdout === process.stdout;
    let child;
    try {
      child = spawn(command, {
        shell: true,
        stdio: ['pipe', direct ? 'inherit' : 'pipe', 'ignore'],
        env: pagerEnv(env),
      });
    } catch {
      resolve(false);
      return;
    }
    if (!direct) child.stdout?.on('data', (chunk: Buffer) => stdout.write(chunk));
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
    // A pager quit before reading everything (q in less) closes its end: that is not an error.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(text);
  });
}
