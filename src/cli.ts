// Builds the commander tree and maps every error to the documented exit code. Each action imports its
// verb lazily (commands/define.ts), so start-up loads only commander and these declarations.
import { Command, CommanderError, Option } from 'commander';
import { registerAuth } from './commands/auth/index.js';
import { registerBlog } from './commands/blog/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerConfig } from './commands/config/index.js';
import {
  declareAll,
  declareGroup,
  examples,
  hasUndeclared,
  jsonFields,
  jsonFieldsByPath,
  lazyAction,
  type App,
} from './commands/define.js';
import { registerWp } from './commands/wp/index.js';
import { BlogctlError, ExitCode, InterruptedError, UsageError } from './errors.js';
import type { Deps, GlobalOptions } from './factory.js';
import type { IO, IOOptions } from './output/io.js';
import {
  commandPath,
  helpFormatting,
  helpPage,
  type HelpPage,
  type JsonFieldsOf,
} from './output/help-layout.js';
import { DEFAULT_HELP_WIDTH, helpWidthOf, wrapText } from './output/wrap.js';

declare const BLOGCTL_VERSION: string;
declare const BLOGCTL_VERSION_LINE: string;
export const VERSION = typeof BLOGCTL_VERSION === 'string' ? BLOGCTL_VERSION : '0.0.0-dev';
/** What --version prints, as gh does: name, version and build date (scripts/build.mjs). */
export const VERSION_LINE =
  typeof BLOGCTL_VERSION_LINE === 'string' ? BLOGCTL_VERSION_LINE : `blogctl version ${VERSION}`;

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  io?: IO;
}

/** The whole command tree. */
export function buildProgram(app: App): Command {
  const program = declareProgram(app);
  declareAll(program);
  return program;
}

