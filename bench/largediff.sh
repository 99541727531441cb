#!/usr/bin/env bash
# The largest diff class: a generated pair of ~3 MB snapshots (300 tools,
# recursive $refs, outputSchema everywhere, 1,800 witnessed errors;
# internal/testkit/benchsurface.LargePair), diffed in process by
# pkg/diff's BenchmarkDiffLargePair. Prints wall and CPU seconds per diff
# (CPU is the figure to read on a shared machine).
#
#   bench/largediff.sh            # COUNT=5 runs of BENCHTIME=5x
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./pkg/diff -run '^$' -bench '^BenchmarkDiffLargePair$' \
	-benchtime "${BENCHTIME:-5x}" -count "${COUNT:-5}"
