#!/usr/bin/env bash
# A throwaway PostgreSQL for tests and local runs, on Debian's packages (postgresql-common).
#   postgres.sh start   creates and starts cluster 15/kaboodle_ci_<id> on a free port, data under
#                       $ENGINES_STATE_DIR/postgres, trust auth on loopback; prints DATABASE_URL=...
#   postgres.sh stop    stops and drops that cluster (its data goes with it)
# Env: ENGINES_STATE_DIR (default <checkout>/.engines), PG_VERSION (default 15), PG_PORT (default: free),
#      PG_REUSE_SYSTEM=1 to use a server already answering on 127.0.0.1:5432 as user postgres without a
#      password instead of creating a cluster.
# Runs as root here (Debian's tools run the server as the postgres user).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
state="${ENGINES_STATE_DIR:-$root/.engines}/postgres"
version="${PG_VERSION:-15}"
# one cluster per state dir, so two checkouts (or two engineers' ENGINES_STATE_DIRs) never drop
# each other's cluster as "a leftover"
cluster="${PG_CLUSTER:-kaboodle_ci_$(printf '%s' "$state" | cksum | cut -d' ' -f1)}"

log() { echo "postgres: $*" >&2; }

start() {
  mkdir -p "$state"
  if [[ "${PG_REUSE_SYSTEM:-0}" == 1 ]] && psql -h 127.0.0.1 -p 5432 -U postgres -w -Atc 'SELECT 1' postgres >/dev/null 2>&1; then
    log "reusing the server on 127.0.0.1:5432"
    echo "reused" >"$state/mode"
    echo "DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres"
    return
  fi
  for cmd in pg_createcluster pg_ctlcluster pg_isready; do
    command -v "$cmd" >/dev/null || { log "$cmd is missing (apt-get install -y postgresql)"; exit 1; }
  done
  if pg_lsclusters -h 2>/dev/null | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {found=1} END {exit !found}'; then
    if pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1==v && $2==c && $4=="online" {found=1} END {exit !found}' &&
      [[ -f "$state/url" ]]; then
      log "already running"
      echo "DATABASE_URL=$(cat "$state/url")"
      return
    fi
    # a leftover from an interrupted run: throw it away and start clean
    pg_dropcluster --stop "$version" "$cluster" >/dev/null 2>&1 || true
  fi
  local port="${PG_PORT:-$("$here/free-port.sh")}"
  rm -rf "$state/data"
  pg_createcluster "$version" "$cluster" -p "$port" -d "$state/data" \
    -o "fsync=off" -o "synchronous_commit=off" -o "full_page_writes=off" \
    -o "max_connections=200" -- --auth=trust >"$state/create.log" 2>&1 ||
    { log "pg_createcluster failed: $(tail -n 5 "$state/create.log")"; exit 1; }
  pg_ctlcluster "$version" "$cluster" start || { log "pg_ctlcluster start failed (see /var/log/postgresql/postgresql-$version-$cluster.log)"; exit 1; }
  for _ in $(seq 1 50); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 0.1
  done
  pg_isready -q -h 127.0.0.1 -p "$port" || { log "not ready on port $port after 5 s"; exit 1; }
  psql -h 127.0.0.1 -p "$port" -U postgres -qAtc 'CREATE DATABASE kaboodle' postgres >/dev/null
  local url="postgres://postgres@127.0.0.1:$port/kaboodle"
  echo "created" >"$state/mode"
  echo "$url" >"$state/url"
  log "cluster $version/$cluster on port $port (fsync off: throwaway data in $state/data)"
  echo "DATABASE_URL=$url"
}

stop() {
  if [[ "$(cat "$state/mode" 2>/dev/null)" == reused ]]; then
    log "left the reused system server running"
  elif pg_lsclusters -h 2>/dev/null | awk -v v="$version" -v c="$cluster" '$1==v && $2==c {found=1} END {exit !found}'; then
    pg_dropcluster --stop "$version" "$cluster"
    log "stopped and dropped cluster $version/$cluster"
  else
    log "not running"
  fi
  rm -rf "$state"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
