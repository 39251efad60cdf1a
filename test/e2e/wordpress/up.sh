#!/usr/bin/env bash
# up.sh - bring up a throw-away WordPress (Debian 12 "wordpress" package, 6.1.x) for blogctl's
# end-to-end tests (test/e2e/wordpress/README.md explains each step).
#
#   * MariaDB runs as a private, socket-only instance (no TCP port, no systemd) in $WP_STATE_DIR/mysql.
#   * WordPress is served by PHP's built-in server on http://127.0.0.1:$WP_PORT from Debian's own
#     /usr/share/wordpress docroot, using Debian's config mechanism (/etc/wordpress/config-e2e-$WP_PORT.php,
#     selected through $_SERVER['WORDPRESS_CONFIG'], which our router sets) and a private wp-content dir.
#   * WP_ENVIRONMENT_TYPE=local, so Application Passwords work over plain HTTP.
#   * A mu-plugin registers the post meta key `blogctl_source` (string, single, show_in_rest) and
#     declares theme support for all post formats, so `meta` and `format` can be tested.
#
#   * Two more accounts, an Author and an Editor, each with an Application Password of its own.
#   * WP_MU_PLUGINS="file.php …": more mu-plugins copied into the instance's private wp-content/mu-plugins
#     (blogctl's companion plugin, the test mu-plugins in test/e2e/wordpress/mu-plugins/).
#
# stdout: ONLY KEY=value lines (values never contain spaces or quotes: `eval`-able, dotenv-parsable):
#   WP_BASE_URL WP_REST_URL WP_USERNAME WP_APP_PASSWORD WP_ADMIN_PASSWORD WP_STATE_DIR WP_PORT WP_PERMALINKS
#   WP_AUTHOR_USERNAME WP_AUTHOR_APP_PASSWORD WP_EDITOR_USERNAME WP_EDITOR_APP_PASSWORD WP_MU_PLUGINS
# stderr: progress + timings.
#
# Idempotent: a healthy instance for $WP_PORT (same permalink mode, or any mode if WP_PERMALINKS is unset;
# the same WP_MU_PLUGINS file names) is reused, its mu-plugins copied again (edits take effect), and the same
# values are printed again; a dead/half-started one (or one in the other permalink
# mode) is torn down (down.sh) and rebuilt. WP_FRESH=1 forces a rebuild.
# Several instances on different ports can run (and be started) side by side.
#
# Knobs (environment):
#   WP_PORT=8080  WP_STATE_DIR=/tmp/blogctl-wp-e2e-$WP_PORT  WP_PERMALINKS=pretty|plain  WP_FRESH=0
#   WP_SKIP_APT=0 (fail instead of installing packages)  WP_READY_TIMEOUT=60 (seconds)
#   WP_ADMIN_USER=admin  WP_ADMIN_EMAIL=admin@example.com  WP_ADMIN_PASSWORD=<random, alphanumeric>
#   WP_TITLE="blogctl E2E"  WP_APP_NAME=blogctl-e2e  WP_PHP_WORKERS=4  WP_KEEP_ON_FAIL=0
#   WP_MU_PLUGINS="" (paths of .php files, space-separated)  WP_AUTHOR_USER=author  WP_EDITOR_USER=editor
set -euo pipefail

# Everything this script (and its children) write to stdout goes to stderr; only emit_env uses fd 3.
exec 3>&1 1>&2

