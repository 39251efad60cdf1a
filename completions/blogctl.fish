# fish completion for blogctl.
# Generated from the command tree by `blogctl completion fish`; do not edit, generate it again.
# Install: mkdir -p ~/.config/fish/completions
#          blogctl completion fish > ~/.config/fish/completions/blogctl.fish

# The canonical name of subcommand $argv[2] of command path $argv[1] (aliases resolved); fails when it is not one.
function __blogctl_subcommand
    switch "$argv[1]|$argv[2]"
        case '|auth'
            echo 'auth'
        case '|config'
            echo 'config'
        case '|blog'
            echo 'blog'
        case '|wp'
            echo 'wp'
        case '|completion'
            echo 'completion'
        case '|sandbox'
            echo 'sandbox'
        case '|help'
            echo 'help'
        case 'auth|login'
            echo 'login'
        case 'auth|status'
            echo 'status'
        case 'auth|switch'
            echo 'switch'
        case 'auth|token'
            echo 'token'
        case 'auth|logout'
            echo 'logout'
        case 'config|get'
            echo 'get'
        case 'config|set'
            echo 'set'
        case 'config|unset'
            echo 'unset'
        case 'config|list'
            echo 'list'
        case 'config|path'
            echo 'path'
        case 'blog|create'
            echo 'create'
        case 'blog|list'
            echo 'list'
        case 'blog|show'
            echo 'show'
        case 'blog|delete'
            echo 'delete'
        case 'wp|sites'
            echo 'sites'
        case 'wp|settings'
            echo 'settings'
        case 'wp|publish'
            echo 'publish'
        case 'wp|init'
            echo 'init'
        case 'wp|pull'
            echo 'pull'
        case 'wp|doctor'
            echo 'doctor'
        case 'wp sites|add'
            echo 'add'
        case 'wp sites|list'
            echo 'list'
        case 'wp sites|show'
            echo 'show'
        case 'wp sites|verify'
            echo 'verify'
        case 'wp sites|set-password'
            echo 'set-password'
        case 'wp sites|remove'
            echo 'remove'
        case 'wp sites|rm'
            echo 'remove'
        case 'wp settings|update'
            echo 'update'
        case 'wp settings|replace'
            echo 'replace'
        case '*'
            return 1
    end
end

# Succeeds when option $argv[2] of command path $argv[1] takes the next word as its value.
function __blogctl_takes_value
    switch "$argv[1]|$argv[2]"
        case '*|--base-url' '*|--profile' '*|--jq' '*|--timeout' '*|--retries'
            return 0
        case 'blog create|-k' 'blog create|--keyword' 'blog create|--language' 'blog create|--tone' 'blog create|--structure' 'blog create|--cta' 'blog create|--audience' 'blog create|--length' 'blog create|--category' 'blog create|--link' 'blog create|--linked-blog-url' 'blog create|--meta' 'blog create|-f' 'blog create|--file' 'blog create|--publish' 'blog create|--save' 'blog create|--tone-custom' 'blog create|--structure-custom' 'blog create|--cta-custom' 'blog create|--audience-custom' 'blog create|--length-custom' 'blog create|--status' 'blog create|--date' 'blog create|--date-gmt' 'blog create|--slug' 'blog create|--excerpt' 'blog create|--author' 'blog create|--featured-image' 'blog create|--featured-media' 'blog create|--comment-status' 'blog create|--ping-status' 'blog create|--format' 'blog create|--template' 'blog create|--wp-category' 'blog create|--post-meta' 'blog create|--tag' 'blog create|--post-password' 'blog create|--key'
            return 0
        case 'blog list|--search' 'blog list|--limit' 'blog list|--sort'
            return 0
        case 'blog show|--field'
            return 0
        case 'blog delete|--concurrency'
            return 0
        case 'wp sites add|--url' 'wp sites add|--username' 'wp sites add|--label'
            return 0
        case 'wp settings update|--site' 'wp settings update|--label' 'wp settings update|--url' 'wp settings update|--username' 'wp settings update|-f' 'wp settings update|--file'
            return 0
        case 'wp settings replace|-f' 'wp settings replace|--file'
            return 0
        case 'wp publish|--site' 'wp publish|--url' 'wp publish|--username' 'wp publish|-f' 'wp publish|--file' 'wp publish|--from-blog' 'wp publish|--title' 'wp publish|--content' 'wp publish|--content-file' 'wp publish|--namespace' 'wp publish|--status' 'wp publish|--date' 'wp publish|--date-gmt' 'wp publish|--slug' 'wp publish|--excerpt' 'wp publish|--author' 'wp publish|--featured-image' 'wp publish|--featured-media' 'wp publish|--comment-status' 'wp publish|--ping-status' 'wp publish|--format' 'wp publish|--template' 'wp publish|--category' 'wp publish|--meta' 'wp publish|--tag' 'wp publish|--post-password' 'wp publish|--key' 'wp publish|--concurrency' 'wp publish|--summary'
            return 0
        case 'wp init|--site' 'wp init|--username' 'wp init|--namespace'
            return 0
        case 'wp pull|--site' 'wp pull|--url' 'wp pull|--username' 'wp pull|--status' 'wp pull|--since' 'wp pull|--author' 'wp pull|--type' 'wp pull|--category'
            return 0
        case 'wp doctor|--username'
            return 0
        case 'sandbox|--port' 'sandbox|--host' 'sandbox|--api-key-file' 'sandbox|--api-key' 'sandbox|--data' 'sandbox|--latency' 'sandbox|--quota' 'sandbox|--delete-status' 'sandbox|--publish-shape' 'sandbox|--provider-url' 'sandbox|--model' 'sandbox|--prompts'
            return 0
    end
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
# `--json id,ti<TAB>`).
function __blogctl_list
    set -l token (string replace -r -- '^--[^=]*=' '' (commandline -ct))
    set -l head (string match -r -- '^.*,' $token)
    for w in $argv
        echo "$head$w"
    end
