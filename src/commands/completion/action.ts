// `blogctl completion <shell>`: the script is written from the tree this very process parsed with, so it
// always matches the installed version.
import type { Command } from 'commander';
import { jsonFieldsByPath } from '../define.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { describeProgram, type CommandSpec } from './model.js';
import type { Shell } from './shell.js';
import { zshScript } from './zsh.js';
import type { Input } from './command.js';

const writers: Record<Shell, (root: CommandSpec) => string> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
};

/** The script for `shell` from `program`, the whole tree declared. */
export async function completionScript(shell: Shell, program: Command): Promise<string> {
  return writers[shell](describeProgram(program, await jsonFieldsByPath(program)));
}

export async function action({ args, command, deps }: Input): Promise<void> {
  let root = command;
  while (root.parent) root = root.parent;
  deps.io.outRaw(await completionScript(args[0], root));
}
