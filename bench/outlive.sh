#!/usr/bin/env bash
# Nothing outlives the program, 20 times over: runs the Linux test
# TestNothingOutlivesTheProgram (internal/app/cli) with 20 runs of each
# case (the default suite runs 2): the program SIGKILLed, its parent
# SIGKILLed, its stdout and stderr closed, and piped into a reader that
# exits early, each while the server starts and while it serves. With
# HOG=1 the runs go beside a CPU hog of twice the cores (bench/cpuhog).
# Each run logs how long the server's group took to be gone.
#
#   bench/outlive.sh
#   RUNS=50 HOG=1 bench/outlive.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-20}
cmd=(go test -count=1 -v -run '^TestNothingOutlivesTheProgram$' ./internal/app/cli -args -outlive-runs "$RUNS")
if [ "${HOG:-}" = 1 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	go build -o "$tmp/cpuhog" ./bench/cpuhog
	cmd=("$tmp/cpuhog" -- "${cmd[@]}")
fi
log=$(mktemp)
status=0
"${cmd[@]}" >"$log" 2>&1 || status=$?
grep -E '^\s*--- (PASS|FAIL)|still|want' "$log" || true
# The slowest end, from each run's log line.
sed -n 's/.*the server.s group was gone \(.*\) after the program.s end/\1/p' "$log" | sort -h | tail -1 | sed 's/^/slowest: /'
grep -c 'was gone' "$log" | sed 's/$/ runs checked/'
rm -f "$log"
exit "$status"