end

complete -c blogctl -e
complete -c blogctl -f
complete -c blogctl -n '__blogctl_at ""' -s V -l version -d 'print the version and build date'
complete -c blogctl -l base-url -x -d 'service base URL (env BLOGCTL_BASE_URL)'
complete -c blogctl -l profile -x -a '(__blogctl_dynamic profiles)'
complete -c blogctl -l profile -x -d 'account profile to use (env BLOGCTL_PROFILE)'
complete -c blogctl -l json -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -l jq -x -d 'filter the JSON output with a jq expression (implies --json)'
complete -c blogctl -l no-color -d 'disable colour (also NO_COLOR)'
complete -c blogctl -l no-input -d 'never prompt; fail naming the missing flag (env BLOGCTL_NO_INPUT)'
complete -c blogctl -l timeout -x -d 'response timeout in seconds (env BLOGCTL_TIMEOUT)'
complete -c blogctl -l retries -x -d 'retries for requests that are safe to repeat (default 3)'
complete -c blogctl -l debug -d 'log requests (method, URL, status, timing; secrets redacted) to stderr'
complete -c blogctl -s q -l quiet -d 'print only the identifying value (ids, names, keys) and no notes'
complete -c blogctl -l sandbox -d 'run against a local in-process sandbox (env BLOGCTL_SANDBOX=1)'
complete -c blogctl -s h -l help -d 'show help'

# blogctl
complete -c blogctl -n '__blogctl_at "" 0' -a 'auth' -d 'account profiles: log in with an API key, list and check them, switch, log out'
complete -c blogctl -n '__blogctl_at "" 0' -a 'config' -d 'read and change local settings (base-url, timeout, default-site, …)'
complete -c blogctl -n '__blogctl_at "" 0' -a 'blog' -d 'create, list, show and delete generated blog posts'
complete -c blogctl -n '__blogctl_at "" 0' -a 'wp' -d 'WordPress: local site profiles, integration settings, publishing'
complete -c blogctl -n '__blogctl_at "" 0' -a 'completion' -d 'print a tab-completion script for bash, zsh or fish'
complete -c blogctl -n '__blogctl_at "" 0' -a 'sandbox' -d 'run a local implementation of the service (no account needed)'
complete -c blogctl -n '__blogctl_at "" 0' -a 'help' -d 'help for a command, or a topic: environment, exit-codes'

# auth
complete -c blogctl -n '__blogctl_at "auth" 0' -a 'login' -d 'store an API key for the selected profile (hidden prompt, or stdin: --with-key)'
complete -c blogctl -n '__blogctl_at "auth" 0' -a 'status' -d 'list every profile; check that the service accepts the active one\'s key'
complete -c blogctl -n '__blogctl_at "auth" 0' -a 'switch' -d 'make a profile the active one (when neither --profile nor BLOGCTL_PROFILE says)'
complete -c blogctl -n '__blogctl_at "auth" 0' -a 'token' -d 'print the API key in use, unmasked, alone on stdout (for scripts)'
complete -c blogctl -n '__blogctl_at "auth" 0' -a 'logout' -d 'remove the selected profile: its API key and base URL (asks, or --yes)'

# auth login
complete -c blogctl -n '__blogctl_at "auth login"' -l with-key -d 'read the API key from stdin (first line)'
complete -c blogctl -n '__blogctl_at "auth login"' -l no-verify -d 'store the key without checking it against the service'
complete -c blogctl -n '__blogctl_at "auth login"' -l json -x -a '(__blogctl_list profile baseUrl key verified)'
complete -c blogctl -n '__blogctl_at "auth login"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# auth status
complete -c blogctl -n '__blogctl_at "auth status"' -l json -x -a '(__blogctl_list profile baseUrl baseUrlSource apiKey apiKeySource accepted problem profiles)'
complete -c blogctl -n '__blogctl_at "auth status"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# auth switch
complete -c blogctl -n '__blogctl_at "auth switch"' -l json -x -a '(__blogctl_list profile previous)'
complete -c blogctl -n '__blogctl_at "auth switch"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "auth switch" 0' -a '(__blogctl_dynamic profiles)'

