#!/usr/bin/env bash
# Benchmark `mcp-surface capture` against a minimal stdio MCP client
# (bench/minclient) and the official Inspector CLI on server-everything,
# measure mcp-surface's fixed cost on an instant server (bench/fakeserver),
# and profile the phases of capture.Run (bench/timings).
#
#   bench/capture.sh            # hyperfine if installed, else a bash loop
#   MODE=loop bench/capture.sh  # force the interleaved bash loop
#
# Environment:
#   RUNS=20            runs per command on server-everything (use at least 15)
#   WARMUP=2           warmup runs per command
#   INSPECTOR_RUNS=5   runs of the Inspector CLI (slow: it idles ~2 s per run)
#   FAST_RUNS=60       runs per command on the instant server (0: skip)
#   PROFILE_RUNS=15    in-process captures profiled by bench/timings (0: skip)
#   EOF_RUNS=20        runs per command on server-memory, a Node server that
#                      exits when its stdin closes (0: skip)
#   MODE=hyperfine|loop
#                      loop runs the commands of a group round-robin (one run
#                      of each per round), so load changes hit all alike, and
#                      also reports per-round (paired) ratios
#   REV=<commit>       build mcp-surface (and bench/timings against its
#                      pkg/capture) from that commit via `git archive`
#                      (read-only) instead of the working tree, e.g. while
#                      the tree is mid-edit; bench/ always comes from the tree
#
# Results go to bench/results/<timestamp>/ (git-ignored). See bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-20}
WARMUP=${WARMUP:-2}
INSPECTOR_RUNS=${INSPECTOR_RUNS:-5}
FAST_RUNS=${FAST_RUNS:-60}
PROFILE_RUNS=${PROFILE_RUNS:-15}
EOF_RUNS=${EOF_RUNS:-20}
if [ "$RUNS" -lt 15 ]; then echo "warning: RUNS=$RUNS: the figures in bench/README.md use at least 15" >&2; fi
MODE=${MODE:-}
if [ -z "$MODE" ]; then
	if command -v hyperfine >/dev/null 2>&1; then MODE=hyperfine; else MODE=loop; fi
fi
case $MODE in hyperfine | loop) ;; *) echo "MODE must be hyperfine or loop" >&2; exit 2 ;; esac

SERVER=e2e/node_modules/@modelcontextprotocol/server-everything/dist/index.js
EOFSERVER=e2e/node_modules/@modelcontextprotocol/server-memory/dist/index.js
INSPECTOR=e2e/node_modules/.bin/mcp-inspector
command -v node >/dev/null 2>&1 || { echo "node is required (Node 20+)" >&2; exit 2; }
command -v go >/dev/null 2>&1 || { echo "go is required" >&2; exit 2; }
for f in "$SERVER" "$EOFSERVER" "$INSPECTOR"; do
	if [ ! -e "$f" ]; then
		echo "missing $f: install the reference servers with: npm ci --prefix e2e" >&2
		exit 2
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/lib.sh
. bench/lib.sh
checkout "$tmp"
if [ -n "${REV:-}" ]; then
	rm -rf "$src/bench"
	cp -R bench "$src/bench"
	rm -rf "$src/bench/results"
fi
echo "building ${REV:-the working tree} into a temporary directory..."
(cd "$src" && go build -o "$tmp/mcp-surface" .)
(cd "$src" && go build -o "$tmp/minclient" ./bench/minclient)
(cd "$src" && go build -o "$tmp/fakeserver" ./bench/fakeserver)
if ! (cd "$src" && go build -o "$tmp/timings" ./bench/timings); then
	echo "warning: bench/timings does not build; skipping the phase profile" >&2
	PROFILE_RUNS=0
fi
# The Inspector creates ~/.mcp-inspector/storage: every command gets a throwaway HOME.
mkdir -p "$tmp/home"
export HOME="$tmp/home"

out=bench/results/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"

# Smoke test: the clients must succeed once before they are timed.
"$tmp/minclient" -- node "$SERVER" stdio >"$tmp/minclient.out" 2>/dev/null
"$tmp/mcp-surface" capture -o "$tmp/s.json" -- node "$SERVER" stdio 2>/dev/null
echo "minclient read $(cat "$tmp/minclient.out") bytes from server-everything"

load() { uptime | sed 's/.*load average: *//'; }
# stats: numbers on stdin -> "median min max mean".
stats() {
	sort -g | awk '{ v[NR] = $1; s += $1 }
		END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR], s / NR }'
}
# ratio NUM DEN: NUM/DEN with 2 decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "cpus: $(nproc)"
	echo "node: $(node --version)"
	echo "go: $(go env GOVERSION)"
	if [ -n "${REV:-}" ]; then
		echo "source: commit $(git rev-parse --short "$REV")"
	else
		echo "source: working tree (HEAD $(git rev-parse --short HEAD 2>/dev/null || echo unknown) plus uncommitted changes)"
	fi
	echo "mode: $MODE runs=$RUNS warmup=$WARMUP inspector_runs=$INSPECTOR_RUNS fast_runs=$FAST_RUNS"
	echo "load before: $(load)"
} | tee "$out/env.txt"

