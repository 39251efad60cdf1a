# bash completion for blogctl.
# Generated from the command tree by `blogctl completion bash`; do not edit, generate it again.
# Needs the bash-completion package (apt install bash-completion; brew install bash-completion@2).
# Install: mkdir -p ~/.local/share/bash-completion/completions
#          blogctl completion bash > ~/.local/share/bash-completion/completions/blogctl
#      or: source <(blogctl completion bash)      # in ~/.bashrc

# The canonical name of subcommand $2 of command path $1 (aliases resolved); fails when $2 is not one.
__blogctl_subcommand() {
  case "$1|$2" in
    '|auth') echo 'auth' ;;
    '|config') echo 'config' ;;
    '|blog') echo 'blog' ;;
    '|wp') echo 'wp' ;;
    '|completion') echo 'completion' ;;
    '|sandbox') echo 'sandbox' ;;
    '|help') echo 'help' ;;
    'auth|login') echo 'login' ;;
    'auth|status') echo 'status' ;;
    'auth|switch') echo 'switch' ;;
    'auth|token') echo 'token' ;;
    'auth|logout') echo 'logout' ;;
    'config|get') echo 'get' ;;
    'config|set') echo 'set' ;;
    'config|unset') echo 'unset' ;;
    'config|list' | 'blog|list' | 'wp sites|list') echo 'list' ;;
    'config|path') echo 'path' ;;
    'blog|create') echo 'create' ;;
    'blog|show' | 'wp sites|show') echo 'show' ;;
    'blog|delete') echo 'delete' ;;
    'wp|sites') echo 'sites' ;;
    'wp|settings') echo 'settings' ;;
    'wp|publish') echo 'publish' ;;
    'wp|init') echo 'init' ;;
    'wp|pull') echo 'pull' ;;
    'wp|doctor') echo 'doctor' ;;
    'wp sites|add') echo 'add' ;;
    'wp sites|verify') echo 'verify' ;;
    'wp sites|set-password') echo 'set-password' ;;
    'wp sites|remove' | 'wp sites|rm') echo 'remove' ;;
    'wp settings|update') echo 'update' ;;
    'wp settings|replace') echo 'replace' ;;
    *) return 1 ;;
  esac
}

# Succeeds when option $2 of command path $1 takes the next word as its value.
__blogctl_takes_value() {
  case "$1|$2" in
    *'|--base-url' | *'|--profile' | *'|--jq' | *'|--timeout' | *'|--retries') return 0 ;;
    'blog create|-k' | 'blog create|--keyword' | 'blog create|--language' | 'blog create|--tone' | 'blog create|--structure' | 'blog create|--cta' | 'blog create|--audience' | 'blog create|--length' | 'blog create|--category' | 'blog create|--link' | 'blog create|--linked-blog-url' | 'blog create|--meta' | 'blog create|-f' | 'blog create|--file' | 'blog create|--publish' | 'blog create|--save' | 'blog create|--tone-custom' | 'blog create|--structure-custom' | 'blog create|--cta-custom' | 'blog create|--audience-custom' | 'blog create|--length-custom' | 'blog create|--status' | 'blog create|--date' | 'blog create|--date-gmt' | 'blog create|--slug' | 'blog create|--excerpt' | 'blog create|--author' | 'blog create|--featured-image' | 'blog create|--featured-media' | 'blog create|--comment-status' | 'blog create|--ping-status' | 'blog create|--format' | 'blog create|--template' | 'blog create|--wp-category' | 'blog create|--post-meta' | 'blog create|--tag' | 'blog create|--post-password' | 'blog create|--key') return 0 ;;
    'blog list|--search' | 'blog list|--limit' | 'blog list|--sort') return 0 ;;
    'blog show|--field') return 0 ;;
    'blog delete|--concurrency') return 0 ;;
    'wp sites add|--url' | 'wp sites add|--username' | 'wp sites add|--label') return 0 ;;
    'wp settings update|--site' | 'wp settings update|--label' | 'wp settings update|--url' | 'wp settings update|--username' | 'wp settings update|-f' | 'wp settings update|--file') return 0 ;;
    'wp settings replace|-f' | 'wp settings replace|--file') return 0 ;;
    'wp publish|--site' | 'wp publish|--url' | 'wp publish|--username' | 'wp publish|-f' | 'wp publish|--file' | 'wp publish|--from-blog' | 'wp publish|--title' | 'wp publish|--content' | 'wp publish|--content-file' | 'wp publish|--namespace' | 'wp publish|--status' | 'wp publish|--date' | 'wp publish|--date-gmt' | 'wp publish|--slug' | 'wp publish|--excerpt' | 'wp publish|--author' | 'wp publish|--featured-image' | 'wp publish|--featured-media' | 'wp publish|--comment-status' | 'wp publish|--ping-status' | 'wp publish|--format' | 'wp publish|--template' | 'wp publish|--category' | 'wp publish|--meta' | 'wp publish|--tag' | 'wp publish|--post-password' | 'wp publish|--key' | 'wp publish|--concurrency' | 'wp publish|--summary') return 0 ;;
    'wp init|--site' | 'wp init|--username' | 'wp init|--namespace') return 0 ;;
    'wp pull|--site' | 'wp pull|--url' | 'wp pull|--username' | 'wp pull|--status' | 'wp pull|--since' | 'wp pull|--author' | 'wp pull|--type' | 'wp pull|--category') return 0 ;;
    'wp doctor|--username') return 0 ;;
    'sandbox|--port' | 'sandbox|--host' | 'sandbox|--api-key-file' | 'sandbox|--api-key' | 'sandbox|--data' | 'sandbox|--latency' | 'sandbox|--quota' | 'sandbox|--delete-status' | 'sandbox|--publish-shape' | 'sandbox|--provider-url' | 'sandbox|--model' | 'sandbox|--prompts') return 0 ;;
    *) return 1 ;;
  esac
}

