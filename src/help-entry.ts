// `blogctl [command...] --help` (or -h), and `blogctl help [command...]`, printed from dist/help.json
// without loading the parser: the help of every command is known when dist/ is built (helpTree() in
// cli.ts), so a run that only asks for it need not build the command tree to lay it out again. The same
// idea as oclif's command manifest. The layout is the one cli.ts gives commander (renderHelp, wrapText), at
// the same width; test/unit/help-pages.test.ts and test/process/help.test.ts check that both ways print
// the same. Anything else on the command line (another flag, an argument, a help topic, a command that does
// not exist) is left to the parser: printHelp returns undefined.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HelpTree } from './cli.js';
import { renderHelp } from './output/help-layout.js';
import { DEFAULT_HELP_WIDTH, wrapText } from './output/wrap.js';

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
  tree: HelpTree | undefined = loadTree(),
): Promise<number> | undefined {
  const path = helpPath(args);
  if (!path) return undefined;
  let node: HelpTree | undefined = tree;
  if (!node) return undefined;
  for (const word of path) {
    const name: string = Object.hasOwn(node.aliases, word) ? node.aliases[word]! : word;
    node = Object.hasOwn(node.commands, name) ? node.commands[name] : undefined;
    if (!node) return undefined;
  }
  const width = (stdout.isTTY && stdout.columns) || DEFAULT_HELP_WIDTH;
  for (const piece of node.pieces)
    stdout.write(wrapText(typeof piece === 'string' ? piece : renderHelp(piece, width), width));
  return Promise.resolve(0);
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
function loadTree(): HelpTree | undefined {
  try {
    return JSON.parse(readFileSync(join(import.meta.dirname, 'help.json'), 'utf8')) as HelpTree;
  } catch {
    return undefined;
  }
}
