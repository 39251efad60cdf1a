// Glue between commander and the verb files. Group files (commands/<group>/index.ts) only declare flags and
// help; each action `await import()`s its verb, so start-up loads nothing but the parser.
import type { Command } from 'commander';
import type { Deps, GlobalOptions } from '../factory.js';
import { commandPath } from '../output/help-layout.js';

export interface ActionInput<O = Record<string, unknown>> {
  /** Positional arguments, in order (a variadic one arrives as an array). */
  args: unknown[];
  /** This command's own options. */
  opts: O;
  globals: GlobalOptions;
  deps: Deps;
  command: Command;
  app: App;
}

export type VerbAction = (input: ActionInput<never>) => Promise<void>;

export interface App {
  /** Builds the dependencies for the command being run (once per process). */
  deps(command: Command): Promise<Deps>;
  /** For long-running commands (the sandbox): SIGINT/SIGTERM is their normal way to stop, exit 0. */
  stopOnSignal(): void;
}

/** `load` returns the verb module; its `action` export runs it. */
export function lazyAction(app: App, load: () => Promise<{ action: VerbAction }>) {
  return async (...all: unknown[]): Promise<void> => {
    const command = all[all.length - 1] as Command;
    const opts = all[all.length - 2] as Record<string, unknown>;
    const args = all.slice(0, -2);
    const { action } = await load();
    const globals = command.optsWithGlobals() as GlobalOptions;
    const deps = await app.deps(command);
    await action({ args, opts: opts as never, globals, deps, command, app });
  };
}

// A group's subcommands are declared when the group is used, not at start-up: every run would pay for building
// all of the tree's commands and options, and a run uses one group. The group itself (name,
// description, arguments, examples) exists from the start, so `blogctl --help`, suggestions for a mistyped
// command and everything commander says about the root are unchanged. cli.ts declares a group's subcommands
// as commander dispatches to it, and all of them for whatever walks the whole tree (help topics, completion
// scripts); buildProgram() returns the whole tree.
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
export function jsonFields<C extends Command>(command: C, fields: JsonFields | 'none'): C {
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
