// Glue between commander and the verb folders. A verb's command.ts declares it (flags, help, examples, JSON
// fields) with verb(); its action.ts runs it, loaded by `await import()` only when the verb runs, so start-up
// loads nothing but the parser and the declarations.
import { Argument, Command, Option } from 'commander';
import type {
  Argument as TypedArgument,
  Command as TypedCommand,
  Option as TypedOption,
} from '@commander-js/extra-typings';
import type { Deps, GlobalOptions } from '../factory.js';
import { commandPath } from '../output/help-layout.js';

export interface ActionInput<O = Record<string, unknown>, A extends unknown[] = unknown[]> {
  /** Positional arguments, in order (a variadic one arrives as an array). */
  args: A;
  /** This command's own options. */
  opts: O;
  globals: GlobalOptions;
  deps: Deps;
  command: Command;
  app: App;
}

type VerbAction = (input: ActionInput<never, never>) => Promise<void>;

export interface App {
  /** Builds the dependencies for the command being run (once per process). */
  deps(command: Command): Promise<Deps>;
  /** For long-running commands (the sandbox): SIGINT/SIGTERM is their normal way to stop, exit 0. */
  stopOnSignal(): void;
}

/** `load` returns the verb module; its `action` export runs it. */
function lazyAction(app: App, load: () => Promise<{ action: VerbAction }>) {
  return async (...all: unknown[]): Promise<void> => {
    const command = all[all.length - 1] as Command;
    const opts = all[all.length - 2] as Record<string, unknown>;
    const args = all.slice(0, -2);
    const { action } = await load();
    const globals = command.optsWithGlobals() as GlobalOptions;
    const deps = await app.deps(command);
    await action({ args: args as never, opts: opts as never, globals, deps, command, app });
  };
}

/** The flags a declaration's action gets, inferred from its `.option()`s and `.addOption()`s. */
type FlagsOf<C> = C extends TypedCommand<infer _A, infer O, infer _G> ? O : never;
/** Its positional arguments, inferred from its `.argument()`s and `.addArgument()`s. */
type ArgsOf<C> = C extends TypedCommand<infer A, infer _O, infer _G> ? A : never;
/** What the action of the verb `declare` declares gets: its arguments and flags typed as declared. */
export type InputOf<D extends () => unknown> = ActionInput<FlagsOf<ReturnType<D>>, ArgsOf<ReturnType<D>>>;

/** What a verb says about itself besides its flags: for help, the man page and completion. */
export interface VerbHelp {
  description: string;
  /** Text for the end of its --help, before the examples. */
  notes?: string;
  /** Command lines for its "Examples:" section. */
  examples?: string[];
  /** The fields of its `--json` output, or `'none'` (see jsonFields). */
  jsonFields: JsonFields | 'none';
  /** Left out of --help and of the completion scripts. */
  hidden?: boolean;
}

const hiddenVerbs = new WeakSet<Command>();
/** The group addVerb() is adding a verb to, while the verb is declared. */
let declaringIn: Command | undefined;

/**
 * Starts a verb's declaration. It is commander's own Command, typed by @commander-js/extra-typings (which
 * adds types only), so `.option()`, `.addOption(option(…))` and `.argument()` chained onto it make the type
 * its action's input is inferred from (InputOf): no flag type is written twice.
 */
export function verb(name: string, help: VerbHelp): TypedCommand {
  const command = new Command(name);
  // What `.command()` copies from the parent (the help option's text, output, error handling), before the
  // declaration's own settings (allowExcessArguments and the like) are applied over it.
  if (declaringIn) command.copyInheritedSettings(declaringIn);
  command.description(help.description);
  if (help.notes !== undefined) command.addHelpText('after', help.notes);
  if (help.examples) examples(command, help.examples);
  jsonFields(command, help.jsonFields);
  if (help.hidden) hiddenVerbs.add(command);
  return command as unknown as TypedCommand;
}

/** An option for `.addOption()` (for `.choices()`, `.default()` and the like), typed like `.option()`'s. */
export function option<Usage extends string>(flags: Usage, description?: string): TypedOption<Usage> {
  return new Option(flags, description) as unknown as TypedOption<Usage>;
}

