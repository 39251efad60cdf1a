// The declared command tree, for the suites that must cover every command: a verb (a command with no
// subcommands: it has an action) declared in src/ is one the JSON-output sweep, the fault matrix, the secrets
// sweep and the completion-fields check must run, and each fails when it does not. Their per-verb data (the
// arguments that run a verb, its fault route) cannot be derived: each verb keeps it in its own sweep.ts
// (test/helpers/sweeps.ts). A row's key is the verb's path, optionally followed by the form it runs
// (`wp publish --dry-run`).
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { declaredJsonFields, jsonFieldsByPath } from '../../src/commands/define.js';
import { commandPath } from '../../src/output/help-layout.js';

/** The whole tree, as help pages and completion scripts see it. */
export function commandTree(): Command {
  return buildProgram({
    deps: () => Promise.reject(new Error('the tree is only read here')),
    stopOnSignal() {},
  });
}

function descendants(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...descendants(c)]);
}

/** Every verb's command path (`wp sites add`), hidden ones included. */
export function verbPaths(root: Command): string[] {
  return descendants(root)
    .filter((c) => c.commands.length === 0)
    .map(commandPath);
}

/** Verbs that declare neither their `--json` fields nor that they print no data (jsonFields in define.ts). */
export function verbsWithoutJsonDeclaration(root: Command): string[] {
  return descendants(root)
    .filter((c) => c.commands.length === 0 && declaredJsonFields(c) === undefined)
    .map(commandPath);
}

/** Verbs that print data `--json` shapes: they declared fields. */
export function verbsWithJsonFields(root: Command): string[] {
  return descendants(root)
    .filter((c) => {
      const fields = declaredJsonFields(c);
      return c.commands.length === 0 && fields !== undefined && fields !== 'none';
    })
    .map(commandPath);
}

/** Each verb's declared `--json` fields, by command path. */
export function declaredFields(root: Command = commandTree()): Promise<Record<string, string[]>> {
  return jsonFieldsByPath(root);
}

/** The verbs of `paths` that no key of a sweep's table names (the path itself, or the path and a form). */
export function missingFrom(paths: string[], keys: Iterable<string>): string[] {
  const all = [...keys];
  return paths.filter((path) => !all.some((key) => key === path || key.startsWith(`${path} `)));
}
