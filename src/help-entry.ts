// `blogctl [command...] --help` (or -h), and `blogctl help [command...]`, printed from dist/help.json
// without loading the parser: the help of every command is known when dist/ is built (helpTree() in
// src/cli/help-tree.ts), so a run that only asks for it need not build the command tree to lay it out
// again. The same idea as oclif's command manifest. The layout is the one src/cli/run.ts gives commander
// (renderHelp, wrapText), at the same width; test/unit/help-pages.test.ts and test/commands/help.test.ts
// check that both ways print the same. Anything else on the command line (another flag, an argument, a help
// topic, a command that does not exist) is left to the parser: printHelp returns undefined.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HelpTree } from './cli.js';
import { renderHelp } from './output/help-layout.js';
import { helpWidthOf, wrapText } from './output/wrap.js';

interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Prints the help `args` (the command line after `blogctl`) asks for and resolves to exit code 0, or
 * returns undefined when the command line is not a plain request for a command's help.
 */
export function printHelp(
  args: readonly string[],
  stdout: Output = process.stdout,
  tree?: HelpTree,
): Promise<number> | undefined {
  const path = helpPath(args);
  if (!path) return undefined;
  const text = helpText(path, helpWidthOf(stdout), tree ?? loadTree());
  if (text === undefined) return undefined;
  stdout.write(text);
  return Promise.resolve(0);
}

/**
 * The help of the command at `path`, undefined if the tree has no such command. A tree not shaped as the
 * build writes it (a dist/help.json edited or damaged by hand) is left to the parser as well, before anything
 * is written.
 */
function helpText(path: readonly string[], width: number, tree: unknown): string | undefined {
  try {
    let node = tree as HelpTree;
    for (const word of path) {
      const name: string = Object.hasOwn(node.aliases, word) ? node.aliases[word]! : word;
      if (!Object.hasOwn(node.commands, name)) return undefined;
      node = node.commands[name]!;
    }
    return node.pieces
      .map((piece) => wrapText(typeof piece === 'string' ? piece : renderHelp(piece, width), width))
      .join('');
  } catch {
    return undefined;
  }
}

/** The command names `args` asks help for, or undefined when it asks for something else. */
export function helpPath(args: readonly string[]): readonly string[] | undefined {
  const plain = (list: readonly string[]): boolean => list.every((a) => /^\w[\w-]*$/.test(a));
  const last = args[args.length - 1];
  if ((last === '--help' || last === '-h') && plain(args.slice(0, -1))) return args.slice(0, -1);
  if (args[0] === 'help' && plain(args.slice(1))) return args.slice(1);
  return undefined;
}

/** dist/help.json; undefined if it cannot be read (a dist/ built by hand, in part): the parser answers. */
function loadTree(): unknown {
  try {
    return JSON.parse(readFileSync(join(import.meta.dirname, 'help.json'), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
