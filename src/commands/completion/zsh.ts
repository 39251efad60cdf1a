// The zsh script: the same tables and walker as bash, offered through compsys with descriptions.
import type { CommandSpec, OptionSpec, ValueSource } from './model.js';
import { ANY, byPath, casePattern, header, key, sq, tables } from './shell.js';

export function zshScript(root: CommandSpec): string {
  const t = tables(root);
  const reply = (items: string[]): string => `__blogctl_reply=(${items.map(sq).join(' ')})`;
  // _describe splits "name:description" at the first unescaped colon.
  const described = (name: string, description: string): string =>
    `${name.replace(/:/g, '\\:')}:${description}`;
  const values = (v: ValueSource): string =>
    v.choices
      ? `${v.list ? '__blogctl_list=1; ' : ''}${reply(v.choices)}`
      : v.dynamic
        ? `__blogctl_reply=(\${(f)"$(__blogctl_dynamic ${v.dynamic})"})`
        : 'return 2';

  const subcommands = t.subcommands.map(
    ([path, word, name]) => `    ${casePattern(path, word)}) print -r -- ${sq(name)} ;;`,
  );
  const takesValue = byPath(t.takesValue).map((arm) =>
    arm.map(([path, name]) => casePattern(path, name)).join(' | '),
  );
  const optionalValue = byPath(t.optionalValue).map((arm) =>
    arm.map(([path, name]) => casePattern(path, name)).join(' | '),
  );
  const commands = t.commands
    .filter((c) => c.commands.length)
    .map((c) => `    ${sq(key(c))}) ${reply(c.commands.map((s) => described(s.name, s.description)))} ;;`);
  // A command's own options here; the root's global ones are added for every command below the root.
  const optionItems = (list: OptionSpec[]): string[] =>
    list.flatMap((o) => o.names.map((n) => described(n, o.description)));
  const options = t.commands.map(
    (c) =>
      `    ${sq(key(c))}) ${reply(optionItems(c.path.length ? c.options.filter((o) => !o.global) : c.options))} ;;`,
  );
  const globals = optionItems(root.options.filter((o) => o.global));
  // Specific paths first: a global option's pattern matches every path.
  const optionValues = [
    ...t.optionValues.filter(([path]) => path !== ANY),
    ...t.optionValues.filter(([path]) => path === ANY),
  ].map(([path, o]) => `    ${o.names.map((n) => casePattern(path, n)).join(' | ')}) ${values(o.values)} ;;`);
  // The words typed before first, then exact indexes: a variadic argument's pattern matches every index
  // from its own on.
  const argValues = [
    ...t.argAfter.map(
      ([path, words, v]) => `    ${sq(`${path}|${words.length}|${words.join(' ')}`)}) ${values(v)} ;;`,
    ),
    ...t.argValues
      .filter(([, , arg]) => !arg.variadic)
      .map(([path, index, arg]) => `    ${sq(`${path}|${index}|`)}*) ${values(arg.values)} ;;`),
    ...t.argValues
      .filter(([, , arg]) => arg.variadic)
      .map(
        ([path, index, arg]) =>
          `    ${sq(`${path}|`)}*) (( $2 >= ${index} )) || return 1; ${values(arg.values)} ;;`,
      ),
  ];

  return `#compdef blogctl
${header('zsh', [
  'Install: mkdir -p ~/.zfunc && blogctl completion zsh > ~/.zfunc/_blogctl',
  '         with fpath=(~/.zfunc $fpath) in ~/.zshrc before compinit; then start a new shell',
  '     or: source <(blogctl completion zsh)                    # in ~/.zshrc, after compinit',
])}
# The canonical name of subcommand $2 of command path $1 (aliases resolved); fails when $2 is not one.
__blogctl_subcommand() {
  case "$1|$2" in
${subcommands.join('\n')}
    *) return 1 ;;
  esac
}

# Succeeds when option $2 of command path $1 takes the next word as its value.
__blogctl_takes_value() {
  case "$1|$2" in
${takesValue.map((arm) => `    ${arm}) return 0 ;;\n`).join('')}    *) return 1 ;;
  esac
}

# Succeeds when option $2 of command path $1 may take the next word as its value (\`--json [fields]\`).
__blogctl_optional_value() {
  case "$1|$2" in
${optionalValue.map((arm) => `    ${arm}) return 0 ;;\n`).join('')}    *) return 1 ;;
  esac
}

__blogctl_commands() {
  case "$1" in
${commands.join('\n')}
    *) __blogctl_reply=() ;;
  esac
}

__blogctl_options() {
  case "$1" in
${options.join('\n')}
    *) __blogctl_reply=() ;;
  esac
  [[ -z $1 ]] || __blogctl_reply+=(${globals.map(sq).join(' ')})
}

# Sets __blogctl_reply to the values of option $2 of command path $1 (and __blogctl_list=1 when the value is a
# comma-separated list of them); returns 2 for file names.
__blogctl_option_values() {
  __blogctl_reply=()
  case "$1|$2" in
${optionValues.join('\n')}
  esac
}

# Sets __blogctl_reply to the values of positional argument number $2 (from 0) of command path $1, after the
# positional words $3.
__blogctl_arg_values() {
  __blogctl_reply=()
  case "$1|$2|$3" in
${argValues.join('\n')}
  esac
}

# Site ids and profile names live in the local config: ask the blogctl being completed. It prints one per
# line and nothing at all on any failure.
__blogctl_dynamic() {
  local bin=\${words[1]/#\\~/$HOME}
  "$bin" __complete "$1" 2>/dev/null
}

# Runs one of the value functions above and offers what it found.
__blogctl_add_values() {
  local -a __blogctl_reply
  local __blogctl_list=0
  "$@"
  local found=$?
  # A comma-separated list: complete the word after the last comma.
  (( __blogctl_list )) && compset -P '*,'
  if (( found == 2 )); then
    _files
  elif (( \${#__blogctl_reply} )); then
    compadd -a __blogctl_reply
  else
    return 1
  fi
}

_blogctl() {
  local cmdpath='' args='' expect='' prev='' cur=\${words[CURRENT]} w sub opt
  local -a __blogctl_reply
  integer pos=0 dd=0 i ret=1
  # Walk the words before the cursor: subcommands extend the path, an option that takes a value swallows
  # the next word, anything else is a positional argument (kept in args, space-separated).
  for (( i = 2; i < CURRENT; i++ )); do
    w=\${words[i]}
    prev=$w
    if [[ -n $expect ]]; then expect=''; prev=''; continue; fi
    if (( ! dd )); then
      case $w in
        --) dd=1; continue ;;
        --*=*) continue ;;
        -?*) __blogctl_takes_value "$cmdpath" "$w" && expect=$w; continue ;;
      esac
    fi
    if (( pos == 0 && ! dd )) && sub=$(__blogctl_subcommand "$cmdpath" "$w"); then
      cmdpath=\${cmdpath:+$cmdpath }$sub
    else
      pos+=1
      args=\${args:+$args }$w
    fi
  done

  if [[ -n $expect ]]; then
    __blogctl_add_values __blogctl_option_values "$cmdpath" "$expect"
    return
  fi
  if (( ! dd )) && [[ $cur == --*=* ]]; then
    opt=\${cur%%=*}
    compset -P '*='
    __blogctl_add_values __blogctl_option_values "$cmdpath" "$opt"
    return
  fi
  # \`--json <TAB>\`: the word after an option whose value is optional is that value (commander takes it).
  if (( ! dd )) && [[ -n $prev && $cur != -* ]] && __blogctl_optional_value "$cmdpath" "$prev"; then
    __blogctl_add_values __blogctl_option_values "$cmdpath" "$prev"
    return
  fi
  if (( ! dd )) && [[ $cur == -* ]]; then
    __blogctl_options "$cmdpath"
    _describe -t options 'option' __blogctl_reply
    return
  fi
  if (( pos == 0 && ! dd )); then
    __blogctl_commands "$cmdpath"
    (( \${#__blogctl_reply} )) && _describe -t commands 'command' __blogctl_reply && ret=0
  fi
  __blogctl_add_values __blogctl_arg_values "$cmdpath" $pos "$args" && ret=0
  return ret
}

if [[ $funcstack[1] == _blogctl ]]; then
  # Autoloaded from $fpath: this file is the body of _blogctl; the definitions above replaced it, so run it.
  _blogctl "$@"
else
  compdef _blogctl blogctl
fi
`;
}
