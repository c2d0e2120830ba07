#!/usr/bin/env bash
# An S3 server for tests and local runs: s3rver (npm, tests workspace) on a free port.
#   s3rver.sh start   starts it in the background, data under $ENGINES_STATE_DIR/s3rver; prints
#                     S3_ENDPOINT=..., S3_ACCESS_KEY=..., S3_SECRET_KEY=..., S3_REGION=...
#   s3rver.sh stop    stops it and removes its data
# s3rver speaks enough S3 for the minio client (no multipart upload, signatures not checked);
# production runs MinIO or any S3. Env: ENGINES_STATE_DIR (default <checkout>/.engines), S3RVER_PORT.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
state="${ENGINES_STATE_DIR:-$root/.engines}/s3rver"
bin="$root/node_modules/.bin/s3rver"

log() { echo "s3rver: $*" >&2; }

print_env() {
  echo "S3_ENDPOINT=$(cat "$state/endpoint")"
  # s3rver's fixed credentials; it does not check signatures, MinIO would
  echo "S3_ACCESS_KEY=S3RVER"
  echo "S3_SECRET_KEY=S3RVER"
  echo "S3_REGION=us-east-1"
}

running() { [[ -f "$state/pid" ]] && kill -0 "$(cat "$state/pid")" 2>/dev/null; }

start() {
  mkdir -p "$state"
  if running && [[ -f "$state/endpoint" ]]; then
    log "already running"
    print_env
    return
  fi
  [[ -x "$bin" ]] || { log "$bin is missing (run: make install)"; exit 1; }
  command -v node >/dev/null || { log "node is not on PATH"; exit 1; }
  local port="${S3RVER_PORT:-$("$here/free-port.sh")}"
  rm -rf "$state/data" && mkdir -p "$state/data"
  # setsid: it must outlive this script and not get a terminal's Ctrl-C meant for a test run
  setsid node "$bin" -d "$state/data" -a 127.0.0.1 -p "$port" --silent --no-vhost-buckets \
    >"$state/log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$state/pid"
  for _ in $(seq 1 100); do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "exited at start: $(tail -n 5 "$state/log")"
      rm -f "$state/pid"
      exit 1
    fi
    # any HTTP answer means it listens (s3rver answers / with an XML bucket list)
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { log "not listening on $port after 10 s"; stop; exit 1; }
  echo "http://127.0.0.1:$port" >"$state/endpoint"
  log "pid $pid on port $port, data in $state/data"
  print_env
}

stop() {
  if running; then
    local pid
    pid="$(cat "$state/pid")"
    # only signal the pid if it is still our s3rver (a stale pid file could name another process)
    if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q s3rver; then
      kill -TERM "$pid"
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
      log "stopped pid $pid"
    fi
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