/** The root and its groups; each group's subcommands are declared when it is used (commands/define.ts). */
function declareProgram(app: App): Command {
  const program = new Command('blogctl')
    .description('Create AI-written blog posts, manage WordPress integrations and publish them.')
    .version(VERSION_LINE, '-V, --version', 'print the version and build date')
    .helpOption('-h, --help', 'show help')
    .option('--base-url <url>', 'service base URL (env BLOGCTL_BASE_URL)')
    .option('--profile <name>', 'account profile to use (env BLOGCTL_PROFILE)')
    // `--json=` (also what a bare `--json` before a command name becomes: see bareJsonBeforeCommands) is a
    // bare --json: true, like `--json` at the end of the line, never an empty string a command could test
    // as false.
    .option('--json [fields]', 'print JSON; optionally only these comma-separated fields', (v: string) =>
      v === '' ? true : v,
    )
    .option('--jq <expression>', 'filter the JSON output with a jq expression (implies --json)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--no-input', 'never prompt; fail naming the missing flag (env BLOGCTL_NO_INPUT)')
    .option('--timeout <seconds>', 'response timeout in seconds (env BLOGCTL_TIMEOUT)')
    .option('--retries <n>', 'retries for requests that are safe to repeat (default 3)')
    .option('--debug', 'log requests (method, URL, status, timing; secrets redacted) to stderr')
    .option('-q, --quiet', 'print only the identifying value (ids, names, keys) and no notes')
    .option('--sandbox', 'run against a local in-process sandbox (env BLOGCTL_SANDBOX=1)')
    .showSuggestionAfterError(true)
    .addHelpCommand(false);
  examples(program, [
    'blogctl --sandbox blog create -k "home espresso" --length short',
    'blogctl auth login',
    'blogctl blog list --json id,title',
    'blogctl wp publish --site myblog --title "Hello" --content-file post.md',
  ]);
  program.addHelpText('after', '\nMore: blogctl help environment · blogctl help exit-codes\n');

  registerAuth(program, app);
  registerConfig(program, app);
  registerBlog(program, app);
  registerWp(program, app);
  registerCompletion(program, app);

  const sandbox = program
    .command('sandbox')
    .description('run a local implementation of the service (no account needed)')
    .option('--port <port>', 'port to listen on', '4010')
    .option(
      '--host <host>',
      'address to listen on; beyond loopback (0.0.0.0, ::, a LAN address) other machines can reach it',
      '127.0.0.1',
    )
    .option(
      '--api-key-file <file>',
      'accepted API keys, one a line, in a file only you can read (0600); or env BLOGCTL_SANDBOX_KEYS',
    )
    .option(
      '--api-key <key>',
      'accepted API key (repeatable); visible in ps and shell history: prefer --api-key-file',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--data <file>', 'persist state in this JSON file (default: memory only)')
    .option('--latency <ms>', 'simulated generation time for create-blog', '0')
    .option('--quota <MB>', "storage each API key's records may take (507 beyond it)", '100')
    .addOption(
      new Option('--delete-status <status>', 'status of a successful delete')
        .choices(['200', '204'])
        .default('200'),
    )
    .addOption(
      new Option(
        '--publish-shape <shape>',
        'publish response shape: typed {isPublished, link, id, status, type} or alt {success, postUrl, postId}',
      )
        .choices(['typed', 'alt'])
        .default('typed'),
    )
    .option(
      '--allow-private-relay',
      'listening beyond loopback, still relay publishes to loopback, link-local and private addresses (refused by default)',
    )
    .option(
      '--provider-url <url>',
      'write posts with a model: an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (env BLOGCTL_PROVIDER_URL)',
    )
    .option('--model <name>', "the provider's model, e.g. llama3.2 (env BLOGCTL_MODEL)")
    .option(
      '--provider-key-stdin',
      "read the provider key from stdin's first line, for requests that bring none (env BLOGCTL_PROVIDER_API_KEY)",
    )
    .option('--prompts <dir>', 'prompt files that replace the shipped ones by name (env BLOGCTL_PROMPTS_DIR)')
    .addHelpText(
      'after',
      `
What it accepts:
  Bodies up to 5 MB (413), nesting objects and arrays up to 256 levels (400).
  A request answered before its body is read (a 401) gets Connection: close;
  the rest of its body is never read.
  A POST's Idempotency-Key replays the first answer for the same body (24 h);
  another body with the same key gets 422.
  At most 20 keywords of 100 characters (400); each key's records up to
  --quota MB (507). A change is answered once it is on disk; one the disk
  refuses gets 507 and is kept nowhere.
Keys: --api-key-file FILE (one a line, mode 0600) or BLOGCTL_SANDBOX_KEYS=a,b;
  --api-key shows the key in ps and shell history.
Beyond loopback (--host 0.0.0.0, ::, a LAN address):
  It prints the address it listens on and warns that other machines can reach
  it. The publish relay refuses sites on loopback, link-local and private
  addresses (400) unless --allow-private-relay.`,
    )
    .action(lazyAction(app, () => import('./commands/sandbox.js')));
  jsonFields(sandbox, 'none');
  examples(sandbox, [
    'blogctl sandbox   # generates a key and prints it',
    'blogctl sandbox --port 0 --data ./sandbox.json --publish-shape alt',
    'blogctl sandbox --host 0.0.0.0 --api-key-file ~/.sandbox-keys   # reachable from the LAN',
    'blogctl sandbox --provider-url http://127.0.0.1:11434/v1 --model llama3.2   # posts written by a local model',
  ]);

  const help = program
    .command('help [topic...]')
    .description('help for a command, or a topic: environment, exit-codes')
    .action(async function (this: Command, topic: string[]) {
      const { helpTopic } = await import('./commands/help.js');
      const output = this.configureOutput();
      const text = helpTopic(topic.join(' '), output.getOutHelpWidth?.() ?? DEFAULT_HELP_WIDTH);
      if (text !== undefined) return void output.writeOut?.(text);
      const target = topic.reduce<Command | undefined>(
        (cmd, name) => cmd?.commands.find((c) => c.name() === name || c.aliases().includes(name)),
        program,
      );
      if (!target)
        throw new CommanderError(
          ExitCode.usage,
          'blogctl.unknownTopic',
          `unknown help topic "${topic.join(' ')}" (try: environment, exit-codes, or a command name)`,
        );
      target.outputHelp();
    });
  jsonFields(help, 'none');
  examples(help, ['blogctl help exit-codes', 'blogctl help environment', 'blogctl help wp publish']);
  return program;
}

/**
 * What `blogctl [command...] --help` writes, for every command: what commander passes to writeOut in order,
 * each piece either text (wrapped by wrapText as it is written) or the command's page (laid out by
 * renderHelp). scripts/build.mjs writes it to dist/help.json, from which src/help-entry.ts prints help
 * without loading commander; test/unit/help-pages.test.ts checks both ways print the same at any width.
 */
export interface HelpTree {
  pieces: (string | HelpPage)[];
  commands: Record<string, HelpTree>;
  /** alias → name (`wp sites rm` is `wp sites remove`). */
  aliases: Record<string, string>;
}

export async function helpTree(): Promise<HelpTree> {
  const fields = await jsonFieldsTable();
  const program = buildProgram({
    deps: () => Promise.reject(new Error('help pages run no command')),
    stopOnSignal() {},
  });
  const PAGE = '\u0000page\u0000';
  const tree = (cmd: Command): HelpTree => {
    const pieces: HelpTree['pieces'] = [];
    let page: HelpPage | undefined;
    cmd.configureHelp({
      formatHelp: (c, helper) => {
        page = helpPage(c, helper, fields);
        return PAGE;
      },
    });
    cmd.configureOutput({ writeOut: (s) => void pieces.push(s === PAGE ? page! : s) });
    cmd.outputHelp();
    const node: HelpTree = { pieces, commands: {}, aliases: {} };
    for (const sub of cmd.commands) {
      node.commands[sub.name()] = tree(sub);
      for (const alias of sub.aliases()) node.aliases[alias] = sub.name();
    }
    return node;
  };
  return tree(program);
}

/** The fields each command's `--json` offers, as the whole tree declares them (for help pages). */
async function jsonFieldsTable(): Promise<JsonFieldsOf> {
  const table = await jsonFieldsByPath(
    buildProgram({
      deps: () => Promise.reject(new Error('help pages run no command')),
      stopOnSignal() {},
    }),
  );
  return (cmd) => (Object.hasOwn(table, commandPath(cmd)) ? table[commandPath(cmd)] : undefined);
}

/** Parses argv, runs the command and returns the exit code. Only bin/ exits. */
export async function run(argv: string[], options: RunOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const controller = new AbortController();
  let deps: Deps | undefined;
  let globalsSeen: GlobalOptions = {};
  // --jq: the command's JSON goes into this buffer, and jq's results to stdout when it is done.
  let jq:
    | {
        expression: string;
        capture: import('./output/jq.js').JqCapture;
        IO: typeof import('./output/io.js').IO;
      }
    | undefined;
  let stopOnSignal = false;
  const app: App = {
    stopOnSignal() {
      stopOnSignal = true;
    },
    async deps(command) {
      globalsSeen = command.optsWithGlobals() as GlobalOptions;
      // Imported when a command runs: the factory brings the config store (and the keyring code), which
      // --help, --version and parse errors never touch.
      const { createDeps } = await import('./factory.js');
      deps ??= createDeps({
        globals: globalsSeen,
        env,
        signal: controller.signal,
        ...(jq
          ? { io: jqIO(jq.IO, globalsSeen, env, jq.capture.stream, options.io) }
          : options.io && { io: options.io }),
      });
      return deps;
    },
  };
  const program = declareProgram(app);
  /** jq's results over what the command printed (nothing when it printed nothing). */
  const printJq = async (): Promise<void> => {
    const { expression } = jq ?? {};
    const document = jq?.capture.text();
    // Once: a failure here is reported, not filtered again.
    jq = undefined;
    if (expression === undefined || document === undefined) return;
    const [{ runJq }, { redact }] = await Promise.all([
      import('./output/jq.js'),
      import('./output/redact.js'),
    ]);
    const output = await runJq(expression, document, controller.signal);
    const stdout = options.io?.stdout ?? process.stdout;
    // jq's text results are values printed as they are: on a terminal, no control character in them is obeyed.
    const safe = stdout.isTTY ? (await import('./output/terminal-text.js')).terminalSafe : undefined;
    stdout.write(safe ? safe(redact(output)) : redact(output));
  };
  program.exitOverride();
  const stdout = options.io?.stdout ?? process.stdout;
  // Help (and the help topics) fit the terminal, or 80 columns when stdout is not one: a command's page is
  // laid out at that width (helpFormatting), and wrapText wraps the text added after it (examples, notes),
  // which commander writes as given. src/help-entry.ts prints the same help from dist/help.json.
  const helpWidth = (): number => helpWidthOf(stdout);
  const output = {
    writeOut: (s: string) => void stdout.write(wrapText(s, helpWidth())),
    getOutHelpWidth: helpWidth,
    writeErr: (s: string) => void (options.io?.stderr ?? process.stderr).write(s),
    // One line, like every other error: commander puts its "(Did you mean …?)" on a second one.
    outputError: (s: string, write: (s: string) => void) =>
      write(`${commanderMessage(s).replace(/^(?!error:)/, 'error: ')}\n`),
  };
  program.configureOutput(output);
  // A command's help page lists its JSON fields: their table is loaded only when a command's help may be
  // printed (the root's has none).
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  const fields =
    argv.some((a) => a === '--help' || a === '-h' || a === 'help') && words.some((w) => w !== 'help')
      ? await jsonFieldsTable()
      : undefined;
  const helpConfig = helpFormatting(fields);
  program.configureHelp(helpConfig);
  const configure = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.configureOutput(output);
    cmd.configureHelp(helpConfig);
  };
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
  // --jq implies --json (a field list, when given, is applied first), set before any action reads the options.
  // The expression is checked here, before the command does anything.
  program.hook('preAction', async () => {
    const expression = program.getOptionValue('jq') as string | undefined;
    if (expression === undefined || jq) return;
    const [jqOutput, { IO }, { wantsJson: jsonGiven }] = await Promise.all([
      import('./output/jq.js'),
      import('./output/io.js'),
      import('./output/json.js'),
    ]);
    await jqOutput.checkJq(expression, controller.signal);
    if (!jsonGiven(program.getOptionValue('json') as GlobalOptions['json']))
      program.setOptionValue('json', true);
    jq = { expression, capture: jqOutput.jqStdout(), IO };
  });
  // `--json <word>`: whether <word> is a command name needs all of them.
  if (argv.some((arg, i) => arg === '--json' && i + 1 < argv.length))
    for (const added of declareAll(program)) configure(added);

  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) {
      // A second Ctrl-C ends whatever did not stop at the first, at once, as Node's default would (a shell
      // sees 130). Config writes are atomic, so nothing is left half-written.
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.kill(process.pid, signal);
      return;
    }
    interrupted = true;
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await program.parseAsync(bareJsonBeforeCommands(argv, program));
    await printJq();
    return interrupted && !stopOnSignal ? ExitCode.interrupted : ExitCode.ok;
  } catch (error) {
    // --help and --version have nothing to report, so they build no IO.
    if (isHelpOrVersion(error)) return ExitCode.ok;
    // What reporting needs loads only now: --help, --version and a command that succeeds never report.
    const [{ IO }, json, { redact }] = await Promise.all([
      import('./output/io.js'),
      import('./output/json.js'),
      import('./output/redact.js'),
    ]);
    const io = deps?.io ?? options.io ?? new IO({ env, noColor: argv.includes('--no-color') });
    // A command that fails after printing its JSON (a batch with a failed item) still gets it filtered.
    await printJq().catch((jqError: unknown) => io.error((jqError as Error).message));
    const code = report(error, io, globalsSeen, argv, interrupted, { ...json, redact });
    // In GitHub Actions, input errors also as annotations on the file and line they name.
    if (code === ExitCode.usage && error instanceof BlogctlError && env['GITHUB_ACTIONS'] === 'true') {
      const { annotationsFor, formatAnnotation } = await import('./output/annotations.js');
      const lines =
        error.context.inputs ?? (error.context.details?.length ? error.context.details : [error.message]);
      for (const a of annotationsFor(lines)) io.stderr.write(redact(`${formatAnnotation(a)}\n`));
    }
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await deps?.cleanup();
  }
}

