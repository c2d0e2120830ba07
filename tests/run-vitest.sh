#!/usr/bin/env bash
# `make test`'s vitest run (docs/conventions.md#9-tests-in-tiers). One `vitest run` queues every
# project that runs one file at a time (e2e, and the topology files on CI's shared engines) after its
# pool, one after the other (groupSpecs in vitest's dist). Here the pool runs first, then two lanes
# side by side, each a vitest process running one file at a time:
# - lane A: the e2e files with timing budgets (sign-in, shell, pages) or a count of requests while
#   typing (vault's debounce) first, while lane B runs only topology beside them; then the others;
# - lane B: the topology files on the shared engines, then the two longest e2e files without budgets.
# Two topology files at once would consume each other's events; e2e files share nothing but the
# machine, and waits in them are polls, not budgets. Lane B's output is printed once both are done.
# Arguments go to every run (e.g. --reporter=dot).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUDGETED=(
  tests/e2e/everyday-sign-in.e2e.test.ts tests/e2e/shell.test.ts tests/e2e/pages.e2e.test.ts
  tests/e2e/vault.e2e.test.ts
)
BESIDE_TOPOLOGY=(tests/e2e/everyday-screens.e2e.test.ts tests/e2e/account-mail.e2e.test.ts)

# Every run's output is also kept, so that the end of the log, which is all a CI page may show,
# repeats what failed (vitest's "Failed Tests" section) however far up it scrolled.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
npx vitest run --project '!e2e' --project '!topology' "$@" 2>&1 | tee "$logs/pool"
pool=${PIPESTATUS[0]}

lane_log=$logs/lane-b
(
  npx vitest run --project topology "$@"
  topology=$?
  npx vitest run --project e2e "$@" "${BESIDE_TOPOLOGY[@]}"
  e2e=$?
  echo "lane B: topology exit $topology, e2e exit $e2e"
  ((topology == 0 && e2e == 0))
) > "$lane_log" 2>&1 &
lane=$!
# stopped early (CI's timeout, ^C): the lane goes too, and its log with it
trap 'kill "$lane" 2> /dev/null; rm -rf "$logs"' EXIT
npx vitest run --project e2e "$@" "${BUDGETED[@]}" 2>&1 | tee "$logs/budgeted"
budgeted=${PIPESTATUS[0]}
excludes=()
for f in "${BUDGETED[@]}" "${BESIDE_TOPOLOGY[@]}"; do excludes+=(--exclude "$f"); done
npx vitest run --project e2e "$@" "${excludes[@]}" 2>&1 | tee "$logs/rest"
rest=${PIPESTATUS[0]}
wait "$lane"
beside=$?

echo "--- lane B: topology on the shared engines, then e2e (ran beside lane A) ---"
cat "$lane_log"
for run in pool budgeted rest lane-b; do
  # From vitest's "Failed Tests" (or "Failed Suites") heading to its summary, at most 200 lines a run.
  failed=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/$run" | awk '/⎯ Failed (Tests|Suites) [0-9]+ ⎯/ { on = 1 } /^ +Test Files /{ on = 0 } on' | head -n 200)
  [[ -z $failed ]] || printf -- '--- what failed in the %s run, repeated from above ---\n%s\n' "$run" "$failed"
done
echo "vitest: pool exit $pool, e2e with budgets exit $budgeted, other e2e exit $rest, lane B exit $beside"
((pool == 0 && budgeted == 0 && rest == 0 && beside == 0))
