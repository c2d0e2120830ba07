#!/usr/bin/env bash
# `make test`'s vitest run (docs/conventions.md#9-tests-in-tiers). One `vitest run` queues every
# project that runs one file at a time (e2e, and the topology files on CI's shared engines) after its
# pool, the two lanes one after the other (groupSpecs in vitest's dist); on a 2-core CI machine the
# topology lane then ran alone for ~3 minutes at 48 % CPU. Here the pool runs first, then the two
# lanes side by side, each in its own vitest process. The topology lane's output is printed once both
# are done, so neither interleaves with the other. Arguments go to every run (e.g. --reporter=dot).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

npx vitest run --project '!e2e' --project '!topology' "$@"
pool=$?

lane_log=$(mktemp)
npx vitest run --project topology "$@" > "$lane_log" 2>&1 &
lane=$!
# stopped early (CI's timeout, ^C): the lane goes too, and its log with it
trap 'kill "$lane" 2> /dev/null; rm -f "$lane_log"' EXIT
npx vitest run --project e2e "$@"
e2e=$?
wait "$lane"
topology=$?

echo "--- topology on the shared engines (ran beside e2e) ---"
cat "$lane_log"
echo "vitest: pool exit $pool, e2e exit $e2e, topology exit $topology"
((pool == 0 && e2e == 0 && topology == 0))