# auth logout
complete -c blogctl -n '__blogctl_at "auth logout"' -s y -l yes -d 'do not ask for confirmation (required when there is no terminal)'
complete -c blogctl -n '__blogctl_at "auth logout"' -l json -x -a '(__blogctl_list profile removed activeUnset)'
complete -c blogctl -n '__blogctl_at "auth logout"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# config
complete -c blogctl -n '__blogctl_at "config" 0' -a 'get' -d 'print one setting (an unset one: its default, said so on stderr)'
complete -c blogctl -n '__blogctl_at "config" 0' -a 'set' -d 'change a setting (default-site must name an existing site profile)'
complete -c blogctl -n '__blogctl_at "config" 0' -a 'unset' -d 'remove a setting'
complete -c blogctl -n '__blogctl_at "config" 0' -a 'list' -d 'show every setting and its value (or default); -q: only the keys'
complete -c blogctl -n '__blogctl_at "config" 0' -a 'path' -d 'print where the config lives'

# config get
complete -c blogctl -n '__blogctl_at "config get"' -l json -x -a '(__blogctl_list key value default)'
complete -c blogctl -n '__blogctl_at "config get"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "config get" 0' -a 'base-url timeout connect-timeout create-timeout retries concurrency default-site'

# config set
complete -c blogctl -n '__blogctl_at "config set"' -l json -x -a '(__blogctl_list key value)'
complete -c blogctl -n '__blogctl_at "config set"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "config set" 0' -a 'base-url timeout connect-timeout create-timeout retries concurrency default-site'
complete -c blogctl -n '__blogctl_at "config set" 1 "default-site"' -a '(__blogctl_dynamic sites)'

# config unset
complete -c blogctl -n '__blogctl_at "config unset"' -l json -x -a '(__blogctl_list key removed)'
complete -c blogctl -n '__blogctl_at "config unset"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "config unset" 0' -a 'base-url timeout connect-timeout create-timeout retries concurrency default-site'

# config list
complete -c blogctl -n '__blogctl_at "config list"' -l json -x -a '(__blogctl_list profile settings defaults)'
complete -c blogctl -n '__blogctl_at "config list"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# config path
complete -c blogctl -n '__blogctl_at "config path"' -l json -x -a '(__blogctl_list dir config credentials)'
complete -c blogctl -n '__blogctl_at "config path"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# blog
complete -c blogctl -n '__blogctl_at "blog" 0' -a 'create' -d 'generate a blog post from keywords, tone, structure and length'
complete -c blogctl -n '__blogctl_at "blog" 0' -a 'list' -d 'list your blog posts (a table on a terminal, tab-separated when piped)'
complete -c blogctl -n '__blogctl_at "blog" 0' -a 'show' -d 'show one blog post; --field prints one field raw (e.g. the HTML content)'
complete -c blogctl -n '__blogctl_at "blog" 0' -a 'delete' -d 'delete blog posts by id, several at once (asks first on a terminal)'

