// A failed run's report: its one error line (hints under it on a terminal), the JSON error object with
// --json, the stack with --debug; and its exit code from README's contract. What it writes with (IO, the JSON
// helpers, redaction) is handed in, loaded only when there is something to report.
import { CommanderError } from 'commander';
import { BlogctlError, ExitCode } from '../errors.js';
import type { GlobalOptions } from '../factory.js';
import type { IO } from '../output/io.js';

export function report(
  error: unknown,
  io: IO,
  globals: GlobalOptions,
  argv: string[],
  interrupted: boolean,
  lib: Pick<typeof import('../output/json.js'), 'argvWantsJson' | 'wantsJson'> & {
    redact: typeof import('../output/redact.js').redact;
  },
): number {
  const { argvWantsJson, wantsJson: jsonGiven, redact } = lib;
  // Parse errors come before the options are known: --json anywhere on the line counts.
  const wantsJson = jsonGiven(globals.json) || argvWantsJson(argv);
  // Commander's parse errors arrive here as UsageErrors in our wording (usage-wording.ts); help and
  // --version are not failures.
  if (isHelpOrVersion(error)) return ExitCode.ok;
  if (interrupted && !(error instanceof BlogctlError && error.exitCode !== ExitCode.interrupted)) {
    io.error('interrupted');
    if (wantsJson)
      io.stderr.write(`${JSON.stringify({ error: 'interrupted', message: 'interrupted', exitCode: 130 })}\n`);
    return ExitCode.interrupted;
  }
  if (error instanceof BlogctlError) {
    const hints = error.context.hints ?? [];
    // A person at a terminal gets the advice as a list under the line. A script's stderr (a CI or cron log)
    // gets exactly one line, with the advice folded into it rather than lost: for `wp sites verify` it is
    // the very answer (the likely causes of a 401). With --json the object carries the hints as well.
    if (io.stderrIsTTY || !hints.length) io.error(error.message);
    else io.error(`${error.message} (${hints.join('; ')})`);
    if (io.stderrIsTTY)
      for (const line of [...hints, ...(error.context.details ?? [])])
        io.stderr.write(io.forStderr(`  • ${line}\n`));
    if (wantsJson) io.stderr.write(redact(`${JSON.stringify(error.toJSON())}\n`));
    if (io.debugEnabled && error.stack) io.stderr.write(redact(`${error.stack}\n`));
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.error(`unexpected error: ${message.split('\n')[0]} (run with --debug for details)`);
  if (wantsJson)
    io.stderr.write(redact(`${JSON.stringify({ error: 'unexpected', message, exitCode: 1 })}\n`));
  if (io.debugEnabled && error instanceof Error && error.stack) io.stderr.write(redact(`${error.stack}\n`));
  return ExitCode.unexpected;
}

export function isHelpOrVersion(error: unknown): boolean {
  return (
    error instanceof CommanderError &&
    (error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help')
  );
}