# Succeeds when option $2 of command path $1 may take the next word as its value (`--json [fields]`).
__blogctl_optional_value() {
  case "$1|$2" in
    'auth login|--json') return 0 ;;
    'auth status|--json') return 0 ;;
    'auth switch|--json') return 0 ;;
    'auth logout|--json') return 0 ;;
    'config get|--json') return 0 ;;
    'config set|--json') return 0 ;;
    'config unset|--json') return 0 ;;
    'config list|--json') return 0 ;;
    'config path|--json') return 0 ;;
    'blog create|--json') return 0 ;;
    'blog list|--json') return 0 ;;
    'blog show|--json') return 0 ;;
    'blog delete|--json') return 0 ;;
    'wp sites add|--json') return 0 ;;
    'wp sites list|--json') return 0 ;;
    'wp sites show|--json') return 0 ;;
    'wp sites verify|--json') return 0 ;;
    'wp sites set-password|--json') return 0 ;;
    'wp sites remove|--json') return 0 ;;
    'wp settings update|--json') return 0 ;;
    'wp settings replace|--json') return 0 ;;
    'wp publish|--json') return 0 ;;
    'wp pull|--json') return 0 ;;
    'wp doctor|--json') return 0 ;;
    *) return 1 ;;
  esac
}

__blogctl_commands() {
  case "$1" in
    '') printf '%s\n' 'auth' 'config' 'blog' 'wp' 'completion' 'sandbox' 'help' ;;
    'auth') printf '%s\n' 'login' 'status' 'switch' 'token' 'logout' ;;
    'config') printf '%s\n' 'get' 'set' 'unset' 'list' 'path' ;;
    'blog') printf '%s\n' 'create' 'list' 'show' 'delete' ;;
    'wp') printf '%s\n' 'sites' 'settings' 'publish' 'init' 'pull' 'doctor' ;;
    'wp sites') printf '%s\n' 'add' 'list' 'show' 'verify' 'set-password' 'remove' ;;
    'wp settings') printf '%s\n' 'update' 'replace' ;;
  esac
}

