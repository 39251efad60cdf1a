// The bash script: the tree as `case` tables, and one walker that finds the command path under the cursor.
import type { CommandSpec, ValueSource } from './model.js';
import { byPath, casePattern, header, key, sq, tables } from './shell.js';

export function bashScript(root: CommandSpec): string {
  const t = tables(root);
  const words = (list: string[]): string => (list.length ? `printf '%s\\n' ${list.map(sq).join(' ')}` : ':');
  const values = (v: ValueSource): string =>
    v.choices
      ? v.list
        ? `{ echo @list; ${words(v.choices)}; }`
        : words(v.choices)
      : v.dynamic
        ? `__blogctl_dynamic ${v.dynamic}`
        : 'echo @files';

  const subcommands = grouped(
    t.subcommands.map(([path, word, name]) => [casePattern(path, word), `echo ${sq(name)}`]),
  );
  const takesValue = byPath(t.takesValue).map((arm) =>
    arm.map(([path, name]) => casePattern(path, name)).join(' | '),
  );
  const optionalValue = byPath(t.optionalValue).map((arm) =>
    arm.map(([path, name]) => casePattern(path, name)).join(' | '),
  );
  const commands = grouped(
    t.commands
      .filter((c) => c.commands.length)
      .map((c) => [sq(key(c)), words(c.commands.map((s) => s.name))]),
  );
  // A command's own options here; the root's global ones are added for every command below the root.
  const own = (c: CommandSpec) => (c.path.length ? c.options.filter((o) => !o.global) : c.options);
  const options = grouped(t.commands.map((c) => [sq(key(c)), words(own(c).flatMap((o) => o.names))]));
  const globals = words(root.options.filter((o) => o.global).flatMap((o) => o.names));
  // Specific paths first: a global option's pattern matches every path.
  const valueArms = (specific: boolean): [string[], string][] =>
    grouped(
      t.optionValues
        .filter(([path]) => (typeof path === 'string') === specific)
        .flatMap(([path, o]) =>
          o.names.map((n): [string, string] => [casePattern(path, n), values(o.values)]),
        ),
    );
  const optionValues = [...valueArms(true), ...valueArms(false)];
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
        ([path, index, arg]) => `    ${sq(`${path}|`)}*) (( $2 >= ${index} )) && ${values(arg.values)} ;;`,
      ),
  ];

  return `${header('bash', [
    'Needs the bash-completion package (apt install bash-completion; brew install bash-completion@2).',
    'Install: mkdir -p ~/.local/share/bash-completion/completions',
    '         blogctl completion bash > ~/.local/share/bash-completion/completions/blogctl',
    '     or: source <(blogctl completion bash)      # in ~/.bashrc',
  ])}
# The canonical name of subcommand $2 of command path $1 (aliases resolved); fails when $2 is not one.
__blogctl_subcommand() {
  case "$1|$2" in
${caseArms(subcommands)}
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
${caseArms(commands)}
  esac
}

__blogctl_options() {
  case "$1" in
${caseArms(options)}
  esac
  [[ -z $1 ]] || ${globals}
}

# Values for option $2 of command path $1 ("@files": complete file names; "@list" first: a comma-separated
# list of them).
__blogctl_option_values() {
  case "$1|$2" in
${caseArms(optionValues)}
  esac
}

# Values for positional argument number $2 (from 0) of command path $1, after the positional words $3.
__blogctl_arg_values() {
  case "$1|$2|$3" in
${argValues.join('\n')}
  esac
}

# Site ids and profile names live in the local config: ask the blogctl being completed. It prints one per
# line and nothing at all on any failure.
__blogctl_dynamic() {
  local bin=\${COMP_WORDS[0]/#\\~/$HOME}
  "$bin" __complete "$1" 2>/dev/null
}

# bash splits the line at COMP_WORDBREAKS, '=' and ':' among them. Rejoin what was typed without a space in
# between, so "--status=dr" and "https://example.com" stay one word each. Sets words and cur.
__blogctl_line() {
  words=()
  local line=\${COMP_LINE:0:COMP_POINT} trimmed w i
  for (( i = 0; i <= COMP_CWORD; i++ )); do
    w=\${COMP_WORDS[i]}
    trimmed=\${line#"\${line%%[![:space:]]*}"}
    if (( i > 0 )) && [[ -n $COMP_LINE && \${#trimmed} -eq \${#line} ]]; then
      words[\${#words[@]}-1]+=$w
    else
      words+=("$w")
    fi
    line=\${trimmed:\${#w}}
  done
  cur=\${words[\${#words[@]}-1]}
  unset 'words[\${#words[@]}-1]'
}

_blogctl() {
  local IFS=$'\\n' cmdpath='' args='' expect='' opt='' head='' prev='' cur w sub candidates=''
  local -i pos=0 dd=0
  local -a words
  __blogctl_line
  # Walk the words before the cursor: subcommands extend the path, an option that takes a value swallows
  # the next word, anything else is a positional argument (kept in args, space-separated).
  for w in "\${words[@]:1}"; do
    prev=$w
    if [[ -n $expect ]]; then expect=''; prev=''; continue; fi
    if (( !dd )); then
      case $w in
        --) dd=1; continue ;;
        --*=*) continue ;;
        -?*) __blogctl_takes_value "$cmdpath" "$w" && expect=$w; continue ;;
      esac
    fi
    if (( pos == 0 && !dd )) && sub=$(__blogctl_subcommand "$cmdpath" "$w"); then
      cmdpath=\${cmdpath:+$cmdpath }$sub
    else
      pos+=1
      args=\${args:+$args }$w
    fi
  done

  if [[ -n $expect ]]; then
    candidates=$(__blogctl_option_values "$cmdpath" "$expect")
  elif (( !dd )) && [[ $cur == --*=* ]]; then
    opt=\${cur%%=*}
    cur=\${cur#*=}
    candidates=$(__blogctl_option_values "$cmdpath" "$opt")
  elif (( !dd )) && [[ $cur == -* ]]; then
    candidates=$(__blogctl_options "$cmdpath")
  elif (( !dd )) && [[ -n $prev ]] && __blogctl_optional_value "$cmdpath" "$prev"; then
    # \`--json <TAB>\`: the word after an option whose value is optional is that value (commander takes it).
    candidates=$(__blogctl_option_values "$cmdpath" "$prev")
  else
    (( pos == 0 && !dd )) && candidates=$(__blogctl_commands "$cmdpath")
    candidates+=$'\\n'$(__blogctl_arg_values "$cmdpath" "$pos" "$args")
  fi

  # A comma-separated list: complete the word after the last comma, and keep what comes before it.
  if [[ $candidates == @list$'\\n'* ]]; then
    candidates=\${candidates#@list$'\\n'}
    if [[ $cur == *,* ]]; then head=\${cur%,*},; cur=\${cur##*,}; fi
  fi

  # (The line break that joins no command names to the argument values is not a word.)
  candidates=\${candidates#$'\\n'}
  if [[ $candidates == @files ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
  fi
  if [[ -n $head ]]; then COMPREPLY=("\${COMPREPLY[@]/#/$head}"); fi
  # readline replaces only the text after the last word-break character: put "--opt=" back when '=' is not one.
  if [[ -n $opt && $COMP_WORDBREAKS != *=* ]]; then COMPREPLY=("\${COMPREPLY[@]/#/$opt=}"); fi
  return 0
}

complete -F _blogctl blogctl
`;
}

/** Arms with the same body share one line: `'a' | 'b') body ;;`. */
function grouped(entries: [string, string][]): [string[], string][] {
  const byBody = new Map<string, string[]>();
  for (const [pattern, body] of entries) byBody.set(body, [...(byBody.get(body) ?? []), pattern]);
  return [...byBody].map(([body, patterns]) => [patterns, body]);
}

function caseArms(arms: [string[], string][]): string {
  return arms.map(([patterns, body]) => `    ${patterns.join(' | ')}) ${body} ;;`).join('\n');
}
