#!/usr/bin/env bash
# Where a capture's shutdown goes: interleaved runs (one of each command per
# round) of the killing minimal client, `capture` at the default and at a
# short --shutdown-grace, and `validate`, on server-everything and on
# server-memory (which exits on EOF). With OLD=<binary>, the same commands
# of that build run in the same rounds, e.g. a build without the overlapped
# shutdown.
#
#   bench/shutdown.sh
#   OLD=/path/to/older/mcp-surface RUNS=30 bench/shutdown.sh
#
# Environment: RUNS (30), SCHEMA_DIR (the published MCP schemas, as
# --schema-dir; without it validate is skipped). Prints medians, minimums and
# paired (per-round) ratios against minclient -kill.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-30}
EVERYTHING=e2e/node_modules/@modelcontextprotocol/server-everything/dist/index.js
MEMORY=e2e/node_modules/@modelcontextprotocol/server-memory/dist/index.js
for f in "$EVERYTHING" "$MEMORY"; do
	[ -e "$f" ] || { echo "missing $f: npm ci --prefix e2e" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/mcp-surface" .
go build -o "$tmp/minclient" ./bench/minclient
export MEMORY_FILE_PATH=$tmp/memory.json

load() { uptime | sed 's/.*load average: *//'; }
now() { echo "${EPOCHREALTIME//[.,]/}"; }

for server in everything memory; do
	case $server in
	everything) cmd="node $EVERYTHING stdio" ;;
	memory) cmd="node $MEMORY" ;;
	esac
	names=(minclient-kill capture capture-grace-10ms)
	cmds=("$tmp/minclient -kill -- $cmd"
		"$tmp/mcp-surface capture --protocol-version 2025-11-25 -o $tmp/a.json -- $cmd"
		"$tmp/mcp-surface capture --protocol-version 2025-11-25 --shutdown-grace 10ms -o $tmp/b.json -- $cmd")
	if [ -n "${SCHEMA_DIR:-}" ]; then
		names+=(validate)
		cmds+=("$tmp/mcp-surface validate --schema-dir $SCHEMA_DIR --fail-on none --protocol-version 2025-11-25 -- $cmd")
	fi
	if [ -n "${OLD:-}" ]; then
		names+=(old-capture)
		cmds+=("$OLD capture --protocol-version 2025-11-25 -o $tmp/c.json -- $cmd")
		if [ -n "${SCHEMA_DIR:-}" ]; then
			names+=(old-validate)
			cmds+=("$OLD validate --schema-dir $SCHEMA_DIR --fail-on none --protocol-version 2025-11-25 -- $cmd")
		fi
	fi
	samples=$tmp/$server.samples
	: >"$samples"
	echo "== $server: ${#names[@]} commands, $RUNS rounds, load $(load)"
	for ((r = -1; r <= RUNS; r++)); do
		for i in "${!names[@]}"; do
			t0=$(now)
			# shellcheck disable=SC2086 # split on purpose
			${cmds[$i]} </dev/null >/dev/null 2>&1 || echo "warning: ${names[$i]} failed in round $r" >&2
			t1=$(now)
			if [ "$r" -ge 1 ]; then echo "${names[$i]} $r $((t1 - t0))" >>"$samples"; fi
		done
	done
	echo "load after: $(load)"
	awk '
		{ t[$1, $2] = $3 / 1000; names[$1] = 1; rounds[$2] = 1 }
		function med(a, n,   i, j, x) {
			for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END {
			for (n in names) {
				k = 0; split("", v); split("", p)
				for (r in rounds) { k++; v[k] = t[n, r]; p[k] = t[n, r] / t["minclient-kill", r] }
				mv = med(v, k); mn = v[1]; mp = med(p, k)
				printf "  %-20s median %7.1fms  min %7.1fms  paired ratio to minclient-kill %.2f (range %.2f-%.2f)\n", n, mv, mn, mp, p[1], p[k]
			}
		}' "$samples" | sort
done