__blogctl_options() {
  case "$1" in
    '') printf '%s\n' '-V' '--version' '--base-url' '--profile' '--json' '--jq' '--no-color' '--no-input' '--timeout' '--retries' '--debug' '-q' '--quiet' '--sandbox' '-h' '--help' ;;
    'auth' | 'auth status' | 'auth switch' | 'auth token' | 'config' | 'config get' | 'config set' | 'config unset' | 'config list' | 'config path' | 'blog' | 'wp' | 'wp sites' | 'wp sites list' | 'wp sites show' | 'wp settings' | 'completion' | 'help') printf '%s\n' '-h' '--help' ;;
    'auth login') printf '%s\n' '--with-key' '--no-verify' '-h' '--help' ;;
    'auth logout' | 'wp sites remove') printf '%s\n' '-y' '--yes' '-h' '--help' ;;
    'blog create') printf '%s\n' '-k' '--keyword' '--language' '--tone' '--structure' '--cta' '--audience' '--length' '--category' '--link' '--linked-blog-url' '--meta' '-f' '--file' '--provider-key-stdin' '--dry-run' '--strict' '--publish' '--save' '--force' '--tone-custom' '--structure-custom' '--cta-custom' '--audience-custom' '--length-custom' '--status' '--date' '--date-gmt' '--slug' '--excerpt' '--author' '--featured-image' '--featured-media' '--comment-status' '--ping-status' '--format' '--sticky' '--no-sticky' '--template' '--wp-category' '--post-meta' '--tag' '--create-terms' '--post-password' '--post-password-stdin' '--key' '--allow-immediate' '-h' '--help' ;;
    'blog list') printf '%s\n' '--search' '--limit' '--sort' '-h' '--help' ;;
    'blog show') printf '%s\n' '--field' '--markdown' '-h' '--help' ;;
    'blog delete') printf '%s\n' '-y' '--yes' '--concurrency' '-h' '--help' ;;
    'wp sites add') printf '%s\n' '--url' '--username' '--label' '--auto-publish' '--password-stdin' '--web' '--no-browser' '--force' '--no-verify' '-h' '--help' ;;
    'wp sites verify') printf '%s\n' '--password-stdin' '-h' '--help' ;;
    'wp sites set-password') printf '%s\n' '--password-stdin' '--no-verify' '-h' '--help' ;;
    'wp settings update') printf '%s\n' '--site' '--label' '--integrated' '--no-integrated' '--website-valid' '--no-website-valid' '--auto-publish' '--no-auto-publish' '--url' '--username' '--password-stdin' '--with-credentials' '-f' '--file' '--dry-run' '-h' '--help' ;;
    'wp settings replace') printf '%s\n' '-f' '--file' '--from-sites' '-y' '--yes' '--dry-run' '-h' '--help' ;;
    'wp publish') printf '%s\n' '--site' '--url' '--username' '--password-stdin' '-f' '--file' '--from-blog' '--title' '--content' '--content-file' '--namespace' '--status' '--date' '--date-gmt' '--slug' '--excerpt' '--author' '--featured-image' '--featured-media' '--comment-status' '--ping-status' '--format' '--sticky' '--no-sticky' '--template' '--category' '--meta' '--tag' '--create-terms' '--post-password' '--post-password-stdin' '--key' '--allow-immediate' '--concurrency' '--dry-run' '--markdown' '--summary' '--no-update' '--force' '--prune' '--exit-code' '--service-only' '-h' '--help' ;;
    'wp init') printf '%s\n' '--site' '--username' '--namespace' '--write-keys' '-h' '--help' ;;
    'wp pull') printf '%s\n' '--site' '--url' '--username' '--password-stdin' '--status' '--since' '--author' '--type' '--category' '--media' '--adopt' '--force' '-h' '--help' ;;
    'wp doctor') printf '%s\n' '--username' '--password-stdin' '-h' '--help' ;;
    'sandbox') printf '%s\n' '--port' '--host' '--api-key-file' '--api-key' '--data' '--latency' '--quota' '--delete-status' '--publish-shape' '--allow-private-relay' '--provider-url' '--model' '--provider-key-stdin' '--prompts' '-h' '--help' ;;
  esac
  [[ -z $1 ]] || printf '%s\n' '--base-url' '--profile' '--json' '--jq' '--no-color' '--no-input' '--timeout' '--retries' '--debug' '-q' '--quiet' '--sandbox'
}

