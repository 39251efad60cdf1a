// One run of the CLI: parses argv, runs the command, and returns the exit code (only bin/ exits). Errors
// become their documented exit codes (report.ts); SIGINT and SIGTERM abort what is in flight.
import { CommanderError, type Command } from 'commander';
import { declareAll, declareGroup, hasUndeclared, type App } from '../commands/define.js';
import { ExitCode, BlogctlError, InterruptedError } from '../errors.js';
import type { Deps, GlobalOptions } from '../factory.js';
import { helpFormatting } from '../output/help-layout.js';
import { withOwnSecrets } from '../output/secret-scope.js';
import type { IO } from '../output/io.js';
import { helpWidthOf, wrapText } from '../output/wrap.js';
import { jsonFieldsTable } from './help-tree.js';
import { jqStage } from './jq.js';
import { bareJsonBeforeCommands } from './json-argv.js';
import { declareProgram } from './program.js';
import { isHelpOrVersion, report } from './report.js';

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  io?: IO;
}

/** Parses argv, runs the command and returns the exit code. Only bin/ exits. */
export async function run(argv: string[], options: RunOptions = {}): Promise<number> {
  // The secrets a run registers are its own (output/secret-scope.ts): one run per process for the CLI, and
  // runs in-process kept apart as processes are.
  return withOwnSecrets(() => runOnce(argv, options));
}

async function runOnce(argv: string[], options: RunOptions): Promise<number> {
  const env = options.env ?? process.env;
  const controller = new AbortController();
  let deps: Deps | undefined;
  let globalsSeen: GlobalOptions = {};
  const jq = jqStage(controller.signal, options);
  let stopOnSignal = false;
  const app: App = {
    stopOnSignal() {
      stopOnSignal = true;
    },
    async deps(command) {
      globalsSeen = command.optsWithGlobals() as GlobalOptions;
      // Imported when a command runs: the factory brings the config store (and the keyring code), which
      // --help, --version and parse errors never touch.
      const { createDeps } = await import('../factory.js');
      const io = jq.io(globalsSeen, env) ?? options.io;
      deps ??= createDeps({ globals: globalsSeen, env, signal: controller.signal, ...(io && { io }) });
      return deps;
    },
  };
  const program = declareProgram(app);
  program.exitOverride();
  // The command a parse error of commander's was raised in: its message names it (usage-wording.ts).
  let failedIn: Command | undefined;
  const configure = await configureOutput(program, argv, options, (cmd) => (failedIn = cmd));
  for (const cmd of allCommands(program)) configure(cmd);
  // `blogctl` alone prints its help to stdout and exits 0, as gh does: the help is what was asked for.
  if (argv.length <= 2) {
    program.outputHelp();
    return ExitCode.ok;
  }
  // The group the command line goes to gets its subcommands now; help topics, completion scripts and the
  // sandbox get the whole tree, as they walk it (or may).
  program.hook('preSubcommand', (_root, sub) => {
    for (const added of hasUndeclared(sub) ? declareGroup(sub) : declareAll(program)) configure(added);
  });
  program.hook('preAction', () => jq.start(program));
  // `--json <word>`: whether <word> is a command name needs all of them.
  if (argv.some((arg, i) => arg === '--json' && i + 1 < argv.length))
    for (const added of declareAll(program)) configure(added);

  const signals = interruptOnSignal(controller);
  try {
    await program.parseAsync(bareJsonBeforeCommands(argv, program));
    await jq.print();
    return signals.interrupted() && !stopOnSignal ? ExitCode.interrupted : ExitCode.ok;
  } catch (error) {
    // --help and --version have nothing to report, so they build no IO.
    if (isHelpOrVersion(error)) return ExitCode.ok;
    // What reporting needs loads only now: --help, --version and a command that succeeds never report.
    const [{ IO }, json, { redact, registerSecret }] = await Promise.all([
      import('../output/io.js'),
      import('../output/json.js'),
      import('../output/redact.js'),
    ]);
    // The secrets this machine stores are hidden from the report too, though the command may have failed
    // before it read them: a bad value quoted from a file could be one of them.
    if (deps) registerStoredSecrets(deps, registerSecret);
    const io = deps?.io ?? options.io ?? new IO({ env, noColor: argv.includes('--no-color') });
    // A command that fails after printing its JSON (a batch with a failed item) still gets it filtered.
    await jq.print().catch((jqError: unknown) => io.error((jqError as Error).message));
    // Commander's parse errors are usage errors, reported in the same form as ours.
    const failure =
      error instanceof CommanderError
        ? (await import('./usage-wording.js')).usageErrorOf(error, failedIn)
        : error;
    const code = report(failure, io, globalsSeen, argv, signals.interrupted(), { ...json, redact });
    // In GitHub Actions, input errors also as annotations on the file and line they name.
    if (code === ExitCode.usage && failure instanceof BlogctlError && env['GITHUB_ACTIONS'] === 'true') {
      const { annotationsFor, formatAnnotation } = await import('../output/annotations.js');
      const lines =
        failure.context.inputs ??
        (failure.context.details?.length ? failure.context.details : [failure.message]);
      for (const a of annotationsFor(lines)) io.stderr.write(redact(`${formatAnnotation(a)}\n`));
    }
    return code;
  } finally {
    signals.dispose();
    await deps?.cleanup();
  }
}