WP_PORT=${WP_PORT:-8080}
WP_STATE_DIR=${WP_STATE_DIR:-/tmp/blogctl-wp-e2e-$WP_PORT}
WP_PERMALINKS_ASKED=${WP_PERMALINKS:-} # empty: a healthy instance is reused whatever its mode
WP_PERMALINKS=${WP_PERMALINKS:-pretty}
WP_FRESH=${WP_FRESH:-0}
WP_SKIP_APT=${WP_SKIP_APT:-0}
WP_READY_TIMEOUT=${WP_READY_TIMEOUT:-60}
WP_ADMIN_USER=${WP_ADMIN_USER:-admin}
WP_ADMIN_EMAIL=${WP_ADMIN_EMAIL:-admin@example.com}
WP_TITLE=${WP_TITLE:-blogctl E2E}
WP_APP_NAME=${WP_APP_NAME:-blogctl-e2e}
WP_PHP_WORKERS=${WP_PHP_WORKERS:-4}
WP_KEEP_ON_FAIL=${WP_KEEP_ON_FAIL:-0}
WP_MU_PLUGINS=${WP_MU_PLUGINS:-}
WP_AUTHOR_USER=${WP_AUTHOR_USER:-author}
WP_EDITOR_USER=${WP_EDITOR_USER:-editor}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
S=$WP_STATE_DIR
NAME="e2e-$WP_PORT" # Debian config name -> /etc/wordpress/config-$NAME.php
CONF="/etc/wordpress/config-$NAME.php"
BASE="http://127.0.0.1:$WP_PORT"
PACKAGES=(wordpress wordpress-theme-twentytwentythree php-cli php-mysql mariadb-server curl)
APT_LOCK=/run/lock/blogctl-wp-e2e-apt.lock # serialises package installs of parallel bring-ups

T0=$(date +%s.%N)
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
log() { printf '[up.sh:%s %6ss] %s\n' "$WP_PORT" "$(elapsed "$T0")" "$*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || die "run as root (or install sudo): apt and /etc/wordpress need root"
  SUDO="sudo"
fi
[[ "$WP_PORT" =~ ^[0-9]+$ ]] || die "WP_PORT must be numeric"
[[ "$WP_READY_TIMEOUT" =~ ^[0-9]+$ ]] || die "WP_READY_TIMEOUT must be a whole number of seconds"
case "$WP_PERMALINKS" in pretty | plain) ;; *) die "WP_PERMALINKS must be pretty or plain" ;; esac
case "$S" in /*) ;; *) die "WP_STATE_DIR must be an absolute path" ;; esac
if [ -n "${WP_ADMIN_PASSWORD:-}" ] && ! [[ "$WP_ADMIN_PASSWORD" =~ ^[A-Za-z0-9]+$ ]]; then
  die "WP_ADMIN_PASSWORD must be alphanumeric (it is printed as KEY=value)"
fi
for u in "$WP_ADMIN_USER" "$WP_AUTHOR_USER" "$WP_EDITOR_USER"; do
  [[ "$u" =~ ^[a-z0-9_-]+$ ]] || die "user names must be lower-case alphanumerics, '_' or '-' (got '$u')"
done
# The extra mu-plugins: absolute paths of readable .php files, and their names (what the instance records).
MU_FILES=()
MU_NAMES=""
for f in $WP_MU_PLUGINS; do
  case "$f" in *.php) ;; *) die "WP_MU_PLUGINS: $f is not a .php file" ;; esac
  [ -r "$f" ] || die "WP_MU_PLUGINS: cannot read $f"
  [[ "$(basename "$f")" =~ ^[A-Za-z0-9._-]+$ ]] || die "WP_MU_PLUGINS: $f: file names are printed as KEY=value"
  MU_FILES+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
  MU_NAMES+="${MU_NAMES:+,}$(basename "$f")"
done

# A PID counts as alive only if it exists and is not a zombie: in this container PID 1 does not reap
# orphans, so killed daemons linger as zombies and `kill -0` still succeeds on them.
alive() {
  local st
  [ -n "${1:-}" ] && [ -r "/proc/$1/stat" ] || return 1
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}
# children_of PID: direct children, from /proc (procps may be missing). `|| :` matters: /proc entries
# vanish while we read them, and with pipefail + errexit a failing sed would kill the script silently.
children_of() {
  local f
  for f in /proc/[0-9]*/stat; do
    sed -n 's/^\([0-9]*\) .*) [A-Za-z] \([0-9]*\) .*/\1 \2/p' "$f" 2>/dev/null || :
  done | awk -v p="$1" '$2 == p { print $1 }'
}
# is_cmd PID PATTERN: wait (<=5 s) until PID's command line contains PATTERN. Right after `cmd &` the
# child may still be the forked bash that has not exec'd yet, so a single immediate check is racy.
is_cmd() {
  local _
  for _ in $(seq 1 100); do
    [[ "$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)" == *"$2"* ]] && return 0
    alive "$1" || return 1
    sleep 0.05
  done
  return 1
}
# Daemons must not inherit our extra file descriptors: fd 3 (our real stdout) or a pipe from the caller
# left open in mariadbd/php would make `$(up.sh)` or a test runner wait for EOF until down.sh runs.
# Call in the subshell that then execs the daemon.
close_extra_fds() {
  local fd
  for fd in /proc/"$BASHPID"/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
  done
}
http_code() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" || true; }

