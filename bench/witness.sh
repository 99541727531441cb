#!/usr/bin/env bash
# Real server histories: capture every published version listed in
# bench/witness/servers.json, diff each consecutive pair, and check every
# witness the diffs emit with ajv (an independent validator) against the
# tool's raw base and head schemas. Prints a table per pair and the totals:
# schema errors, with witness, coverage, witnesses wrong, schema warnings,
# and the largest pair's diff time (median of RUNS).
#
#   bench/witness.sh
#
# Environment:
#   RUNS=5      diffs of the largest pair timed for the median
#   REV=<rev>   build mcp-surface from that commit (git archive) instead of
#               the working tree
#
# Exit 1 if any witness is wrong, 2 if a capture or diff fails. Results go
# to bench/results/witness-<timestamp>/ (git-ignored). See bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
command -v node >/dev/null 2>&1 || { echo "node is required (Node 20+)" >&2; exit 2; }
command -v go >/dev/null 2>&1 || { echo "go is required" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/lib.sh
. bench/lib.sh
checkout "$tmp"
echo "building ${REV:-the working tree} into a temporary directory..." >&2
(cd "$src" && go build -o "$tmp/mcp-surface" .)

if ! npm ci --prefix bench/witness --ignore-scripts --no-audit --no-fund --loglevel=error >"$tmp/npm.log" 2>&1; then
	cat "$tmp/npm.log" >&2
	echo "npm ci --prefix bench/witness failed" >&2
	exit 2
fi
node bench/witness/run.mjs --self-test >&2

out=bench/results/witness-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
{
	echo "rev: $(git rev-parse HEAD)${REV:+ (REV=$REV)}"
	echo "node: $(node --version)"
	go version
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
} >"$out/env.txt"
status=0
node bench/witness/run.mjs --bin "$tmp/mcp-surface" --out "$out" --runs "$RUNS" || status=$?
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)" >>"$out/env.txt"
echo "results in $out" >&2
exit "$status"
