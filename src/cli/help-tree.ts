// Every command's help as data, for dist/help.json (scripts/build.mjs), and the table of each command's
// `--json` fields that help pages list.
import type { Command } from 'commander';
import { jsonFieldsByPath, type App } from '../commands/define.js';
import { commandPath, helpPage, type HelpPage, type JsonFieldsOf } from '../output/help-layout.js';
import { buildProgram } from './program.js';

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

/** An App for a tree that is only read: nothing in it runs. */
const READ_ONLY: App = {
  deps: () => Promise.reject(new Error('help pages run no command')),
  stopOnSignal() {},
};

export async function helpTree(): Promise<HelpTree> {
  const fields = await jsonFieldsTable();
  const program = buildProgram(READ_ONLY);
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
export async function jsonFieldsTable(): Promise<JsonFieldsOf> {
  const table = await jsonFieldsByPath(buildProgram(READ_ONLY));
  return (cmd) => (Object.hasOwn(table, commandPath(cmd)) ? table[commandPath(cmd)] : undefined);
}