# the URLs WordPress itself advertises (Link: <...>; rel="https://api.w.org/")
rest_url() { if [ "$1" = pretty ]; then echo "$BASE/wp-json/"; else echo "$BASE/index.php?rest_route=/"; fi; }
me_url() { echo "$(rest_url "$1")wp/v2/users/me"; }
emit_env() { cat "$S/env" >&3; }
# copies WP_MU_PLUGINS into the instance (a reused one too: edits of a plugin take effect within OPcache's 2 s)
copy_mu_plugins() {
  local f
  for f in "${MU_FILES[@]}"; do cp "$f" "$S/wp-content/mu-plugins/$(basename "$f")"; done
}

# ------------------------------------------------------------------ 0. reuse a healthy instance
if [ "$WP_FRESH" != 1 ] && [ -s "$S/env" ] && alive "$(cat "$S/php.pid" 2>/dev/null)" &&
  alive "$(cat "$S/mysqld.pid" 2>/dev/null)"; then
  old_user=$(sed -n 's/^WP_USERNAME=//p' "$S/env")
  old_pw=$(sed -n 's/^WP_APP_PASSWORD=//p' "$S/env")
  old_mode=$(sed -n 's/^WP_PERMALINKS=//p' "$S/env")
  old_mu=$(sed -n 's/^WP_MU_PLUGINS=//p' "$S/env")
  # An instance from before the Author and Editor accounts existed has no WP_EDITOR_APP_PASSWORD: rebuilt.
  if { [ -z "$WP_PERMALINKS_ASKED" ] || [ "$old_mode" = "$WP_PERMALINKS_ASKED" ]; } &&
    [ "$old_mu" = "$MU_NAMES" ] && grep -q '^WP_EDITOR_APP_PASSWORD=' "$S/env" &&
    [ "$(http_code -u "$old_user:$old_pw" "$(me_url "$old_mode")")" = 200 ]; then
    log "instance on $BASE already up and healthy; reusing it (WP_FRESH=1 to rebuild)"
    copy_mu_plugins
    emit_env
    exit 0
  fi
fi
# anything left over (dead/unhealthy instance, other permalink mode, stale state) goes away first
if [ -e "$S" ] || [ -e "$CONF" ]; then
  log "tearing down previous instance state in $S"
  WP_PORT=$WP_PORT WP_STATE_DIR=$S "$HERE/down.sh" >&2
fi

# From here on, a failure stops whatever was started (state dir + logs kept for inspection).
on_exit() {
  local rc=$?
  if [ "$rc" != 0 ] && [ "$WP_KEEP_ON_FAIL" != 1 ]; then
    log "bring-up failed (rc=$rc); stopping what was started; logs kept in $S"
    WP_PORT=$WP_PORT WP_STATE_DIR=$S WP_KEEP_STATE=1 "$HERE/down.sh" >&2 || true
  fi
}
trap on_exit EXIT

mkdir -p "$S"
chmod 700 "$S"

# ------------------------------------------------------------------ 1. packages
missing_packages() {
  local p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}