# blog create
complete -c blogctl -n '__blogctl_at "blog create"' -s k -l keyword -x -d 'topic keyword(s); repeatable and comma-separated'
complete -c blogctl -n '__blogctl_at "blog create"' -l language -x -d 'language, e.g. English'
complete -c blogctl -n '__blogctl_at "blog create"' -l tone -x -d 'tone/style, e.g. Friendly'
complete -c blogctl -n '__blogctl_at "blog create"' -l structure -x -d 'content structure, e.g. "How-to guide"'
complete -c blogctl -n '__blogctl_at "blog create"' -l cta -x -d 'call to action, e.g. "Subscribe"'
complete -c blogctl -n '__blogctl_at "blog create"' -l audience -x -d 'target audience, e.g. Beginners'
complete -c blogctl -n '__blogctl_at "blog create"' -l length -x -a 'short medium long'
complete -c blogctl -n '__blogctl_at "blog create"' -l length -x -d 'blog length (any case)'
complete -c blogctl -n '__blogctl_at "blog create"' -l category -x -d 'category'
complete -c blogctl -n '__blogctl_at "blog create"' -l link -x -d 'hyperlink to include; repeatable'
complete -c blogctl -n '__blogctl_at "blog create"' -l linked-blog-url -x -d 'a post of yours to link as related reading'
complete -c blogctl -n '__blogctl_at "blog create"' -l meta -x -d 'metadata entry; repeatable (JSON values typed)'
complete -c blogctl -n '__blogctl_at "blog create"' -s f -l file -r -F -d 'BlogParams as JSON ("-": stdin)'
complete -c blogctl -n '__blogctl_at "blog create"' -l provider-key-stdin -d 'read your provider key from stdin (first line)'
complete -c blogctl -n '__blogctl_at "blog create"' -l dry-run -d 'print the request body and send nothing'
complete -c blogctl -n '__blogctl_at "blog create"' -l strict -d 'refuse a post that misses what was asked'
complete -c blogctl -n '__blogctl_at "blog create"' -l publish -x -a '(__blogctl_dynamic sites)'
complete -c blogctl -n '__blogctl_at "blog create"' -l publish -x -d 'then publish it to this WordPress site profile'
complete -c blogctl -n '__blogctl_at "blog create"' -l save -r -F -d 'also write it as Markdown that wp publish reads'
complete -c blogctl -n '__blogctl_at "blog create"' -l force -d 'with --save: overwrite the file'
complete -c blogctl -n '__blogctl_at "blog create"' -l tone-custom -x -d 'of the tone'
complete -c blogctl -n '__blogctl_at "blog create"' -l structure-custom -x -d 'of the structure'
complete -c blogctl -n '__blogctl_at "blog create"' -l cta-custom -x -d 'of the call to action'
complete -c blogctl -n '__blogctl_at "blog create"' -l audience-custom -x -d 'of the audience'
complete -c blogctl -n '__blogctl_at "blog create"' -l length-custom -x -d 'of the length'
complete -c blogctl -n '__blogctl_at "blog create"' -l status -x -a 'publish draft pending private future'
complete -c blogctl -n '__blogctl_at "blog create"' -l status -x -d 'post status (default draft)'
complete -c blogctl -n '__blogctl_at "blog create"' -l date -x -d 'publish date, ISO 8601 (no offset: site time)'
complete -c blogctl -n '__blogctl_at "blog create"' -l date-gmt -x -d 'publish date in UTC, ISO 8601'
complete -c blogctl -n '__blogctl_at "blog create"' -l slug -x -d 'URL slug'
complete -c blogctl -n '__blogctl_at "blog create"' -l excerpt -x -d 'excerpt'
complete -c blogctl -n '__blogctl_at "blog create"' -l author -x -d 'author user id'
complete -c blogctl -n '__blogctl_at "blog create"' -l featured-image -r -F -d 'upload this image as the featured image'
complete -c blogctl -n '__blogctl_at "blog create"' -l featured-media -x -d 'featured image by media id'
complete -c blogctl -n '__blogctl_at "blog create"' -l comment-status -x -a 'open closed'
complete -c blogctl -n '__blogctl_at "blog create"' -l comment-status -x -d 'comments'
complete -c blogctl -n '__blogctl_at "blog create"' -l ping-status -x -a 'open closed'
complete -c blogctl -n '__blogctl_at "blog create"' -l ping-status -x -d 'pings'
complete -c blogctl -n '__blogctl_at "blog create"' -l format -x -a 'standard aside chat gallery link image quote status video audio'
complete -c blogctl -n '__blogctl_at "blog create"' -l format -x -d 'post format'
complete -c blogctl -n '__blogctl_at "blog create"' -l sticky -d 'stick the post to the front page'
complete -c blogctl -n '__blogctl_at "blog create"' -l no-sticky -d 'do not stick the post'
complete -c blogctl -n '__blogctl_at "blog create"' -l template -x -d 'theme template by name, e.g. full-width.php'
complete -c blogctl -n '__blogctl_at "blog create"' -l wp-category -x -d 'category: name, slug or id; repeatable, a,b'
complete -c blogctl -n '__blogctl_at "blog create"' -l post-meta -x -d 'post meta field; repeatable (JSON values typed)'
complete -c blogctl -n '__blogctl_at "blog create"' -l tag -x -d 'tag: name, slug or id; repeatable, a,b'
complete -c blogctl -n '__blogctl_at "blog create"' -l create-terms -d 'create missing categories and tags'
complete -c blogctl -n '__blogctl_at "blog create"' -l post-password -x -d 'password-protect the post'
complete -c blogctl -n '__blogctl_at "blog create"' -l post-password-stdin -d 'the post\'s password from stdin (first line)'
complete -c blogctl -n '__blogctl_at "blog create"' -l key -x -d 'the post\'s identity (default: its source)'
complete -c blogctl -n '__blogctl_at "blog create"' -l allow-immediate -d 'a future post with no usable date: publish now'
complete -c blogctl -n '__blogctl_at "blog create"' -l json -x -a '(__blogctl_list id _id title slug excerpt content wordCount createdAt status language category topicKeywords targetAudience toneStyle contentStructure blogLength metaData blogParams blog publish)'
complete -c blogctl -n '__blogctl_at "blog create"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# blog list
complete -c blogctl -n '__blogctl_at "blog list"' -l search -x -d 'only blogs whose id, title, category or keywords contain this text (any case)'
complete -c blogctl -n '__blogctl_at "blog list"' -l limit -x -d 'at most this many blogs, after --search and --sort (default 30; 0: all)'
complete -c blogctl -n '__blogctl_at "blog list"' -l sort -x -a 'title createdAt wordCount status id -title -createdAt -wordCount -status -id'
complete -c blogctl -n '__blogctl_at "blog list"' -l sort -x -d 'sort by a field; prefix "-" for descending (default -createdAt: newest first)'
complete -c blogctl -n '__blogctl_at "blog list"' -l json -x -a '(__blogctl_list id _id title slug excerpt content wordCount createdAt status language category topicKeywords targetAudience toneStyle contentStructure blogLength metaData)'
complete -c blogctl -n '__blogctl_at "blog list"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# blog show
complete -c blogctl -n '__blogctl_at "blog show"' -l field -x -d 'print only this field: text exactly as stored (no newline added when piped), other values as JSON'
complete -c blogctl -n '__blogctl_at "blog show"' -l markdown -d 'print the post as Markdown that wp publish reads back (title, slug, excerpt, blog_id): the file\'s post is the blog\'s, the same as wp publish --from-blog <id>'
complete -c blogctl -n '__blogctl_at "blog show"' -l json -x -a '(__blogctl_list id _id title slug excerpt content wordCount createdAt status language category topicKeywords targetAudience toneStyle contentStructure blogLength metaData)'
complete -c blogctl -n '__blogctl_at "blog show"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# blog delete
complete -c blogctl -n '__blogctl_at "blog delete"' -s y -l yes -d 'do not ask for confirmation (required when there is no terminal)'
complete -c blogctl -n '__blogctl_at "blog delete"' -l concurrency -x -d 'deletes in flight at once (default: the concurrency setting, 4)'
complete -c blogctl -n '__blogctl_at "blog delete"' -l json -x -a '(__blogctl_list id deleted status error)'
complete -c blogctl -n '__blogctl_at "blog delete"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# wp
complete -c blogctl -n '__blogctl_at "wp" 0' -a 'sites' -d 'local WordPress site profiles (URL, username, Application Password)'
complete -c blogctl -n '__blogctl_at "wp" 0' -a 'settings' -d 'change the service\'s WordPress integration settings'
complete -c blogctl -n '__blogctl_at "wp" 0' -a 'publish' -d 'publish posts (files, folders, flags, a generated blog) to WordPress, in step'
complete -c blogctl -n '__blogctl_at "wp" 0' -a 'init' -d 'write the project file (blogctl.yml): site, namespace, sources'
complete -c blogctl -n '__blogctl_at "wp" 0' -a 'pull' -d 'write the site\'s posts into the project as Markdown files'
complete -c blogctl -n '__blogctl_at "wp" 0' -a 'doctor' -d 'find what keeps blogctl out of a site, and the fix (no site: the default)'

