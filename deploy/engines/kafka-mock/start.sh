#!/usr/bin/env bash
# Start librdkafka's mock Kafka cluster in the background (building it if needed), record its pid
# and bootstrap servers under $ENGINES_STATE_DIR, and print `KAFKA_BROKERS=...` on stdout.
# Env: ENGINES_STATE_DIR (default <checkout>/.engines), KAFKA_MOCK_BROKERS (default 3),
#      KAFKA_MOCK_PARTITIONS (partitions of the pre-created app topics, default 3).
# Kafka here is librdkafka's mock broker (in memory, nothing survives a stop); production runs Kafka.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="${ENGINES_STATE_DIR:-$root/.engines}/kafka-mock"
brokers="${KAFKA_MOCK_BROKERS:-3}"
partitions="${KAFKA_MOCK_PARTITIONS:-3}"

# The app's topics and their dead-letter topics; other topics are auto-created on first use.
app_topics=(
  kaboodle.file.uploaded.v1
  kaboodle.file.status.v1
  kaboodle.file.processed.v1
  kaboodle.file.deleted.v1
  kaboodle.catalogue.changed.v1
  kaboodle.user.changed.v1
  kaboodle.session.revoked.v1
)

mkdir -p "$state"
pid="$(cat "$state/pid" 2>/dev/null || true)"
if [[ -n "$pid" && -s "$state/brokers" && "$(cat "/proc/$pid/comm" 2>/dev/null)" == kafka-mock ]]; then
  # Already running: report the same brokers, so start.sh is safe to call twice.
  echo "KAFKA_BROKERS=$(cat "$state/brokers")"
  exit 0
fi
rm -f "$state/pid" "$state/brokers"

"$here/build.sh"

args=(--brokers "$brokers")
for t in "${app_topics[@]}"; do
  args+=(--topic "$t:$partitions" --topic "$t.dlq:$partitions")
done

# setsid: the broker must outlive this script and not get the terminal's Ctrl-C meant for a test run.
setsid "$here/kafka-mock" "${args[@]}" >"$state/stdout" 2>"$state/log" </dev/null &
pid=$!
echo "$pid" >"$state/pid"

# The first stdout line is the bootstrap servers; wait for it (the mock starts in ~25 ms).
for _ in $(seq 1 100); do
  if [[ -s "$state/stdout" ]]; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "kafka-mock: exited at start: $(cat "$state/log")" >&2
    rm -f "$state/pid"
    exit 1
  fi
  sleep 0.05
done
brokers_line="$(head -n1 "$state/stdout")"
if [[ -z "$brokers_line" ]]; then
  echo "kafka-mock: no bootstrap servers printed within 5 s (log: $state/log)" >&2
  kill "$pid" 2>/dev/null || true
  rm -f "$state/pid"
  exit 1
fi
echo "$brokers_line" >"$state/brokers"
echo "kafka-mock: pid $pid, $brokers brokers, state in $state" >&2
echo "KAFKA_BROKERS=$brokers_line"