# The loop reads the clock from bash 5's EPOCHREALTIME (no fork), else
# from `date +%s%N`.
rt=${EPOCHREALTIME:+1}

# bench GROUP RUNS WARMUP NAME CMD [NAME CMD...]
# Times each CMD (split on spaces, no shell, stdin from /dev/null) and
# writes $out/GROUP.summary: "name median min max mean" in seconds.
bench() {
	local group=$1 runs=$2 warmup=$3
	shift 3
	local names=() cmds=()
	while [ $# -gt 0 ]; do names+=("$1"); cmds+=("$2"); shift 2; done
	echo
	echo "== $group: ${#names[@]} commands, $runs runs each ($MODE), load $(load)"
	if [ "$MODE" = hyperfine ]; then
		local args=() i
		for i in "${!names[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
		hyperfine -N --style basic --warmup "$warmup" --runs "$runs" \
			--export-json "$out/$group.json" --export-markdown "$out/$group.md" "${args[@]}" </dev/null
		node -e '
			for (const r of JSON.parse(require("fs").readFileSync(process.argv[1])).results)
				console.log(r.command, r.median, r.min, r.max, r.mean);
		' "$out/$group.json" >"$out/$group.summary"
	else
		: >"$out/$group.samples"
		local r i t0 t1
		for ((r = 1 - warmup; r <= runs; r++)); do
			for i in "${!names[@]}"; do
				if [ -n "$rt" ]; then t0=${EPOCHREALTIME//[.,]/}; else t0=$(($(date +%s%N) / 1000)); fi
				# shellcheck disable=SC2086 # split on purpose, like hyperfine -N
				${cmds[$i]} </dev/null >/dev/null 2>&1
				if [ -n "$rt" ]; then t1=${EPOCHREALTIME//[.,]/}; else t1=$(($(date +%s%N) / 1000)); fi
				if [ "$r" -ge 1 ]; then echo "${names[$i]} $r $((t1 - t0))" >>"$out/$group.samples"; fi
			done
		done
		for i in "${names[@]}"; do
			echo "$i $(awk -v n="$i" '$1 == n { print $3 / 1e6 }' "$out/$group.samples" | stats)"
		done >"$out/$group.summary"
	fi
	echo "load after $group: $(load)" | tee -a "$out/env.txt"
	printf '%-22s %9s %9s %9s\n' command median min max
	awk '{ printf "%-22s %7.1fms %7.1fms %7.1fms\n", $1, $2 * 1000, $3 * 1000, $4 * 1000 }' "$out/$group.summary"
}
# get GROUP NAME COLUMN (2 median, 3 min, 4 max, 5 mean)
get() { awk -v n="$2" -v c="$3" '$1 == n { print $c }' "$out/$1.summary"; }
# paired GROUP A B: median and range of A/B within each round (loop mode).
paired() {
	awk -v a="$2" -v b="$3" '$1 == a { x[$2] = $3 } $1 == b { y[$2] = $3 }
		END { for (r in x) if (r in y) print x[r] / y[r] }' "$out/$1.samples" | stats |
		awk '{ printf "%.2f (range %.2f-%.2f)", $1, $2, $3 }'
}
# show GROUP LABEL A B: the ratio A/B of medians and of minimums.
show() {
	local line
	line=$(printf '  %-40s median %s  min %s' "$2" "$(ratio "$(get "$1" "$3" 2)" "$(get "$1" "$4" 2)")" \
		"$(ratio "$(get "$1" "$3" 3)" "$(get "$1" "$4" 3)")")
	if [ "$MODE" = loop ]; then line="$line  paired $(paired "$1" "$3" "$4")"; fi
	echo "$line"
}

# 1. server-everything. server-alone is the floor: the server started with
# stdin at EOF, so it loads, finds no client and exits (its own start-up
# and exit time, no MCP traffic).
bench everything "$RUNS" "$WARMUP" \
	server-alone "node $SERVER stdio" \
	minclient "$tmp/minclient -- node $SERVER stdio" \
	minclient-no-wait "$tmp/minclient -no-wait -- node $SERVER stdio" \
	minclient-kill "$tmp/minclient -kill -- node $SERVER stdio" \
	capture-2025-11-25 "$tmp/mcp-surface capture --protocol-version 2025-11-25 -o $tmp/a.json -- node $SERVER stdio" \
	capture-default "$tmp/mcp-surface capture -o $tmp/b.json -- node $SERVER stdio"

# 2. The Inspector CLI, tools/list only (fewer runs: it is slow).
bench inspector "$INSPECTOR_RUNS" 1 \
	inspector-tools-list "node $INSPECTOR --cli --format json -q node $SERVER stdio --method tools/list"

# 3. A Node server that exits as soon as its stdin closes (its knowledge
# graph goes to a throwaway file).
if [ "$EOF_RUNS" -gt 0 ]; then
	export MEMORY_FILE_PATH=$tmp/memory.json
	bench eof "$EOF_RUNS" "$WARMUP" \
		minclient "$tmp/minclient -- node $EOFSERVER" \
		minclient-kill "$tmp/minclient -kill -- node $EOFSERVER" \
		capture-2025-11-25 "$tmp/mcp-surface capture --protocol-version 2025-11-25 -o $tmp/e.json -- node $EOFSERVER"
fi

# 4. An instant server: what the clients themselves cost.
if [ "$FAST_RUNS" -gt 0 ]; then
	bench instant "$FAST_RUNS" 5 \
		mcp-surface-version "$tmp/mcp-surface --version" \
		minclient "$tmp/minclient -- $tmp/fakeserver" \
		minclient-kill "$tmp/minclient -kill -- $tmp/fakeserver" \
		capture-2025-11-25 "$tmp/mcp-surface capture --protocol-version 2025-11-25 -o $tmp/c.json -- $tmp/fakeserver" \
		capture-default "$tmp/mcp-surface capture -o $tmp/d.json -- $tmp/fakeserver"
fi

{
	echo
	echo "== ratios on server-everything (bounds: 1.2 for capture / minclient, 1.3 for capture / minclient -kill)"
	show everything "capture 2025-11-25 / minclient -kill" capture-2025-11-25 minclient-kill
	show everything "capture default / minclient -kill" capture-default minclient-kill
	show everything "capture 2025-11-25 / minclient" capture-2025-11-25 minclient
	show everything "capture default / minclient" capture-default minclient
	show everything "capture 2025-11-25 / minclient -no-wait" capture-2025-11-25 minclient-no-wait
	show everything "capture default / minclient -no-wait" capture-default minclient-no-wait
	show everything "minclient / server-alone" minclient server-alone
	printf '  %-40s median %s  min %s\n' "inspector tools/list / capture default" \
		"$(ratio "$(get inspector inspector-tools-list 2)" "$(get everything capture-default 2)")" \
		"$(ratio "$(get inspector inspector-tools-list 3)" "$(get everything capture-default 3)")"
	if [ "$EOF_RUNS" -gt 0 ]; then
		echo "== ratios on server-memory (exits on EOF)"
		show eof "capture 2025-11-25 / minclient -kill" capture-2025-11-25 minclient-kill
		show eof "capture 2025-11-25 / minclient" capture-2025-11-25 minclient
	fi
	if [ "$FAST_RUNS" -gt 0 ]; then
		echo "== ratios on the instant server"
		show instant "capture 2025-11-25 / minclient -kill" capture-2025-11-25 minclient-kill
		show instant "capture 2025-11-25 / minclient" capture-2025-11-25 minclient
		echo "== fixed cost on the instant server (milliseconds, medians; mins in brackets)"
		for n in capture-2025-11-25 capture-default; do
			printf '  %-40s %6.1f [%6.1f]\n' "$n - minclient" \
				"$(awk -v a="$(get instant "$n" 2)" -v b="$(get instant minclient 2)" 'BEGIN { print (a - b) * 1000 }')" \
				"$(awk -v a="$(get instant "$n" 3)" -v b="$(get instant minclient 3)" 'BEGIN { print (a - b) * 1000 }')"
		done
		printf '  %-40s %6.1f [%6.1f]\n' "mcp-surface --version (process start)" \
			"$(awk -v a="$(get instant mcp-surface-version 2)" 'BEGIN { print a * 1000 }')" \
			"$(awk -v a="$(get instant mcp-surface-version 3)" 'BEGIN { print a * 1000 }')"
	fi
} | tee "$out/ratios.txt"

if [ "$PROFILE_RUNS" -gt 0 ]; then
	for v in 2025-11-25 2026-07-28; do
		echo
		echo "== capture.Run phases at $v ($PROFILE_RUNS runs in process, server-everything), load $(load)"
		"$tmp/timings" -n "$PROFILE_RUNS" -protocol-version "$v" -- node "$SERVER" stdio </dev/null >"$out/timings-$v.txt" 2>/dev/null
		head -1 "$out/timings-$v.txt"
		tail -3 "$out/timings-$v.txt"
	done
	echo
	echo "== minclient phases ($PROFILE_RUNS runs, server-everything), load $(load)"
	for ((i = 0; i < PROFILE_RUNS; i++)); do
		"$tmp/minclient" -timings -- node "$SERVER" stdio 2>&1 >/dev/null </dev/null | grep '^startup='
	done >"$out/minclient-timings.txt"
	for k in startup lists exitwait total; do
		tr ' ' '\n' <"$out/minclient-timings.txt" | sed -n "s/^$k=\(.*\)ms$/\1/p" | stats |
			awk -v k="$k" '{ printf "  %-9s median %7.1fms  min %7.1fms  max %7.1fms\n", k, $1, $2, $3 }'
	done | tee "$out/minclient-phases.txt"
fi
echo "load at the end: $(load)" | tee -a "$out/env.txt"
echo
echo "results in $out/"
