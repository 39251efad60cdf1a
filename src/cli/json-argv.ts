// `--json [fields]` takes an optional value, so in `blogctl --json blog list` commander would read "blog" as
// the field list: the command line is rewritten before commander reads it.
import type { Command } from 'commander';

/**
 * A `--json` followed by the name of a subcommand of the command the line has reached is a bare `--json`
 * (`--json=`, which the option's parser makes true). Only a subcommand *there* counts: in
 * `blogctl config list --json settings` "settings" is a field, though `wp settings` is a command.
 */
export function bareJsonBeforeCommands(argv: string[], program: Command): string[] {
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