# Values for option $2 of command path $1 ("@files": complete file names; "@list" first: a comma-separated
# list of them).
__blogctl_option_values() {
  case "$1|$2" in
    'auth login|--json') { echo @list; printf '%s\n' 'profile' 'baseUrl' 'key' 'verified'; } ;;
    'auth status|--json') { echo @list; printf '%s\n' 'profile' 'baseUrl' 'baseUrlSource' 'apiKey' 'apiKeySource' 'accepted' 'problem' 'profiles'; } ;;
    'auth switch|--json') { echo @list; printf '%s\n' 'profile' 'previous'; } ;;
    'auth logout|--json') { echo @list; printf '%s\n' 'profile' 'removed' 'activeUnset'; } ;;
    'config get|--json') { echo @list; printf '%s\n' 'key' 'value' 'default'; } ;;
    'config set|--json') { echo @list; printf '%s\n' 'key' 'value'; } ;;
    'config unset|--json') { echo @list; printf '%s\n' 'key' 'removed'; } ;;
    'config list|--json') { echo @list; printf '%s\n' 'profile' 'settings' 'defaults'; } ;;
    'config path|--json') { echo @list; printf '%s\n' 'dir' 'config' 'credentials'; } ;;
    'blog create|--length') printf '%s\n' 'short' 'medium' 'long' ;;
    'blog create|-f' | 'blog create|--file' | 'blog create|--save' | 'blog create|--featured-image' | 'wp settings update|-f' | 'wp settings update|--file' | 'wp settings replace|-f' | 'wp settings replace|--file' | 'wp publish|-f' | 'wp publish|--file' | 'wp publish|--content-file' | 'wp publish|--featured-image' | 'wp publish|--summary' | 'sandbox|--api-key-file' | 'sandbox|--data') echo @files ;;
    'blog create|--publish' | 'wp settings update|--site' | 'wp publish|--site' | 'wp init|--site' | 'wp pull|--site') __blogctl_dynamic sites ;;
    'blog create|--status' | 'wp publish|--status') printf '%s\n' 'publish' 'draft' 'pending' 'private' 'future' ;;
    'blog create|--comment-status' | 'blog create|--ping-status' | 'wp publish|--comment-status' | 'wp publish|--ping-status') printf '%s\n' 'open' 'closed' ;;
    'blog create|--format' | 'wp publish|--format') printf '%s\n' 'standard' 'aside' 'chat' 'gallery' 'link' 'image' 'quote' 'status' 'video' 'audio' ;;
    'blog create|--json') { echo @list; printf '%s\n' 'id' '_id' 'title' 'slug' 'excerpt' 'content' 'wordCount' 'createdAt' 'status' 'language' 'category' 'topicKeywords' 'targetAudience' 'toneStyle' 'contentStructure' 'blogLength' 'metaData' 'blogParams' 'blog' 'publish'; } ;;
    'blog list|--sort') printf '%s\n' 'title' 'createdAt' 'wordCount' 'status' 'id' '-title' '-createdAt' '-wordCount' '-status' '-id' ;;
    'blog list|--json' | 'blog show|--json') { echo @list; printf '%s\n' 'id' '_id' 'title' 'slug' 'excerpt' 'content' 'wordCount' 'createdAt' 'status' 'language' 'category' 'topicKeywords' 'targetAudience' 'toneStyle' 'contentStructure' 'blogLength' 'metaData'; } ;;
    'blog delete|--json') { echo @list; printf '%s\n' 'id' 'deleted' 'status' 'error'; } ;;
    'wp sites add|--json' | 'wp sites list|--json' | 'wp sites show|--json' | 'wp sites set-password|--json') { echo @list; printf '%s\n' 'id' 'url' 'username' 'label' 'autoPublish' 'isIntegrated' 'isWebsiteValid' 'verifiedAt' 'password' 'default'; } ;;
    'wp sites verify|--json') { echo @list; printf '%s\n' 'id' 'url' 'valid' 'verifiedAt' 'restRoot' 'permalinks' 'applicationPasswords' 'siteName' 'syncState' 'seo' 'user' 'can'; } ;;
    'wp sites remove|--json') { echo @list; printf '%s\n' 'id' 'removed' 'defaultUnset'; } ;;
    'wp settings update|--json' | 'wp settings replace|--json') { echo @list; printf '%s\n' 'settings' 'success' 'integration'; } ;;
    'wp publish|--json') { echo @list; printf '%s\n' 'action' 'published' 'id' 'link' 'status' 'type' 'fields' 'requestedStatus' 'edited' 'source' 'error' 'exitCode' 'post'; } ;;
    'wp pull|--json') { echo @list; printf '%s\n' 'file' 'action' 'id' 'link' 'status' 'adopted' 'note'; } ;;
    'wp doctor|--json') { echo @list; printf '%s\n' 'url' 'server' 'cdn' 'restRoot' 'permalinks' 'checks' 'canPublish' 'canSync' 'ok'; } ;;
    'sandbox|--delete-status') printf '%s\n' '200' '204' ;;
    'sandbox|--publish-shape') printf '%s\n' 'typed' 'alt' ;;
    *'|--profile') __blogctl_dynamic profiles ;;
  esac
}