# wp sites
complete -c blogctl -n '__blogctl_at "wp sites" 0' -a 'add' -d 'add a WordPress site profile: URL, username and Application Password'
complete -c blogctl -n '__blogctl_at "wp sites" 0' -a 'list' -d 'list site profiles (passwords are never shown); -q: only the ids'
complete -c blogctl -n '__blogctl_at "wp sites" 0' -a 'show' -d 'show one site profile; -q: only its id'
complete -c blogctl -n '__blogctl_at "wp sites" 0' -a 'verify' -d 'check a site and its credentials (no id: the default site); records the result'
complete -c blogctl -n '__blogctl_at "wp sites" 0' -a 'set-password' -d 'replace a site profile\'s Application Password (checked with the site first)'
complete -c blogctl -n '__blogctl_at "wp sites" 0' -a 'remove' -d 'remove a site profile and its stored password (asks, or --yes)'

# wp sites add
complete -c blogctl -n '__blogctl_at "wp sites add"' -l url -x -d 'the WordPress site URL, e.g. https://example.com'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l username -x -d 'the WordPress username the Application Password belongs to'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l label -x -d 'display name'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l auto-publish -d 'mark the site for automatic publishing'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l password-stdin -d 'read the Application Password from stdin (first line)'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l web -d 'let the site mint the Application Password after you approve blogctl in a browser'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l no-browser -d 'with --web: print the page to open instead of opening it'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l force -d 'replace an existing profile with the same id'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l no-verify -d 'store the profile without asking the site whether it accepts the credentials'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l json -x -a '(__blogctl_list id url username label autoPublish isIntegrated isWebsiteValid verifiedAt password default)'
complete -c blogctl -n '__blogctl_at "wp sites add"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# wp sites list
complete -c blogctl -n '__blogctl_at "wp sites list"' -l json -x -a '(__blogctl_list id url username label autoPublish isIntegrated isWebsiteValid verifiedAt password default)'
complete -c blogctl -n '__blogctl_at "wp sites list"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# wp sites show
complete -c blogctl -n '__blogctl_at "wp sites show"' -l json -x -a '(__blogctl_list id url username label autoPublish isIntegrated isWebsiteValid verifiedAt password default)'
complete -c blogctl -n '__blogctl_at "wp sites show"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "wp sites show" 0' -a '(__blogctl_dynamic sites)'

# wp sites verify
complete -c blogctl -n '__blogctl_at "wp sites verify"' -l password-stdin -d 'read the Application Password from stdin instead of the profile\'s'
complete -c blogctl -n '__blogctl_at "wp sites verify"' -l json -x -a '(__blogctl_list id url valid verifiedAt restRoot permalinks applicationPasswords siteName syncState seo user can)'
complete -c blogctl -n '__blogctl_at "wp sites verify"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "wp sites verify" 0' -a '(__blogctl_dynamic sites)'

