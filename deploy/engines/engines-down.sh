#!/usr/bin/env bash
# Stop the engines started by engines-up.sh (each script is a no-op when its engine is not running).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export ENGINES_STATE_DIR="${ENGINES_STATE_DIR:-$root/.engines}"
status=0
"$here/s3rver.sh" stop || status=1
"$here/kafka-mock/stop.sh" || status=1
"$here/postgres.sh" stop || status=1
rm -f "$ENGINES_STATE_DIR/env"
exit $status
