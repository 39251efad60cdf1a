// Glue between commander and the verb files. Group files (commands/<group>/index.ts) only declare flags and
// help; each action `await import()`s its verb, so start-up loads nothing but the parser.
import type { Command } from 'commander';
import type { Deps, GlobalOptions } from '../factory.js';

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
  deps(command: Command): Deps;
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
    await action({ args, opts: opts as never, globals, deps: app.deps(command), command, app });
  };
}

/** Adds an "Examples:" section to a command's --help. */
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