# wp sites set-password
complete -c blogctl -n '__blogctl_at "wp sites set-password"' -l password-stdin -d 'read the Application Password from stdin (first line)'
complete -c blogctl -n '__blogctl_at "wp sites set-password"' -l no-verify -d 'store it without asking the site whether it accepts it'
complete -c blogctl -n '__blogctl_at "wp sites set-password"' -l json -x -a '(__blogctl_list id url username label autoPublish isIntegrated isWebsiteValid verifiedAt password default)'
complete -c blogctl -n '__blogctl_at "wp sites set-password"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "wp sites set-password" 0' -a '(__blogctl_dynamic sites)'

# wp sites remove
complete -c blogctl -n '__blogctl_at "wp sites remove"' -s y -l yes -d 'do not ask for confirmation (required when there is no terminal)'
complete -c blogctl -n '__blogctl_at "wp sites remove"' -l json -x -a '(__blogctl_list id removed defaultUnset)'
complete -c blogctl -n '__blogctl_at "wp sites remove"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "wp sites remove" 0' -a '(__blogctl_dynamic sites)'

# wp settings
complete -c blogctl -n '__blogctl_at "wp settings" 0' -a 'update' -d 'send only the given fields as one settings object (a partial update)'
complete -c blogctl -n '__blogctl_at "wp settings" 0' -a 'replace' -d 'replace the whole list of WordPress sites on the service'

