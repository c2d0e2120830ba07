#!/usr/bin/env bash
# Stop the kafka-mock broker started by start.sh (its pid is in $ENGINES_STATE_DIR/kafka-mock/pid).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="${ENGINES_STATE_DIR:-$root/.engines}/kafka-mock"

if [[ ! -f "$state/pid" ]]; then
  echo "kafka-mock: not running (no $state/pid)" >&2
  exit 0
fi
pid="$(cat "$state/pid")"
# Only signal the pid if it is still our kafka-mock (a stale pid file could name another process).
if kill -0 "$pid" 2>/dev/null && [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == kafka-mock ]]; then
  kill -TERM "$pid"
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "kafka-mock: pid $pid did not stop on SIGTERM within 5 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  echo "kafka-mock: stopped pid $pid" >&2
fi
rm -f "$state/pid" "$state/brokers" "$state/stdout"