mapfile -t missing < <(missing_packages)
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$WP_SKIP_APT" = 1 ] && die "missing packages: ${missing[*]} (WP_SKIP_APT=1)"
  # Parallel bring-ups: the first one installs, the others wait here and then find nothing missing.
  exec 9>"$APT_LOCK"
  log "waiting for the package lock $APT_LOCK"
  flock -w 900 9 || die "timed out waiting for $APT_LOCK"
  mapfile -t missing < <(missing_packages)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  # `wordpress` depends on apache2|httpd and libapache2-mod-php|php, so apt pulls in apache2 + mod_php even
  # with --no-install-recommends. Keep their (and the system MariaDB's) init scripts from starting anything:
  # a temporary policy-rc.d (honoured by invoke-rc.d and deb-systemd-invoke) unless the image has one.
  created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod 755 /usr/sbin/policy-rc.d
    created_policy=1
  fi
  t=$(date +%s.%N)
  log "missing: ${missing[*]}; apt-get update"
  set +e
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$S/apt-update.log" 2>&1
  rc=$?
  if [ "$rc" = 0 ]; then
    log "apt-get update done in $(elapsed "$t")s; installing: ${PACKAGES[*]}"
    t=$(date +%s.%N)
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
      "${PACKAGES[@]}" >"$S/apt-install.log" 2>&1
    rc=$?
  fi
  set -e
  if [ "$created_policy" = 1 ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
  if [ "$rc" != 0 ]; then
    tail -30 "$S"/apt-*.log >&2
    die "apt-get failed (rc=$rc)"
  fi
  log "apt-get install done in $(elapsed "$t")s ($(grep -E '^(Fetched|Need to get)' "$S/apt-install.log" | tr '\n' ' '))"
else
  log "packages already installed"
fi
exec 9>&- # release the package lock (no-op if never taken)
T_PKG_DONE=$(date +%s.%N)

# ------------------------------------------------------------------ 2. the port must be free
# (a TCP connect, not an HTTP request: a non-HTTP listener must count too)
if (: <>"/dev/tcp/127.0.0.1/$WP_PORT") 2>/dev/null; then
  die "something already listens on 127.0.0.1:$WP_PORT (not ours: no state in $S)"
fi

rand() { head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c "$1"; }
DB_PASS=$(rand 24)
WP_ADMIN_PASSWORD=${WP_ADMIN_PASSWORD:-$(rand 24)}
ME=$(id -un)

# ------------------------------------------------------------------ 3. private MariaDB (socket only)
t=$(date +%s.%N)
# A private tmpdir: two instances bootstrapping at once in the shared /tmp were seen to trip over each
# other's temporary tables ("Unknown table 'mysql.tmp_proxies_priv'") on a fresh machine. One retry on a
# clean datadir covers any other first-boot hiccup.
mkdir -p "$S/tmp"
install_db() {
  rm -rf "$S/mysql"
  mariadb-install-db --no-defaults --datadir="$S/mysql" --tmpdir="$S/tmp" --user="$ME" \
    --auth-root-authentication-method=socket --skip-test-db >"$S/mariadb-install-db.log" 2>&1
}
install_db || {
  log "mariadb-install-db failed once; retrying on a clean datadir"
  install_db
} || {
  cat "$S/mariadb-install-db.log" >&2
  die "mariadb-install-db failed"
}
# setsid: own session/process group, detached from our terminal. mariadbd refuses root without --user.
# (the subshell execs setsid, which execs mariadbd without forking: $! is mariadbd's PID)
(
  close_extra_fds
  exec setsid /usr/sbin/mariadbd --no-defaults --user="$ME" --datadir="$S/mysql" --tmpdir="$S/tmp" \
    --socket="$S/mysqld.sock" --pid-file="$S/mysqld.pid" --skip-networking \
    --log-error="$S/mysqld.err" --skip-log-bin --innodb-buffer-pool-size=64M \
    --innodb-flush-log-at-trx-commit=0 --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
    </dev/null >"$S/mysqld.out" 2>&1
) &
DB_PID=$!
echo "$DB_PID" >"$S/mysqld.pid" # mariadbd writes the same PID itself later; this one exists immediately
is_cmd "$DB_PID" "mariadbd" || die "pid $DB_PID is not mariadbd (did setsid fork?)"
for _ in $(seq 1 300); do
  mariadb-admin --no-defaults --socket="$S/mysqld.sock" -uroot ping >/dev/null 2>&1 && break
  alive "$DB_PID" || {
    tail -20 "$S/mysqld.err" >&2
    die "mariadbd exited"
  }
  sleep 0.1
done
mariadb-admin --no-defaults --socket="$S/mysqld.sock" -uroot ping >/dev/null 2>&1 || die "mariadbd not ready after 30s"
mariadb --no-defaults --socket="$S/mysqld.sock" -uroot <<SQL
CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS 'wordpress'@'localhost' IDENTIFIED BY '$DB_PASS';
GRANT ALL PRIVILEGES ON wordpress.* TO 'wordpress'@'localhost';
FLUSH PRIVILEGES;
SQL
log "mariadb up (pid $DB_PID) in $(elapsed "$t")s"

# ------------------------------------------------------------------ 4. WordPress config (Debian mechanism)
mkdir -p "$S/wp-content/themes" "$S/wp-content/plugins" "$S/wp-content/uploads" "$S/wp-content/mu-plugins"
for theme in /usr/share/wordpress/wp-content/themes/*/; do
  ln -sfn "${theme%/}" "$S/wp-content/themes/$(basename "$theme")"
done
keys=""
for k in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
  keys+="define('$k', '$(rand 48)');"$'\n'
done
$SUDO mkdir -p /etc/wordpress
$SUDO tee "$CONF" >/dev/null <<PHP
<?php
/* Written by blogctl test/e2e/wordpress/up.sh for the instance in $S; removed by down.sh. */
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', '$DB_PASS');
define('DB_HOST', 'localhost:$S/mysqld.sock');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
$keys\$table_prefix = 'wp_';
define('WP_HOME', '$BASE');
define('WP_SITEURL', '$BASE');
define('WP_CONTENT_DIR', '$S/wp-content');
define('WP_ENVIRONMENT_TYPE', 'local');   /* Application Passwords without HTTPS */
define('WP_DEBUG', false);
define('DISABLE_WP_CRON', true);          /* no loopback cron; due scheduled posts stay 'future' until /wp-cron.php */
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);   /* no internet: don't wait on api.wordpress.org time-outs */
PHP
$SUDO chmod 644 "$CONF"