# wp settings update
complete -c blogctl -n '__blogctl_at "wp settings update"' -l site -x -a '(__blogctl_dynamic sites)'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l site -x -d 'the site id to update (sent as `id`)'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l label -x -d 'display name'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l integrated -d 'enable the integration'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l no-integrated -d 'disable the integration'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l website-valid -d 'mark the site as valid'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l no-website-valid -d 'mark the site as not valid'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l auto-publish -d 'turn automatic publishing on'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l no-auto-publish -d 'turn automatic publishing off'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l url -x -d 'credentials.websiteUrl'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l username -x -d 'credentials.username'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l password-stdin -d 'credentials.password from stdin (first line)'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l with-credentials -d 'send the --site profile\'s URL, username and password (flags override them)'
complete -c blogctl -n '__blogctl_at "wp settings update"' -s f -l file -r -F -d 'settings object as JSON (or - for stdin); flags override it'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l dry-run -d 'print the request body (passwords as ***) and send nothing'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l json -x -a '(__blogctl_list settings success integration)'
complete -c blogctl -n '__blogctl_at "wp settings update"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# wp settings replace
complete -c blogctl -n '__blogctl_at "wp settings replace"' -s f -l file -r -F -d 'the list as a JSON array (or {"settings": [...]}; - for stdin)'
complete -c blogctl -n '__blogctl_at "wp settings replace"' -l from-sites -d 'send every local site profile, with its credentials'
complete -c blogctl -n '__blogctl_at "wp settings replace"' -s y -l yes -d 'do not ask for confirmation (required when there is no terminal)'
complete -c blogctl -n '__blogctl_at "wp settings replace"' -l dry-run -d 'print the request body (passwords as ***) and send nothing'
complete -c blogctl -n '__blogctl_at "wp settings replace"' -l json -x -a '(__blogctl_list settings success integration)'
complete -c blogctl -n '__blogctl_at "wp settings replace"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# wp publish
complete -c blogctl -n '__blogctl_at "wp publish"' -l site -x -a '(__blogctl_dynamic sites)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l site -x -d 'site profile to publish to (default: BLOGCTL_SITE, then config default-site)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l url -x -d 'WordPress site URL, instead of a profile'
complete -c blogctl -n '__blogctl_at "wp publish"' -l username -x -d 'WordPress username, with --url'
complete -c blogctl -n '__blogctl_at "wp publish"' -l password-stdin -d 'read the Application Password from stdin (first line)'
complete -c blogctl -n '__blogctl_at "wp publish"' -s f -l file -r -F -d 'payload JSON: {content} or {credentials, content} (- for stdin); flags override it'
complete -c blogctl -n '__blogctl_at "wp publish"' -l from-blog -x -d 'take the title and content of a generated blog'
complete -c blogctl -n '__blogctl_at "wp publish"' -l title -x -d 'post title'
complete -c blogctl -n '__blogctl_at "wp publish"' -l content -x -d 'post body as HTML'
complete -c blogctl -n '__blogctl_at "wp publish"' -l content-file -r -F -d 'the post body from a file: Markdown (.md, with front matter) is converted, anything else sent as HTML; - for stdin (HTML)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l namespace -x -d 'a post without a file: the namespace it belongs to (default: none, wherever blogctl runs; a project\'s runs then count it as theirs)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l status -x -a 'publish draft pending private future'
complete -c blogctl -n '__blogctl_at "wp publish"' -l status -x -d 'post status (default draft)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l date -x -d 'publish date, ISO 8601 (no offset: site time)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l date-gmt -x -d 'publish date in UTC, ISO 8601'
complete -c blogctl -n '__blogctl_at "wp publish"' -l slug -x -d 'URL slug'
complete -c blogctl -n '__blogctl_at "wp publish"' -l excerpt -x -d 'excerpt'
complete -c blogctl -n '__blogctl_at "wp publish"' -l author -x -d 'author user id'
complete -c blogctl -n '__blogctl_at "wp publish"' -l featured-image -r -F -d 'upload this image as the featured image'
complete -c blogctl -n '__blogctl_at "wp publish"' -l featured-media -x -d 'featured image by media id'
complete -c blogctl -n '__blogctl_at "wp publish"' -l comment-status -x -a 'open closed'
complete -c blogctl -n '__blogctl_at "wp publish"' -l comment-status -x -d 'comments'
complete -c blogctl -n '__blogctl_at "wp publish"' -l ping-status -x -a 'open closed'
complete -c blogctl -n '__blogctl_at "wp publish"' -l ping-status -x -d 'pings'
complete -c blogctl -n '__blogctl_at "wp publish"' -l format -x -a 'standard aside chat gallery link image quote status video audio'
complete -c blogctl -n '__blogctl_at "wp publish"' -l format -x -d 'post format'
complete -c blogctl -n '__blogctl_at "wp publish"' -l sticky -d 'stick the post to the front page'
complete -c blogctl -n '__blogctl_at "wp publish"' -l no-sticky -d 'do not stick the post'
complete -c blogctl -n '__blogctl_at "wp publish"' -l template -x -d 'theme template by name, e.g. full-width.php'
complete -c blogctl -n '__blogctl_at "wp publish"' -l category -x -d 'category: name, slug or id; repeatable, a,b'
complete -c blogctl -n '__blogctl_at "wp publish"' -l meta -x -d 'post meta field; repeatable (JSON values typed)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l tag -x -d 'tag: name, slug or id; repeatable, a,b'
complete -c blogctl -n '__blogctl_at "wp publish"' -l create-terms -d 'create missing categories and tags'
complete -c blogctl -n '__blogctl_at "wp publish"' -l post-password -x -d 'password-protect the post'
complete -c blogctl -n '__blogctl_at "wp publish"' -l post-password-stdin -d 'the post\'s password from stdin (first line)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l key -x -d 'the post\'s identity (default: its source)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l allow-immediate -d 'a future post with no usable date: publish now'
complete -c blogctl -n '__blogctl_at "wp publish"' -l concurrency -x -d 'posts in flight at once in a batch (default: the concurrency setting, 4)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l dry-run -d 'read the site and print the plan (create, update with the fields, unchanged); send nothing'
complete -c blogctl -n '__blogctl_at "wp publish"' -l markdown -d 'print the plan (or the results) as Markdown tables grouped by action, for a pull-request comment'
complete -c blogctl -n '__blogctl_at "wp publish"' -l summary -r -F -d 'also append that Markdown to a file (a CI job summary: "$GITHUB_STEP_SUMMARY")'
complete -c blogctl -n '__blogctl_at "wp publish"' -l no-update -d 'leave posts whose source changed as they are (reported "changed")'
complete -c blogctl -n '__blogctl_at "wp publish"' -l force -d 'a field edited on the site that the source changed too (a conflict, exit 6) takes the source\'s value'
complete -c blogctl -n '__blogctl_at "wp publish"' -l prune -d 'move the project\'s posts whose source is gone (orphaned) to WordPress\'s trash; only when publishing the whole project'
complete -c blogctl -n '__blogctl_at "wp publish"' -l exit-code -d 'exit 8 when the site is not in step with the sources (with --dry-run: would change)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l service-only -d 'publish through the service alone, without reading the site (no look-up: repeats cannot be detected; no update)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l json -x -a '(__blogctl_list action published id link status type fields requestedStatus edited source error exitCode post)'
complete -c blogctl -n '__blogctl_at "wp publish"' -l json -x -d 'print JSON; optionally only these comma-separated fields'
complete -c blogctl -n '__blogctl_at "wp publish" 0+' -F

# wp init
complete -c blogctl -n '__blogctl_at "wp init"' -l site -x -a '(__blogctl_dynamic sites)'
complete -c blogctl -n '__blogctl_at "wp init"' -l site -x -d 'a site profile id, or the site URL (with --username)'
complete -c blogctl -n '__blogctl_at "wp init"' -l username -x -d 'the WordPress username, with a site URL'
complete -c blogctl -n '__blogctl_at "wp init"' -l namespace -x -d 'what makes the posts this project\'s (default: the repository\'s or folder\'s name)'
complete -c blogctl -n '__blogctl_at "wp init"' -l write-keys -d 'write a random front matter "key" into every Markdown source without one'

# wp pull
complete -c blogctl -n '__blogctl_at "wp pull"' -l site -x -a '(__blogctl_dynamic sites)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l site -x -d 'site profile to read (default: the project\'s site)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l url -x -d 'WordPress site URL, instead of a profile'
complete -c blogctl -n '__blogctl_at "wp pull"' -l username -x -d 'WordPress username, with --url'
complete -c blogctl -n '__blogctl_at "wp pull"' -l password-stdin -d 'read the Application Password from stdin (first line)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l status -x -d 'only these statuses, comma-separated (default: publish,future,draft,pending,private)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l since -x -d 'only posts modified since this date (the site\'s time without an offset)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l author -x -d 'only posts by this user id'
complete -c blogctl -n '__blogctl_at "wp pull"' -l type -x -d 'post types to pull, comma-separated, by name or REST base: post, page, recipes (default: every type the site offers)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l category -x -d 'only posts in this category (repeatable or comma-separated)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l media -d 'download featured images next to the posts (default: the media id, its URL as a comment)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l adopt -d 'make each pulled post the file\'s post on the site (its identity written there): the next publish is unchanged'
complete -c blogctl -n '__blogctl_at "wp pull"' -l force -d 'overwrite files that differ from their post (default: reported and left)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l json -x -a '(__blogctl_list file action id link status adopted note)'
complete -c blogctl -n '__blogctl_at "wp pull"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# wp doctor
complete -c blogctl -n '__blogctl_at "wp doctor"' -l username -x -d 'with a URL: the WordPress account to check'
complete -c blogctl -n '__blogctl_at "wp doctor"' -l password-stdin -d 'read the Application Password from stdin'
complete -c blogctl -n '__blogctl_at "wp doctor"' -l json -x -a '(__blogctl_list url server cdn restRoot permalinks checks canPublish canSync ok)'
complete -c blogctl -n '__blogctl_at "wp doctor"' -l json -x -d 'print JSON; optionally only these comma-separated fields'

# completion
complete -c blogctl -n '__blogctl_at "completion" 0' -a 'bash zsh fish'

# sandbox
complete -c blogctl -n '__blogctl_at "sandbox"' -l port -x -d 'port to listen on'
complete -c blogctl -n '__blogctl_at "sandbox"' -l host -x -d 'address to listen on; beyond loopback (0.0.0.0, ::, a LAN address) other machines can reach it'
complete -c blogctl -n '__blogctl_at "sandbox"' -l api-key-file -r -F -d 'accepted API keys, one a line, in a file only you can read (0600); or env BLOGCTL_SANDBOX_KEYS'
complete -c blogctl -n '__blogctl_at "sandbox"' -l api-key -x -d 'accepted API key (repeatable); visible in ps and shell history: prefer --api-key-file'
complete -c blogctl -n '__blogctl_at "sandbox"' -l data -r -F -d 'persist state in this JSON file (default: memory only)'
complete -c blogctl -n '__blogctl_at "sandbox"' -l latency -x -d 'simulated generation time for create-blog'
complete -c blogctl -n '__blogctl_at "sandbox"' -l quota -x -d 'storage each API key\'s records may take (507 beyond it)'
complete -c blogctl -n '__blogctl_at "sandbox"' -l delete-status -x -a '200 204'
complete -c blogctl -n '__blogctl_at "sandbox"' -l delete-status -x -d 'status of a successful delete'
complete -c blogctl -n '__blogctl_at "sandbox"' -l publish-shape -x -a 'typed alt'
complete -c blogctl -n '__blogctl_at "sandbox"' -l publish-shape -x -d 'publish response shape: typed {isPublished, link, id, status, type} or alt {success, postUrl, postId}'
complete -c blogctl -n '__blogctl_at "sandbox"' -l allow-private-relay -d 'listening beyond loopback, still relay publishes to loopback, link-local and private addresses (refused by default)'
complete -c blogctl -n '__blogctl_at "sandbox"' -l provider-url -x -d 'write posts with a model: an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (env BLOGCTL_PROVIDER_URL)'
complete -c blogctl -n '__blogctl_at "sandbox"' -l model -x -d 'the provider\'s model, e.g. llama3.2 (env BLOGCTL_MODEL)'
complete -c blogctl -n '__blogctl_at "sandbox"' -l provider-key-stdin -d 'read the provider key from stdin\'s first line, for requests that bring none (env BLOGCTL_PROVIDER_API_KEY)'
complete -c blogctl -n '__blogctl_at "sandbox"' -l prompts -x -d 'prompt files that replace the shipped ones by name (env BLOGCTL_PROMPTS_DIR)'

# help
complete -c blogctl -n '__blogctl_at "help" 0 ""' -a 'environment exit-codes auth config blog wp completion sandbox'
complete -c blogctl -n '__blogctl_at "help" 1 "auth"' -a 'login status switch token logout'
complete -c blogctl -n '__blogctl_at "help" 1 "config"' -a 'get set unset list path'
complete -c blogctl -n '__blogctl_at "help" 1 "blog"' -a 'create list show delete'
complete -c blogctl -n '__blogctl_at "help" 1 "wp"' -a 'sites settings publish init pull doctor'
complete -c blogctl -n '__blogctl_at "help" 2 "wp sites"' -a 'add list show verify set-password remove'
complete -c blogctl -n '__blogctl_at "help" 2 "wp settings"' -a 'update replace'
