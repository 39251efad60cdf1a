// What the three script writers share: quoting, and the tables every script encodes as `case` statements
// keyed by "<command path>|<word>" (the path is the canonical command names joined by spaces; "" is the root).
import type { ArgSpec, CommandSpec, OptionSpec, ValueSource } from './model.js';
import { allCommands } from './model.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** A POSIX single-quoted word (bash and zsh). */
export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A fish single-quoted word: only \ and ' are special inside. */
export function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export const key = (cmd: CommandSpec): string => cmd.path.join(' ');

/** Any command path: a global option means the same everywhere. */
export const ANY = Symbol('any command');
export type Path = string | typeof ANY;

/** A `case` pattern for "<path>|<word>" (bash and zsh; fish matches '*' inside quotes itself). */
export function casePattern(path: Path, word: string, quote: (s: string) => string = sq): string {
  return path === ANY ? `*${quote(`|${word}`)}` : quote(`${path}|${word}`);
}

export interface Tables {
  commands: CommandSpec[];
  /** [path, word typed, canonical name]: every subcommand name and alias. */
  subcommands: [string, string, string][];
  /** [path, option name] for options whose next word is their value; path ANY for global options. */
  takesValue: [Path, string][];
  /**
   * [path, option] for options with values to offer; path ANY for global options, and a path of its own for a
   * global option whose values depend on the command (`--json` fields).
   */
  optionValues: [Path, OptionSpec][];
  /** [path, option name] for options whose value is optional (`--json [fields]`) and has values to offer. */
  optionalValue: [Path, string][];
  /** [path, index, argument] for positional arguments with values to offer. */
  argValues: [string, number, ArgSpec][];
  /**
   * [path, positional words before the cursor, values]: what to offer after exactly those words, before
   * argValues is asked (`config set default-site <TAB>`, `help wp <TAB>`).
   */
  argAfter: [string, string[], ValueSource][];
}

export function tables(root: CommandSpec): Tables {
  const commands = allCommands(root);
  const t: Tables = {
    commands,
    subcommands: [],
    takesValue: [],
    optionValues: [],
    optionalValue: [],
    argValues: [],
    argAfter: [],
  };
  for (const cmd of commands) {
    const path = key(cmd);
    for (const sub of cmd.commands)
      for (const word of [sub.name, ...sub.aliases]) t.subcommands.push([path, word, sub.name]);
    for (const option of cmd.options) {
      // Global options are listed once, from the root.
      if (option.global && cmd.path.length) continue;
      const where = option.global ? ANY : path;
      if (option.value === 'required') for (const name of option.names) t.takesValue.push([where, name]);
      if (option.value !== 'none' && hasValues(option.values)) t.optionValues.push([where, option]);
      if (option.value === 'optional' && hasValues(option.values))
        for (const name of option.names) t.optionalValue.push([where, name]);
    }
    for (const [long, values] of Object.entries(cmd.globalValues)) {
      const option = cmd.options.find((o) => o.names.includes(long));
      if (!option || !hasValues(values)) continue;
      t.optionValues.push([path, { ...option, values }]);
      if (option.value === 'optional') for (const name of option.names) t.optionalValue.push([path, name]);
    }
    cmd.args.forEach((arg, index) => {
      if (hasValues(arg.values)) t.argValues.push([path, index, arg]);
      for (const [words, values] of arg.after) if (hasValues(values)) t.argAfter.push([path, words, values]);
    });
  }
  return t;
}

/** Entries grouped by path, in first-seen order: one `case` arm per command keeps the scripts readable. */
export function byPath<T>(entries: [Path, T][]): [Path, T][][] {
  const groups = new Map<Path, [Path, T][]>();
  for (const entry of entries) groups.set(entry[0], [...(groups.get(entry[0]) ?? []), entry]);
  return [...groups.values()];
}

function hasValues(values: ValueSource): boolean {
  return Boolean(values.choices?.length || values.dynamic || values.files);
}

export const header = (shell: Shell, install: string[]): string =>
  [
    `# ${shell} completion for blogctl.`,
    `# Generated from the command tree by \`blogctl completion ${shell}\`; do not edit, generate it again.`,
    ...install.map((line) => `# ${line}`),
    '',
  ].join('\n');