# Values for positional argument number $2 (from 0) of command path $1, after the positional words $3.
__blogctl_arg_values() {
  case "$1|$2|$3" in
    'config set|1|default-site') __blogctl_dynamic sites ;;
    'help|0|') printf '%s\n' 'environment' 'exit-codes' 'auth' 'config' 'blog' 'wp' 'completion' 'sandbox' ;;
    'help|1|auth') printf '%s\n' 'login' 'status' 'switch' 'token' 'logout' ;;
    'help|1|config') printf '%s\n' 'get' 'set' 'unset' 'list' 'path' ;;
    'help|1|blog') printf '%s\n' 'create' 'list' 'show' 'delete' ;;
    'help|1|wp') printf '%s\n' 'sites' 'settings' 'publish' 'init' 'pull' 'doctor' ;;
    'help|2|wp sites') printf '%s\n' 'add' 'list' 'show' 'verify' 'set-password' 'remove' ;;
    'help|2|wp settings') printf '%s\n' 'update' 'replace' ;;
    'auth switch|0|'*) __blogctl_dynamic profiles ;;
    'config get|0|'*) printf '%s\n' 'base-url' 'timeout' 'connect-timeout' 'create-timeout' 'retries' 'concurrency' 'default-site' ;;
    'config set|0|'*) printf '%s\n' 'base-url' 'timeout' 'connect-timeout' 'create-timeout' 'retries' 'concurrency' 'default-site' ;;
    'config unset|0|'*) printf '%s\n' 'base-url' 'timeout' 'connect-timeout' 'create-timeout' 'retries' 'concurrency' 'default-site' ;;
    'wp sites show|0|'*) __blogctl_dynamic sites ;;
    'wp sites verify|0|'*) __blogctl_dynamic sites ;;
    'wp sites set-password|0|'*) __blogctl_dynamic sites ;;
    'wp sites remove|0|'*) __blogctl_dynamic sites ;;
    'completion|0|'*) printf '%s\n' 'bash' 'zsh' 'fish' ;;
    'wp publish|'*) (( $2 >= 0 )) && echo @files ;;
  esac
}

# Site ids and profile names live in the local config: ask the blogctl being completed. It prints one per
# line and nothing at all on any failure.
__blogctl_dynamic() {
  local bin=${COMP_WORDS[0]/#\~/$HOME}
  "$bin" __complete "$1" 2>/dev/null
}

# bash splits the line at COMP_WORDBREAKS, '=' and ':' among them. Rejoin what was typed without a space in
# between, so "--status=dr" and "https://example.com" stay one word each. Sets words and cur.
__blogctl_line() {
  words=()
  local line=${COMP_LINE:0:COMP_POINT} trimmed w i
  for (( i = 0; i <= COMP_CWORD; i++ )); do
    w=${COMP_WORDS[i]}
    trimmed=${line#"${line%%[![:space:]]*}"}
    if (( i > 0 )) && [[ -n $COMP_LINE && ${#trimmed} -eq ${#line} ]]; then
      words[${#words[@]}-1]+=$w
    else
      words+=("$w")
    fi
    line=${trimmed:${#w}}
  done
  cur=${words[${#words[@]}-1]}
  unset 'words[${#words[@]}-1]'
}

_blogctl() {
  local IFS=$'\n' cmdpath='' args='' expect='' opt='' head='' prev='' cur w sub candidates=''
  local -i pos=0 dd=0
  local -a words
  __blogctl_line
  # Walk the words before the cursor: subcommands extend the path, an option that takes a value swallows
  # the next word, anything else is a positional argument (kept in args, space-separated).
  for w in "${words[@]:1}"; do
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
      cmdpath=${cmdpath:+$cmdpath }$sub
    else
      pos+=1
      args=${args:+$args }$w
    fi
  done

  if [[ -n $expect ]]; then
    candidates=$(__blogctl_option_values "$cmdpath" "$expect")
  elif (( !dd )) && [[ $cur == --*=* ]]; then
    opt=${cur%%=*}
    cur=${cur#*=}
    candidates=$(__blogctl_option_values "$cmdpath" "$opt")
  elif (( !dd )) && [[ $cur == -* ]]; then
    candidates=$(__blogctl_options "$cmdpath")
  elif (( !dd )) && [[ -n $prev ]] && __blogctl_optional_value "$cmdpath" "$prev"; then
    # `--json <TAB>`: the word after an option whose value is optional is that value (commander takes it).
    candidates=$(__blogctl_option_values "$cmdpath" "$prev")
  else
    (( pos == 0 && !dd )) && candidates=$(__blogctl_commands "$cmdpath")
    candidates+=$'\n'$(__blogctl_arg_values "$cmdpath" "$pos" "$args")
  fi

  # A comma-separated list: complete the word after the last comma, and keep what comes before it.
  if [[ $candidates == @list$'\n'* ]]; then
    candidates=${candidates#@list$'\n'}
    if [[ $cur == *,* ]]; then head=${cur%,*},; cur=${cur##*,}; fi
  fi

  # (The line break that joins no command names to the argument values is not a word.)
  candidates=${candidates#$'\n'}
  if [[ $candidates == @files ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
  fi
  if [[ -n $head ]]; then COMPREPLY=("${COMPREPLY[@]/#/$head}"); fi
  # readline replaces only the text after the last word-break character: put "--opt=" back when '=' is not one.
  if [[ -n $opt && $COMP_WORDBREAKS != *=* ]]; then COMPREPLY=("${COMPREPLY[@]/#/$opt=}"); fi
  return 0
}

complete -F _blogctl blogctl
