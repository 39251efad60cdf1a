#!/usr/bin/env bash
# down.sh - stop and remove the WordPress instance started by up.sh (same WP_PORT / WP_STATE_DIR).
#
# Stops only the processes recorded in the state dir, by PID, after checking each one's command line
# (php master + its pre-forked workers + anything else in the master's process group; mariadbd).
# Never kills by name. Removes /etc/wordpress/config-e2e-$WP_PORT.php and the state dir.
# Safe to run when nothing is running (exit 0). WP_KEEP_STATE=1 keeps the state dir (logs).
set -euo pipefail

WP_PORT=${WP_PORT:-8080}
WP_STATE_DIR=${WP_STATE_DIR:-/tmp/blogctl-wp-e2e-$WP_PORT}
WP_KEEP_STATE=${WP_KEEP_STATE:-0}
S=$WP_STATE_DIR
CONF="/etc/wordpress/config-e2e-$WP_PORT.php"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
[[ "$WP_PORT" =~ ^[0-9]+$ ]] || {
  echo "[down.sh] WP_PORT must be numeric" >&2
  exit 1
}

log() { echo "[down.sh:$WP_PORT] $*" >&2; }
# alive: exists and is not a zombie. PID 1 in this container does not reap orphans, so a killed daemon
# stays a zombie ("Z" in /proc/PID/stat) and `kill -0` keeps succeeding on it.
alive() {
  local st
  [ -n "${1:-}" ] && [ -r "/proc/$1/stat" ] || return 1
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}
cmdline() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null || :; }
# group_members PGID: up.sh starts each server under setsid, so the master's pgid == its pid
# (`|| :`: /proc entries vanish mid-scan; with pipefail + errexit that would abort the script)
group_members() {
  local f
  for f in /proc/[0-9]*/stat; do
    sed -n 's/^\([0-9]*\) .*) [A-Za-z] [0-9]* \([0-9]*\) .*/\1 \2/p' "$f" 2>/dev/null || :
  done | awk -v g="$1" '$2 == g { print $1 }'
}

# stop_pids PATTERN PID... : SIGTERM the live ones whose cmdline contains PATTERN, wait (10 s), then SIGKILL
stop_pids() {
  local pattern=$1 p _
  shift
  local pids=() left=()
  for p in "$@"; do
    [[ "$p" =~ ^[0-9]+$ ]] || continue
    if alive "$p" && [[ "$(cmdline "$p")" == *"$pattern"* ]]; then pids+=("$p"); fi
  done
  [ "${#pids[@]}" -eq 0 ] && return 0
  log "SIGTERM ${pids[*]}"
  kill -TERM "${pids[@]}" 2>/dev/null || :
  for _ in $(seq 1 100); do
    left=()
    for p in "${pids[@]}"; do if alive "$p"; then left+=("$p"); fi; done
    [ "${#left[@]}" -eq 0 ] && return 0
    sleep 0.1
  done
  log "SIGKILL ${left[*]}"
  kill -KILL "${left[@]}" 2>/dev/null || :
  for _ in $(seq 1 50); do
    left=()
    for p in "${pids[@]}"; do if alive "$p"; then left+=("$p"); fi; done
    [ "${#left[@]}" -eq 0 ] && return 0
    sleep 0.1
  done
  log "WARNING: still alive: ${left[*]}"
}

# ---- PHP built-in server: master + pre-forked workers (workers survive a master-only kill, still listening)
if [ -s "$S/php.pid" ]; then
  master=$(cat "$S/php.pid")
  pids=("$master")
  if [ -s "$S/php-workers.pids" ]; then mapfile -t -O "${#pids[@]}" pids <"$S/php-workers.pids"; fi
  if [[ "$master" =~ ^[0-9]+$ ]]; then mapfile -t -O "${#pids[@]}" pids < <(group_members "$master"); fi
  mapfile -t pids < <(printf '%s\n' "${pids[@]}" | sort -un)
  stop_pids "-S 127.0.0.1:$WP_PORT" "${pids[@]}"
fi

# ---- MariaDB: clean shutdown through our private socket, then the recorded PID as a fallback
if [ -s "$S/mysqld.pid" ]; then
  dbpid=$(cat "$S/mysqld.pid")
  if alive "$dbpid" && [[ "$(cmdline "$dbpid")" == *"--datadir=$S/mysql"* ]]; then
    log "mariadb shutdown (pid $dbpid)"
    mariadb-admin --no-defaults --socket="$S/mysqld.sock" -uroot shutdown >/dev/null 2>&1 || :
    for _ in $(seq 1 300); do
      alive "$dbpid" || break
      sleep 0.1
    done
    stop_pids "--datadir=$S/mysql" "$dbpid"
  fi
fi

# ---- files
if [ -e "$CONF" ]; then
  $SUDO rm -f "$CONF"
  log "removed $CONF"
fi
if [ "$WP_KEEP_STATE" != 1 ] && [ -d "$S" ]; then
  rm -rf "$S"
  log "removed $S"
fi
exit 0