cat >"$S/wp-content/mu-plugins/blogctl-e2e.php" <<'PHP'
<?php
/*
 * Plugin Name: blogctl e2e helpers
 * Description: Written by blogctl's test/e2e/wordpress/up.sh. Registers the post meta key blogctl_source
 *              for the REST API (unregistered keys are ignored by WordPress) and enables all post formats.
 */
add_action('init', function () {
    register_post_meta('post', 'blogctl_source', array(
        'type'         => 'string',
        'single'       => true,
        'show_in_rest' => true,
        'description'  => 'Where blogctl got the post from (e2e tests).',
    ));
});
add_action('after_setup_theme', function () {
    add_theme_support('post-formats', array('aside', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio', 'chat'));
}, 100);
add_filter('pre_wp_mail', '__return_false'); // no MTA here
PHP
copy_mu_plugins

cat >"$S/router.php" <<PHP
<?php
// Router for \`php -S 127.0.0.1:$WP_PORT -t /usr/share/wordpress router.php\`
// 1. select the Debian config /etc/wordpress/config-$NAME.php (read by /usr/share/wordpress/wp-config.php);
//    \$_SERVER changes made here survive into scripts the built-in server runs after "return false"
//    (php -S does not copy the environment into \$_SERVER, so this cannot be an env var).
\$_SERVER['WORDPRESS_CONFIG'] = '$NAME';
\$root = rtrim(\$_SERVER['DOCUMENT_ROOT'], '/');
\$path = rawurldecode(parse_url(\$_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');
// 2. wp-content lives outside the docroot (Debian's Apache config does "Alias /wp-content ...")
if (strncmp(\$path, '/wp-content/', 12) === 0) {
    \$rel  = substr(\$path, 12);
    \$file = '$S/wp-content/' . \$rel;
    if (strpos('/' . \$rel . '/', '/../') === false && is_file(\$file) && !preg_match('/\.php\$/i', \$file)) {
        \$types = ['css' => 'text/css', 'js' => 'application/javascript', 'json' => 'application/json',
                  'svg' => 'image/svg+xml', 'woff2' => 'font/woff2', 'woff' => 'font/woff'];
        \$ext = strtolower(pathinfo(\$file, PATHINFO_EXTENSION));
        header('Content-Type: ' . (\$types[\$ext] ?? (mime_content_type(\$file) ?: 'application/octet-stream')));
        header('Content-Length: ' . filesize(\$file));
        readfile(\$file);
        return true;
    }
    http_response_code(404);
    header('Content-Type: text/plain');
    echo "Not Found\n";
    return true;
}
// 3. real files: static ones are served by the built-in server, *.php scripts run with the right SCRIPT_NAME
if (\$path !== '/' && file_exists(\$root . \$path)) {
    if (is_dir(\$root . \$path) && substr(\$path, -1) !== '/') {
        header('Location: ' . \$path . '/', true, 301);
        return true;
    }
    return false;
}
// 4. everything else (pretty permalinks, /wp-json/...) -> WordPress front controller (nginx try_files)
\$_SERVER['SCRIPT_NAME'] = '/index.php';
\$_SERVER['PHP_SELF'] = '/index.php';
\$_SERVER['SCRIPT_FILENAME'] = \$root . '/index.php';
unset(\$_SERVER['PATH_INFO']);
chdir(\$root);
require \$root . '/index.php';
PHP

cat >"$S/wp-install.php" <<'PHP'
<?php
// php wp-install.php <config-name> <host:port> <title> <user> <pass> <email> <app-name> <pretty|plain> <author> <editor>
// stdout: the admin's Application Password, then the Author's, then the Editor's, one a line
list(, $cfg, $host, $title, $user, $pass, $email, $appname, $permalinks, $author, $editor) = $argv;
$_SERVER['WORDPRESS_CONFIG'] = $cfg;      // Debian's wp-config.php -> /etc/wordpress/config-$cfg.php
$_SERVER['HTTP_HOST'] = $host;            // Debian's wp-config.php reads it unconditionally
$_SERVER['SERVER_NAME'] = preg_replace('/:.*/', '', $host);
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['REQUEST_METHOD'] = 'GET';
define('WP_INSTALLING', true);
require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
add_filter('pre_wp_mail', '__return_false');   // no MTA: skip the "new site" e-mail
if (!is_blog_installed()) {
    $r = wp_install($title, $user, $email, true, '', wp_slash($pass));
    fwrite(STDERR, "wp_install: user_id={$r['user_id']}\n");
}
// Pretty permalinks make /wp-json/ work. Soft flush only: a hard flush would try to write .htaccess,
// which in the Debian package is a symlink to /etc/wordpress/htaccess.
update_option('permalink_structure', $permalinks === 'pretty' ? '/%postname%/' : '');
flush_rewrite_rules(false);
// One Application Password named $appname for the login (made anew); 24 chars, no spaces (the chunked
// "xxxx xxxx ..." form is accepted too).
function e2e_app_password($login, $appname) {
    $u = get_user_by('login', $login);
    if (!$u) { fwrite(STDERR, "no such user: $login\n"); exit(1); }
    foreach (WP_Application_Passwords::get_user_application_passwords($u->ID) as $item) {
        if ($item['name'] === $appname) WP_Application_Passwords::delete_application_password($u->ID, $item['uuid']);
    }
    $res = WP_Application_Passwords::create_new_application_password($u->ID, array('name' => $appname));
    if (is_wp_error($res)) { fwrite(STDERR, $res->get_error_message() . "\n"); exit(1); }
    return $res[0];
}
echo e2e_app_password($user, $appname), "\n";
// An Author (publishes its own posts; no edit_others_posts) and an Editor (edit_others_posts), each with a
// login password nobody knows (REST Basic auth takes only Application Passwords).
foreach (array($author => 'author', $editor => 'editor') as $login => $role) {
    if (!get_user_by('login', $login)) {
        $id = wp_insert_user(array('user_login' => $login, 'user_pass' => wp_generate_password(32),
            'user_email' => "$login@example.com", 'role' => $role, 'display_name' => ucfirst($role)));
        if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
    }
    echo e2e_app_password($login, $appname), "\n";
}
PHP

# ------------------------------------------------------------------ 5. install WordPress + app password
t=$(date +%s.%N)
APP_PWS=$(php -d display_errors=stderr "$S/wp-install.php" "$NAME" "127.0.0.1:$WP_PORT" "$WP_TITLE" \
  "$WP_ADMIN_USER" "$WP_ADMIN_PASSWORD" "$WP_ADMIN_EMAIL" "$WP_APP_NAME" "$WP_PERMALINKS" \
  "$WP_AUTHOR_USER" "$WP_EDITOR_USER" 2>"$S/wp-install.log") ||
  {
    cat "$S/wp-install.log" >&2
    die "WordPress install failed"
  }
mapfile -t pws <<<"$APP_PWS"
APP_PW=${pws[0]:-}
AUTHOR_PW=${pws[1]:-}
EDITOR_PW=${pws[2]:-}
for pw in "$APP_PW" "$AUTHOR_PW" "$EDITOR_PW"; do
  [[ "$pw" =~ ^[A-Za-z0-9]{24}$ ]] || {
    cat "$S/wp-install.log" >&2
    die "unexpected application password output"
  }
done
log "wordpress installed in $(elapsed "$t")s"

# ------------------------------------------------------------------ 6. PHP built-in server
t=$(date +%s.%N)
# PHP_CLI_SERVER_WORKERS: pre-forked workers, so concurrent requests don't queue behind each other.
# OPcache is on under php -S (cli-server obeys opcache.enable), revalidate_freq=2: edits show up within 2 s.
(
  close_extra_fds
  export PHP_CLI_SERVER_WORKERS=$WP_PHP_WORKERS
  exec setsid php \
    -d display_errors=0 -d log_errors=1 -d error_log="$S/php-error.log" \
    -d upload_max_filesize=64M -d post_max_size=64M -d memory_limit=256M \
    -S "127.0.0.1:$WP_PORT" -t /usr/share/wordpress "$S/router.php" \
    </dev/null >"$S/php-server.log" 2>&1
) &
PHP_PID=$!
echo "$PHP_PID" >"$S/php.pid"
is_cmd "$PHP_PID" "-S 127.0.0.1:$WP_PORT" || die "pid $PHP_PID is not the php server (did setsid fork?)"
ready=0
for _ in $(seq 1 $((WP_READY_TIMEOUT * 10))); do
  alive "$PHP_PID" || {
    tail -20 "$S/php-server.log" >&2
    die "php -S exited"
  }
  if [ "$(http_code "$(rest_url "$WP_PERMALINKS")")" = 200 ]; then
    ready=1
    break
  fi
  sleep 0.1
done
[ "$ready" = 1 ] || die "REST API not ready after ${WP_READY_TIMEOUT}s"
# Record the forked workers too: killing only the master leaves them alive and still listening.
# They are forked at start-up, before the first request can be answered, so the list is complete now.
children_of "$PHP_PID" >"$S/php-workers.pids"
code=$(http_code -u "$WP_ADMIN_USER:$APP_PW" "$(me_url "$WP_PERMALINKS")")
[ "$code" = 200 ] || die "application password check failed: GET users/me -> HTTP $code"
log "php -S up (pid $PHP_PID, workers $(tr '\n' ' ' <"$S/php-workers.pids")) in $(elapsed "$t")s"

# every PID we started, one per line (down.sh reads the individual files; this one is for humans/tests)
cat "$S/php.pid" "$S/php-workers.pids" "$S/mysqld.pid" >"$S/pids"

umask 077
cat >"$S/env" <<ENV
WP_BASE_URL=$BASE
WP_REST_URL=$(rest_url "$WP_PERMALINKS")
WP_USERNAME=$WP_ADMIN_USER
WP_APP_PASSWORD=$APP_PW
WP_ADMIN_PASSWORD=$WP_ADMIN_PASSWORD
WP_STATE_DIR=$S
WP_PORT=$WP_PORT
WP_PERMALINKS=$WP_PERMALINKS
WP_AUTHOR_USERNAME=$WP_AUTHOR_USER
WP_AUTHOR_APP_PASSWORD=$AUTHOR_PW
WP_EDITOR_USERNAME=$WP_EDITOR_USER
WP_EDITOR_APP_PASSWORD=$EDITOR_PW
WP_MU_PLUGINS=$MU_NAMES
ENV
log "REST ready: $(elapsed "$T_PKG_DONE")s after packages, $(elapsed "$T0")s total"
emit_env