/**
 * The IO a command gets with --jq: its stdout is the buffer jq reads; everything else is what it would have
 * had (the given IO's stdin and stderr in tests, the process's otherwise).
 */
function jqIO(
  IOClass: typeof import('./output/io.js').IO,
  globals: GlobalOptions,
  env: NodeJS.ProcessEnv,
  stdout: IOOptions['stdout'],
  given?: IO,
): IO {
  return new IOClass({
    ...(given && { stdin: given.stdin, stderr: given.stderr }),
    stdout,
    env,
    noColor: globals.color === false,
    noInput: globals.input === false,
    quiet: Boolean(globals.quiet),
    debug: Boolean(globals.debug),
  });
}

function report(
  error: unknown,
  io: IO,
  globals: GlobalOptions,
  argv: string[],
  interrupted: boolean,
  lib: Pick<typeof import('./output/json.js'), 'argvWantsJson' | 'wantsJson'> & {
    redact: typeof import('./output/redact.js').redact;
  },
): number {
  const { argvWantsJson, wantsJson: jsonGiven, redact } = lib;
  // Parse errors come before the options are known: --json anywhere on the line counts.
  const wantsJson = jsonGiven(globals.json) || argvWantsJson(argv);
  if (error instanceof CommanderError) {
    if (isHelpOrVersion(error)) return 0;
    // Commander has written its line (with a suggestion, when it has one) through outputError.
    const message = commanderMessage(error.message).replace(/^error: /, '');
    if (error.code === 'blogctl.unknownTopic') io.error(message);
    if (wantsJson) io.stderr.write(redact(`${JSON.stringify(new UsageError(message).toJSON())}\n`));
    return ExitCode.usage;
  }
  if (interrupted && !(error instanceof BlogctlError && error.exitCode !== ExitCode.interrupted)) {
    io.error('interrupted');
    if (wantsJson)
      io.stderr.write(
        `${JSON.stringify({ error: 'interrupted', message: 'Interrupted.', exitCode: 130 })}\n`,
      );
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

/**
 * `--json [fields]` takes an optional value, so in `blogctl --json blog list` commander would read "blog" as
 * the field list. A `--json` followed by the name of a subcommand of the command the line has reached is a
 * bare `--json` (`--json=`, which the option's parser makes true). Only a subcommand *there* counts: in
 * `blogctl config list --json settings` "settings" is a field, though `wp settings` is a command.
 */
function bareJsonBeforeCommands(argv: string[], program: Command): string[] {
  const out = [...argv];
  let reached = program;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    const next = argv[i + 1];
    if (arg === '--json') {
      if (next !== undefined && subcommand(reached, next)) out[i] = '--json=';
      else if (next !== undefined && !next.startsWith('-')) i++;
    } else if (arg.startsWith('-')) {
      // A value of an option of this command or of one above it is not a command name.
      if (!arg.includes('=') && takesValue(reached, arg)) i++;
    } else {
      reached = subcommand(reached, arg) ?? reached;
    }
  }
  return out;
}

function subcommand(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

function takesValue(cmd: Command, flag: string): boolean {
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const option of c.options) if (option.long === flag || option.short === flag) return option.required;
  return false;
}

/** Commander's message on one line, without the final newline. */
function commanderMessage(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

function isHelpOrVersion(error: unknown): boolean {
  return (
    error instanceof CommanderError &&
    (error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help')
  );
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}