/**
 * Where commander writes (help, its errors) and how help is laid out: returns what applies it to a command,
 * for the root and every command declared later.
 */
async function configureOutput(
  program: Command,
  argv: string[],
  options: RunOptions,
  onError: (cmd: Command) => void,
): Promise<(cmd: Command) => void> {
  const stdout = options.io?.stdout ?? process.stdout;
  // Help (and the help topics) fit the terminal, or 80 columns when stdout is not one: a command's page is
  // laid out at that width (helpFormatting), and wrapText wraps the text added after it (examples, notes),
  // which commander writes as given. src/help-entry.ts prints the same help from dist/help.json.
  const helpWidth = (): number => helpWidthOf(stdout);
  const output = {
    writeOut: (s: string) => void stdout.write(wrapText(s, helpWidth())),
    getOutHelpWidth: helpWidth,
    writeErr: (s: string) => void (options.io?.stderr ?? process.stderr).write(s),
  };
  // Commander's errors are not written where it raises them: the run reports them as it reports its own
  // (report.ts), in one form; what is kept is which command raised it.
  const outputFor = (cmd: Command) => ({ ...output, outputError: () => onError(cmd) });
  program.configureOutput(outputFor(program));
  // A command's help page lists its JSON fields: their table is loaded only when a command's help may be
  // printed (the root's has none).
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  const fields =
    argv.some((a) => a === '--help' || a === '-h' || a === 'help') && words.some((w) => w !== 'help')
      ? await jsonFieldsTable()
      : undefined;
  const helpConfig = helpFormatting(fields);
  program.configureHelp(helpConfig);
  return (cmd) => {
    cmd.exitOverride();
    cmd.configureOutput(outputFor(cmd));
    cmd.configureHelp(helpConfig);
  };
}

/**
 * SIGINT and SIGTERM abort what the command has in flight (InterruptedError, exit 130). A second one ends
 * whatever did not stop at the first, at once, as Node's default would (a shell sees 130). Config writes
 * are atomic, so nothing is left half-written.
 */
function interruptOnSignal(controller: AbortController): { interrupted(): boolean; dispose(): void } {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) {
      dispose();
      process.kill(process.pid, signal);
      return;
    }
    interrupted = true;
    controller.abort(new InterruptedError());
  };
  const dispose = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { interrupted: () => interrupted, dispose };
}

/** Registers the API keys and Application Passwords in credentials.json, if it can be read. */
function registerStoredSecrets(deps: Deps, register: (secret: string) => void): void {
  try {
    const { apiKeys = {}, sitePasswords = {} } = deps.store().readCredentials();
    for (const secret of [...Object.values(apiKeys), ...Object.values(sitePasswords)]) register(secret);
  } catch {
    // A store that cannot be read (missing, damaged, not trusted): the command's own error says so if it
    // matters; there is nothing of it to hide.
  }
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}
