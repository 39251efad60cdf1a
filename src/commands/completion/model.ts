// Reads the commander tree into a plain description that the three script writers share: commands (with
// aliases), options (with whether they take a value and what values to offer) and positional arguments.
// It works from whatever buildProgram() returns, so the scripts follow the tree as commands are added.
import type { Argument, Command, Option } from 'commander';
import { CONFIG_KEYS } from '../../config/keys.js';
import { SORT_VALUES } from './fields.js';

/** Values only the local config knows; the scripts ask `blogctl __complete <kind>` for them. */
export const DYNAMIC_KINDS = ['sites', 'profiles'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

/** What to offer for an option's value or a positional argument. */
export interface ValueSource {
  choices?: string[];
  dynamic?: DynamicKind;
  /** Complete file names (options whose value is a `<path>` or `<file>`). */
  files?: boolean;
  /** A comma-separated list of the choices (`--json id,title`): complete the word after the last comma. */
  list?: boolean;
}

export interface OptionSpec {
  /** Short and long spellings, e.g. ['-f', '--file']. */
  names: string[];
  description: string;
  /** `optional` (`--json [fields]`) never swallows the next word while walking the line: see walkers. */
  value: 'none' | 'required' | 'optional';
  values: ValueSource;
  /** An option of the root, accepted by every command. */
  global: boolean;
}

export interface ArgSpec {
  name: string;
  variadic: boolean;
  values: ValueSource;
  /**
   * Values that depend on the positional words typed before this argument, each as [those words, values]:
   * `config set default-site <TAB>` offers site ids, `help wp <TAB>` the subcommands of `wp`. They win over
   * `values` where the words match.
   */
  after: [string[], ValueSource][];
}

export interface CommandSpec {
  /** Canonical names from the root, e.g. ['wp', 'sites', 'show']; [] for the root. */
  path: string[];
  name: string;
  aliases: string[];
  description: string;
  /** The command's own options, then the root's global ones (commander accepts those at any depth). */
  options: OptionSpec[];
  /**
   * What a global option's value completes to at this command, where that depends on the command: the fields
   * of its `--json` output. Keyed by the option's long name.
   */
  globalValues: Record<string, ValueSource>;
  args: ArgSpec[];
  commands: CommandSpec[];
}

const HELP_TOPICS = ['environment', 'exit-codes'];

/**
 * What an option's value completes to where commander has no `.choices()`: the value lives in the local
 * config, or the option takes more than the words worth offering (`--length` accepts any case). Keyed by the
 * long name, which means the same in every command. Only commander's choices and these lists become words:
 * a placeholder such as `<name|id>` describes a value, it does not list them.
 */
const OPTION_VALUES: Record<string, ValueSource> = {
  '--site': { dynamic: 'sites' },
  '--publish': { dynamic: 'sites' },
  '--profile': { dynamic: 'profiles' },
  '--length': { choices: ['short', 'medium', 'long'] },
  '--sort': { choices: SORT_VALUES },
};

/** `config set <key> <value>`: the keys whose values only the local config knows. */
const CONFIG_VALUES: Record<string, ValueSource> = {
  'default-site': { dynamic: 'sites' },
};

/** `jsonFields`: each command's `--json` fields by command path (jsonFieldsByPath in commands/define.ts). */
export function describeProgram(root: Command, jsonFields: Record<string, readonly string[]>): CommandSpec {
  const help = root.createHelp();
  const rootOptions = help.visibleOptions(root);
  // --help belongs to every command already; --version only to the root.
  const isGlobal = (o: Option): boolean => o.long !== '--help' && o.long !== '--version';
  const globals = rootOptions.filter(isGlobal).map((o) => optionSpec(o, true));

  const walk = (cmd: Command, path: string[]): CommandSpec => {
    const own = help.visibleOptions(cmd).map((o) => optionSpec(o, cmd === root && isGlobal(o)));
    const commands = help
      .visibleCommands(cmd)
      // Commander gives every group an implicit `help [command]`; `--help` says the same, so leave it out.
      .filter((sub) => !(sub.name() === 'help' && path.length > 0))
      .map((sub) => walk(sub, [...path, sub.name()]));
    return {
      path,
      name: cmd.name(),
      aliases: cmd.aliases(),
      description: oneLine(cmd.summary() || cmd.description()),
      options: path.length ? [...own, ...globals.filter((g) => !own.some((o) => sameOption(o, g)))] : own,
      globalValues: Object.hasOwn(jsonFields, path.join(' '))
        ? { '--json': { choices: [...jsonFields[path.join(' ')]!], list: true } }
        : {},
      args: cmd.registeredArguments.map((arg) => argSpec(arg, path, root)),
      commands,
    };
  };
  return walk(root, []);
}

/** Every command in the tree, the root first. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.commands.flatMap(allCommands)];
}

function optionSpec(option: Option, global: boolean): OptionSpec {
  const names = [option.short, option.long].filter((n): n is string => Boolean(n));
  const value = option.required ? 'required' : option.optional ? 'optional' : 'none';
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  let values: ValueSource = {};
  if (option.argChoices?.length) values.choices = [...option.argChoices];
  else if (option.long && OPTION_VALUES[option.long]) values = { ...OPTION_VALUES[option.long] };
  // `<path>`, `<file>`, `<path|->`: a file on this machine.
  else if (/^(path|file)\b/.test(valueName)) values.files = true;
  return { names, description: oneLine(option.description), value, values, global };
}

function argSpec(arg: Argument, path: string[], root: Command): ArgSpec {
  const name = arg.name();
  const values: ValueSource = {};
  const after: [string[], ValueSource][] = [];
  const where = path.join(' ');
  if (arg.argChoices?.length) values.choices = [...arg.argChoices];
  // Every `wp sites <verb> <id>` but `add` names an existing site profile.
  else if (path.length === 3 && path[0] === 'wp' && path[1] === 'sites' && path[2] !== 'add' && name === 'id')
    values.dynamic = 'sites';
  else if (where === 'auth switch' && name === 'profile') values.dynamic = 'profiles';
  else if (/^config (get|set|unset)$/.test(where) && name === 'key')
    values.choices = CONFIG_KEYS.map((k) => k.name);
  // `wp publish [files...]`: posts on this machine.
  else if (/^(path|file)/.test(name)) values.files = true;
  else if (where === 'config set' && name === 'value')
    for (const [key, source] of Object.entries(CONFIG_VALUES)) after.push([[key], source]);
  // `help [topic...]`: a topic or a command first, then the subcommands of the command typed so far.
  else if (where === 'help') after.push(...helpPaths(root));
  return { name, variadic: arg.variadic, values, after };
}

/** [command path, the words `help <path> <TAB>` offers] for the root and every group below it. */
function helpPaths(root: Command): [string[], ValueSource][] {
  const help = root.createHelp();
  const walk = (cmd: Command, path: string[]): [string[], ValueSource][] => {
    const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help');
    if (!subs.length) return [];
    const names = subs.map((c) => c.name());
    return [
      [path, { choices: path.length ? names : [...HELP_TOPICS, ...names] }],
      ...subs.flatMap((c) => walk(c, [...path, c.name()])),
    ];
  };
  return walk(root, []);
}

function sameOption(a: OptionSpec, b: OptionSpec): boolean {
  return a.names.some((n) => b.names.includes(n));
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.replace(/\s+/g, ' ').trim();
}
