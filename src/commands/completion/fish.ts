// The fish script: fish's own `complete` entries, each guarded by the command path under the cursor (found by
// the same walker as bash and zsh), so `list` under `blog` and under `wp sites` stay apart.
import type { CommandSpec, OptionSpec, ValueSource } from './model.js';
import { ANY, byPath, fishQuote as fq, header, key, tables } from './shell.js';

export function fishScript(root: CommandSpec): string {
  const t = tables(root);
  const at = (path: string, index?: string, words?: string[]): string =>
    // Command paths and argument words are plain words and spaces: double quotes inside the single-quoted
    // condition need no escapes.
    fq(
      `__blogctl_at "${path}"${index === undefined ? '' : ` ${index}`}${words ? ` "${words.join(' ')}"` : ''}`,
    );
  // -x: takes a value, and no file names; -r -F: takes a file name.
  const words = (v: ValueSource): string =>
    v.choices
      ? v.list
        ? fq(`(__blogctl_list ${v.choices.join(' ')})`)
        : fq(v.choices.join(' '))
      : fq(`(__blogctl_dynamic ${v.dynamic})`);
  const values = (v: ValueSource): string => (v.files ? '-r -F' : `-x -a ${words(v)}`);
  const argValues = (v: ValueSource): string => (v.files ? '-F' : `-a ${words(v)}`);
  const describe = (text: string): string => (text ? ` -d ${fq(text)}` : '');
  const option = (o: OptionSpec, condition: string | undefined): string => {
    const names = o.names
      .map((n) => (n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`))
      .join(' ');
    const start = `complete -c blogctl${condition ? ` -n ${condition}` : ''} ${names}`;
    if (o.value === 'required' && (o.values.choices || o.values.dynamic))
      // fish shows an entry's description beside every value it offers: the values (site ids, fields) come
      // from an entry of their own, the option's description from a second one (read first by fish).
      return `${start} ${values(o.values)}\n${start} -x${describe(o.description)}`;
    const value = o.value === 'required' ? ` ${o.values.files ? values(o.values) : '-x'}` : '';
    return `${start}${value}${describe(o.description)}`;
  };

  // Options of the root reach every command (commander reads them at any depth): declare them once.
  const globalNames = new Set(
    root.options.filter((o) => !o.names.includes('--version')).flatMap((o) => o.names),
  );
  const isGlobal = (o: OptionSpec): boolean => o.names.every((n) => globalNames.has(n));
  const lines: string[] = [];
  for (const o of root.options) lines.push(option(o, isGlobal(o) ? undefined : at('')));
  for (const cmd of t.commands) {
    const path = key(cmd);
    if (cmd.commands.length) {
      lines.push('', `# ${path || 'blogctl'}`);
      for (const sub of cmd.commands)
        lines.push(`complete -c blogctl -n ${at(path, '0')} -a ${fq(sub.name)}${describe(sub.description)}`);
    }
    const own = cmd.path.length ? cmd.options.filter((o) => !isGlobal(o)) : [];
    // A global option whose values depend on the command (`--json` fields): an entry of its own here.
    const perCommand = t.optionValues.flatMap(([p, o]) => (p === path ? [o] : [])).filter(isGlobal);
    const args = t.argValues.filter(([p]) => p === path);
    const after = t.argAfter.filter(([p]) => p === path);
    if (!own.length && !args.length && !after.length && !perCommand.length) continue;
    if (!cmd.commands.length) lines.push('', `# ${path}`);
    for (const o of own) lines.push(option(o, at(path)));
    for (const o of perCommand) lines.push(option({ ...o, value: 'required' }, at(path)));
    for (const [, index, arg] of args) {
      lines.push(
        `complete -c blogctl -n ${at(path, arg.variadic ? `${index}+` : String(index))} ${argValues(arg.values)}`,
      );
    }
    // fish adds up every entry whose condition holds: the tree never gives an argument both plain values and
    // values after given words, so nothing here is offered twice.
    for (const [, words, v] of after)
      lines.push(`complete -c blogctl -n ${at(path, String(words.length), words)} ${argValues(v)}`);
  }

  return `${header('fish', [
    'Install: mkdir -p ~/.config/fish/completions',
    '         blogctl completion fish > ~/.config/fish/completions/blogctl.fish',
  ])}
# The canonical name of subcommand $argv[2] of command path $argv[1] (aliases resolved); fails when it is not one.
function __blogctl_subcommand
    switch "$argv[1]|$argv[2]"
${t.subcommands.map(([path, word, name]) => `        case ${fq(`${path}|${word}`)}\n            echo ${fq(name)}`).join('\n')}
        case '*'
            return 1
    end
end

# Succeeds when option $argv[2] of command path $argv[1] takes the next word as its value.
function __blogctl_takes_value
    switch "$argv[1]|$argv[2]"
${byPath(t.takesValue)
  .map(
    (arm) =>
      `        case ${arm.map(([path, name]) => fq(`${path === ANY ? '*' : path}|${name}`)).join(' ')}\n            return 0\n`,
  )
  .join('')}    end
    return 1
end

# Prints "@<command path>", the number of positional arguments before the cursor and "@<those arguments>"
# (space-separated). Subcommands extend the path, an option that takes a value swallows the next word,
# anything else is a positional argument.
function __blogctl_state
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath ''
    set -l pos 0
    set -l expect 0
    set -l dd 0
    set -l sub
    set -l args
    for w in $tokens
        if test $expect = 1
            set expect 0
            continue
        end
        if test $dd = 0
            switch $w
                case --
                    set dd 1
                    continue
                case '--*=*'
                    continue
                case '-*'
                    __blogctl_takes_value "$cmdpath" $w; and set expect 1
                    continue
            end
        end
        if test $pos = 0 -a $dd = 0; and set sub (__blogctl_subcommand "$cmdpath" $w)
            set cmdpath (string trim -- "$cmdpath $sub")
        else
            set pos (math $pos + 1)
            set -a args $w
        end
    end
    echo "@$cmdpath"
    echo $pos
    set -l joined (string join ' ' -- $args)
    echo "@$joined"
end

# True at command path $argv[1]; with $argv[2], at that positional argument ("N+": at N or after); with
# $argv[3], only after exactly those positional words.
function __blogctl_at
    set -l state (__blogctl_state)
    test "$state[1]" = "@$argv[1]"; or return 1
    set -q argv[2]; or return 0
    if string match -q -- '*+' $argv[2]
        test $state[2] -ge (string trim -r -c + -- $argv[2]); or return 1
    else
        test $state[2] -eq $argv[2]; or return 1
    end
    set -q argv[3]; or return 0
    test "$state[3]" = "@$argv[3]"
end

# Site ids and profile names live in the local config: ask the blogctl being completed. It prints one per
# line and nothing at all on any failure.
function __blogctl_dynamic
    set -l tokens (commandline -opc)
    set -q tokens[1]; or set tokens blogctl
    set -l bin (string replace -r -- '^~' $HOME $tokens[1])
    command $bin __complete $argv[1] 2>/dev/null
end

# The words $argv, each after what the current token holds up to its last comma (a comma-separated list:
# \`--json id,ti<TAB>\`).
function __blogctl_list
    set -l token (string replace -r -- '^--[^=]*=' '' (commandline -ct))
    set -l head (string match -r -- '^.*,' $token)
    for w in $argv
        echo "$head$w"
    end
end

complete -c blogctl -e
complete -c blogctl -f
${lines.join('\n')}
`;
}
