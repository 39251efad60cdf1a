// A command's --help as data (HelpPage), and the one function that lays it out at a width (renderHelp).
//
// Commander decides what a page says: usage, description, the visible arguments, options and subcommands
// with their terms. blogctl decides how it looks: helpFormatting() makes commander's formatHelp render the
// page through renderHelp. The same pages, taken from the whole command tree when dist/ is built
// (helpTree() in src/cli/help-tree.ts, written to dist/help.json), let `blogctl [command...] --help` print
// without loading commander at all (src/help-entry.ts): one layout, two ways in, and a test that they agree.
//
// On the start-up path of every --help: nothing here imports commander at run time (types only).
import type { Command, Help, Option } from 'commander';
import { DEFAULT_HELP_WIDTH, displayWidth, fillWords, formatRows } from './wrap.js';

/** A term (`-s, --site <name>`, `list [options]`) and what it does. */
export type HelpItem = readonly [term: string, description: string];

/** What commander's formatHelp would lay out for one command, without a width. */
export interface HelpPage {
  /** `blogctl wp publish [options] [files...]`, without "Usage: ". */
  usage: string;
  description: string;
  /**
   * Titled lists in commander's order: Arguments, Options (by help group), Inherited flags, Commands (by help
   * group); then JSON fields, whose `words` are filled as a paragraph.
   */
  sections: { title: string; items: HelpItem[]; words?: string[] }[];
}

/** The fields a command's `--json` offers, by the command; undefined for a command without JSON output. */
export type JsonFieldsOf = (cmd: Command) => readonly string[] | undefined;

/** The command's path below the root (`wp sites add`), which JsonFieldsOf implementations key on. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The page commander would lay out for `cmd`, read through its Help helper's public methods, with what gh
 * adds to a command's help: the flags it inherits from the commands above it (`--json`, `--jq`, `-q`, …;
 * not `--version`, which only the root answers), and the fields its `--json` offers.
 */
export function helpPage(cmd: Command, helper: Help, jsonFieldsOf?: JsonFieldsOf): HelpPage {
  const sections: HelpPage['sections'] = [];
  const add = (title: string, items: HelpItem[]): void => {
    if (items.length) sections.push({ title, items });
  };
  const option = (o: Option): HelpItem => [helper.optionTerm(o), helper.optionDescription(o)];
  add(
    'Arguments:',
    helper.visibleArguments(cmd).map((a) => [helper.argumentTerm(a), helper.argumentDescription(a)]),
  );
  const options = helper.groupItems<Option>(
    cmd.options as Option[],
    helper.visibleOptions(cmd),
    (option) => option.helpGroupHeading ?? 'Options:',
  );
  for (const [title, list] of options) add(title, list.map(option));
  const inherited: Option[] = [];
  for (let above = cmd.parent; above; above = above.parent)
    inherited.push(...(above.options as Option[]).filter((o) => !o.hidden && o.long !== '--version'));
  add('Inherited flags:', inherited.map(option));
  const commands = helper.groupItems<Command>(
    cmd.commands as Command[],
    helper.visibleCommands(cmd),
    (sub) => sub.helpGroup() || 'Commands:',
  );
  for (const [title, list] of commands)
    add(
      title,
      list.map((c) => [helper.subcommandTerm(c), helper.subcommandDescription(c)]),
    );
  const fields = jsonFieldsOf?.(cmd);
  if (fields?.length)
    sections.push({
      title: 'JSON fields:',
      items: [],
      words: fields.map((f, i, all) => (i < all.length - 1 ? `${f},` : f)),
    });
  return { usage: helper.commandUsage(cmd), description: helper.commandDescription(cmd), sections };
}

/**
 * The page at `width` columns, laid out as commander lays out its help, with descriptions wrapped under
 * themselves (formatRows): side by side while a description keeps 24 cells or more (commander would stop
 * wrapping below 40 and let each line run past the edge), under its term below that.
 */
export function renderHelp(page: HelpPage, width = DEFAULT_HELP_WIDTH): string {
  const out = [`Usage: ${page.usage}`, ''];
  // The description keeps its own line breaks.
  if (page.description)
    out.push(...page.description.split(/\r?\n/).flatMap((line) => fillWords(line, width)), '');
  const termWidth = Math.max(0, ...page.sections.flatMap((s) => s.items.map(([term]) => displayWidth(term))));
  for (const { title, items, words } of page.sections)
    out.push(
      title,
      ...(words
        ? fillWords(words.join(' '), Math.max(1, width - 2)).map((line) => `  ${line}`)
        : formatRows(items, width, 2, termWidth)),
      '',
    );
  return out.join('\n');
}

/** For configureHelp(): commander's help pages laid out by renderHelp. */
export function helpFormatting(jsonFieldsOf?: JsonFieldsOf): Partial<Help> {
  return {
    formatHelp: (cmd: Command, helper: Help): string =>
      renderHelp(helpPage(cmd, helper, jsonFieldsOf), helper.helpWidth ?? DEFAULT_HELP_WIDTH),
  };
}