/** An argument for `.addArgument()` (for `.choices()`), typed like `.argument()`'s. */
export function argument<Usage extends string>(name: Usage, description?: string): TypedArgument<Usage> {
  return new Argument(name, description) as unknown as TypedArgument<Usage>;
}

/** A declared verb: adds itself, its action lazily loaded, to a group (addVerb). */
export type Verb = (app: App) => Command;

/**
 * A verb from its declaration and its action module, which is imported only when the verb runs:
 * `export const login = defineVerb(declare, () => import('./action.js'))` in its command.ts.
 */
export function defineVerb<D extends () => unknown>(
  declare: D,
  load: () => Promise<{ action: (input: InputOf<D>) => Promise<void> }>,
): Verb {
  return (app) => {
    const command = declare() as unknown as Command;
    return command.action(lazyAction(app, load as unknown as () => Promise<{ action: VerbAction }>));
  };
}

/** Registers `verb` under `group` (a group's index.ts, or the root): one line per verb. */
export function addVerb(group: Command, app: App, verb: Verb): Command {
  declaringIn = group;
  let command: Command;
  try {
    command = verb(app);
  } finally {
    declaringIn = undefined;
  }
  group.addCommand(command, { hidden: hiddenVerbs.has(command) });
  return command;
}

// A group's subcommands are declared when the group is used, not at start-up: every run would pay for building
// all of the tree's commands and options, and a run uses one group. The group itself (name,
// description, arguments, examples) exists from the start, so `blogctl --help`, suggestions for a mistyped
// command and everything commander says about the root are unchanged. src/cli/run.ts declares a group's
// subcommands as commander dispatches to it, and all of them for whatever walks the whole tree (help topics,
// completion scripts); buildProgram() returns the whole tree.
const undeclared = new Map<Command, () => void>();

/** Declares `group`'s subcommands (`declare` adds them) when the group is used: see declareGroup. */
export function whenUsed(group: Command, declare: () => void): void {
  undeclared.set(group, declare);
}

/** Whether `command` still has subcommands to declare. */
export function hasUndeclared(command: Command): boolean {
  return undeclared.has(command);
}

/** Declares the subcommands of `group` if they are not yet; returns the commands it added. */
export function declareGroup(group: Command): Command[] {
  const declare = undeclared.get(group);
  if (!declare) return [];
  undeclared.delete(group);
  const before = new Set(descendants(group));
  declare();
  return descendants(group).filter((c) => !before.has(c));
}

/** Declares every group under `root`; returns the commands it added. */
export function declareAll(root: Command): Command[] {
  return root.commands.flatMap((c) => [...declareGroup(c), ...declareAll(c)]);
}

function descendants(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...descendants(c)]);
}

/** Adds an "Examples:" section to a command's --help. */
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * What a command's `--json` prints: its field names, or a loader of them when they are the verb module's own
 * constant (loaded only by what reads the fields: help pages, completion scripts, tests, never a run).
 */
export type JsonFields = readonly string[] | (() => Promise<readonly string[]>);

/** `'none'`: the command prints no data `--json` could shape (a script, a server, help). */
const jsonFieldsOfCommand = new WeakMap<Command, JsonFields | 'none'>();

/**
 * Declares the fields of `command`'s `--json` output (what help lists and completion offers), or `'none'`
 * for a command that prints no data. Every verb declares one or the other (test/helpers/command-tree.ts).
 */
function jsonFields<C extends Command>(command: C, fields: JsonFields | 'none'): C {
  jsonFieldsOfCommand.set(command, fields);
  return command;
}

/** What `command` declared with jsonFields(), if anything. */
export function declaredJsonFields(command: Command): JsonFields | 'none' | undefined {
  return jsonFieldsOfCommand.get(command);
}

/**
 * The `--json` fields of every command under `root` that declares some, by command path (`wp sites add`):
 * of the subcommands declared so far, so the whole tree's once buildProgram() or declareAll() built it.
 */
export async function jsonFieldsByPath(root: Command): Promise<Record<string, string[]>> {
  const table: Record<string, string[]> = {};
  for (const command of descendants(root)) {
    const fields = jsonFieldsOfCommand.get(command);
    if (fields === undefined || fields === 'none') continue;
    table[commandPath(command)] = [...(typeof fields === 'function' ? await fields() : fields)];
  }
  return table;
}
