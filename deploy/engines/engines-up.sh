#!/usr/bin/env bash
# Start the engines that can run on this machine, for CI and for running by hand (`make engines-up`):
#   PostgreSQL 15 (Debian's packages)       -> DATABASE_URL
#   librdkafka's mock Kafka cluster         -> KAFKA_BROKERS   (deploy/engines/kafka-mock)
#   s3rver (npm)                            -> S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION
# Installs missing Debian packages first (only when a command is missing). Writes the variables to
# $ENGINES_STATE_DIR/env (default <checkout>/.engines/env) and prints them as `export` lines, so:
#   eval "$(deploy/engines/engines-up.sh)"      or      source .engines/env
# Logs go to stderr. Stop everything with deploy/engines/engines-down.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export ENGINES_STATE_DIR="${ENGINES_STATE_DIR:-$root/.engines}"
mkdir -p "$ENGINES_STATE_DIR"

log() { echo "engines-up: $*" >&2; }

# apt-get only when something is missing, and only once for all of it
missing=()
command -v pg_createcluster >/dev/null || missing+=(postgresql)
[[ -f /usr/include/librdkafka/rdkafka_mock.h ]] || missing+=(librdkafka-dev)
command -v gcc >/dev/null || missing+=(gcc)
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]] && ! command -v sudo >/dev/null; then
    log "missing packages (${missing[*]}) and not root: install them and run again"
    exit 1
  fi
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  log "installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >&2
fi

started=()
cleanup_on_error() {
  log "failed; stopping what was started (${started[*]:-nothing})"
  "$here/engines-down.sh" >&2 || true
}
trap cleanup_on_error ERR

env_lines=()
t0=$(date +%s%N)
pg_out="$("$here/postgres.sh" start)"
started+=(postgres)
env_lines+=("$pg_out")
kafka_out="$("$here/kafka-mock/start.sh")"
started+=(kafka-mock)
env_lines+=("$kafka_out")
s3_out="$("$here/s3rver.sh" start)"
started+=(s3rver)
env_lines+=("$s3_out")
trap - ERR

env_file="$ENGINES_STATE_DIR/env"
{
  echo "# written by deploy/engines/engines-up.sh on $(date -u +%FT%TZ); stop with deploy/engines/engines-down.sh"
  printf '%s\n' "${env_lines[@]}" | grep -E '^[A-Z0-9_]+=' | sed 's/^/export /'
} >"$env_file"
log "postgres, kafka-mock and s3rver up in $((($(date +%s%N) - t0) / 1000000)) ms; env in $env_file"
grep '^export ' "$env_file"
