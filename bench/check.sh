#!/usr/bin/env bash
# What a pull request's check costs with builds and captures at once
# (`check --jobs`): interleaved rounds (one run of each command per round,
# so a change in machine load hits all alike) of
#
#   base-and-head  `check --baseline build` of server-everything with a
#                  1 s build (`sleep 1`) at the base and at the head, at
#                  --jobs 4 and --jobs 1, beside one `capture` of the same
#                  server: the floor is 1 s + one capture;
#   three-servers  `check --baseline none` of a configuration of three
#                  servers (server-everything, server-memory,
#                  server-filesystem) at --jobs 4 and --jobs 1, beside one
#                  `capture` of each: the floor is the slowest capture.
#
#   bench/check.sh
#   RUNS=30 SCHEMA_DIR=/path/to/mcp-schema bench/check.sh
#
# SERVERS=node runs these groups only; SERVERS=idle runs them only with
# bench/fakeserver -startup (waiting 300-400 ms to start, without using
# the CPU) in place of the Node servers; the default runs both. On a
# machine whose CPUs are busy the Node servers' start-up is CPU-bound and
# measures the CPU; the idle servers measure how well captures overlap.
#
# Environment: RUNS (20 rounds per group, after one warmup round),
# SCHEMA_DIR (the published MCP schemas, as --schema-dir; default
# $MCP_SURFACE_TEST_DATA/mcp-schema when that is set, else the user cache).
# Prints medians, the ratios of medians to the floor, and paired
# (per-round) ratios, with the load before and after each group.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

RUNS=${RUNS:-20}
SERVERS=${SERVERS:-both}
case $SERVERS in both | node | idle) ;; *) echo "SERVERS must be both, node or idle" >&2; exit 2 ;; esac
SCHEMA_DIR=${SCHEMA_DIR:-${MCP_SURFACE_TEST_DATA:+$MCP_SURFACE_TEST_DATA/mcp-schema}}
modules=$root/e2e/node_modules/@modelcontextprotocol
EVERYTHING=$modules/server-everything/dist/index.js
MEMORY=$modules/server-memory/dist/index.js
FILESYSTEM=$modules/server-filesystem/dist/index.js
for f in "$EVERYTHING" "$MEMORY" "$FILESYSTEM"; do
	[ -e "$f" ] || { echo "missing $f: npm ci --prefix e2e" >&2; exit 2; }
done
command -v git >/dev/null 2>&1 || { echo "git is required" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "building the working tree into a temporary directory..."
go build -o "$tmp/mcp-surface" .
go build -o "$tmp/fakeserver" ./bench/fakeserver
fake=$tmp/fakeserver
bin=$tmp/mcp-surface
schema=()
if [ -n "$SCHEMA_DIR" ]; then schema=(--schema-dir "$SCHEMA_DIR"); fi
export MEMORY_FILE_PATH=$tmp/memory.json
mkdir -p "$tmp/files"
echo hello >"$tmp/files/hello.txt"

# The repository: a base and a head that differ by a commit, no committed
# snapshot (so --baseline build builds and captures the base), the build
# a script committed at both.
repo=$tmp/repo
mkdir -p "$repo"
git -C "$repo" init -q
printf '#!/bin/sh\nsleep 1\n' >"$repo/build.sh"
chmod +x "$repo/build.sh"
cat >"$repo/.mcp-surface.yaml" <<EOF
servers:
  - name: everything
    command: [node, "$EVERYTHING", stdio]
  - name: memory
    command: [node, "$MEMORY"]
  - name: filesystem
    command: [node, "$FILESYSTEM", "$tmp/files"]
EOF
cat >"$repo/idle.yaml" <<EOF
servers:
  - name: idle-300
    command: ["$fake", -startup, 300ms]
  - name: idle-350
    command: ["$fake", -startup, 350ms]
  - name: idle-400
    command: ["$fake", -startup, 400ms]
EOF
git -C "$repo" add -A
git -C "$repo" -c user.name=bench -c user.email=bench@localhost commit -qm base
base=$(git -C "$repo" rev-parse HEAD)
echo head >"$repo/README"
git -C "$repo" add -A
git -C "$repo" -c user.name=bench -c user.email=bench@localhost commit -qm head

load() { uptime | sed 's/.*load average: *//'; }
now() { echo "${EPOCHREALTIME//[.,]/}"; }
common="--protocol-version 2025-11-25 --fail-on none --format json ${schema[*]}"

# Smoke test: every command must succeed once before it is timed.
(cd "$repo" && "$bin" check $common --baseline build --base-ref "$base" --build ./build.sh -- node "$EVERYTHING" stdio >/dev/null 2>&1) ||
	{ echo "check of the base and the head failed" >&2; exit 1; }
(cd "$repo" && "$bin" check $common --baseline none >/dev/null 2>&1 && "$bin" check $common --config idle.yaml --baseline none >/dev/null 2>&1) ||
	{ echo "check of three servers failed" >&2; exit 1; }

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  cpus: $(nproc)  node: $(node --version)  go: $(go env GOVERSION)"
echo "source: working tree (HEAD $(git rev-parse --short HEAD 2>/dev/null || echo unknown))"

# run GROUP NAME CMD [NAME CMD...]: RUNS interleaved rounds in the
# repository, samples "name round microseconds" in $tmp/GROUP.samples.
run() {
	local group=$1
	shift
	local names=() cmds=()
	while [ $# -gt 0 ]; do names+=("$1"); cmds+=("$2"); shift 2; done
	: >"$tmp/$group.samples"
	echo
	echo "== $group: ${#names[@]} commands, $RUNS rounds, load before $(load)"
	local r i t0 t1
	for ((r = 0; r <= RUNS; r++)); do
		for i in "${!names[@]}"; do
			t0=$(now)
			# shellcheck disable=SC2086 # split on purpose, no shell
			(cd "$repo" && ${cmds[$i]} </dev/null >/dev/null 2>&1) || echo "warning: ${names[$i]} failed in round $r" >&2
			t1=$(now)
			if [ "$r" -ge 1 ]; then echo "${names[$i]} $r $((t1 - t0))" >>"$tmp/$group.samples"; fi
		done
	done
	echo "load after: $(load)"
}

# report GROUP FLOOR-EXPR: per command the median and minimum, and for the
# check commands the ratio of its median to the floor's and the median of
# per-round ratios. FLOOR-EXPR is an awk expression over c[name] (this
# round's time of each command, ms).
report() {
	awk -v floor="$2" '
		{ t[$1, $2] = $3 / 1000; names[$1] = 1; rounds[$2] = 1 }
		function isort(a, n,   i, j, x) {
			for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		}
		function med(a, n) { isort(a, n); return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		function fl(c,   m, x) {
			if (floor == "base-and-head") { for (x in c) if (x ~ /^capture-/) return 1000 + c[x] }
			m = 0
			for (x in c) if (x ~ /^capture-/ && c[x] > m) m = c[x]
			return m
		}
		END {
			# the floor of medians: medians of each command first
			for (n in names) { k = 0; split("", v); for (r in rounds) v[++k] = t[n, r]; mm[n] = med(v, k); mn[n] = v[1] }
			split("", c); for (n in names) c[n] = mm[n]; F = fl(c)
			printf "  floor (from medians) %7.1fms\n", F
			for (n in names) {
				line = sprintf("  %-20s median %7.1fms  min %7.1fms", n, mm[n], mn[n])
				if (n ~ /^check-/) {
					k = 0; split("", p)
					for (r in rounds) { split("", c); for (y in names) c[y] = t[y, r]; p[++k] = t[n, r] / fl(c) }
					mp = med(p, k)
					line = line sprintf("  ratio to the floor %.2f  paired %.2f (range %.2f-%.2f)", mm[n] / F, mp, p[1], p[k])
				}
				print line
			}
		}' "$tmp/$1.samples" | sort
}

if [ "$SERVERS" != idle ]; then
	run base-and-head \
		capture-everything "$bin capture --protocol-version 2025-11-25 -o $tmp/a.json -- node $EVERYTHING stdio" \
		check-jobs-4 "$bin check $common --jobs 4 --baseline build --base-ref $base --build ./build.sh -- node $EVERYTHING stdio" \
		check-jobs-1 "$bin check $common --jobs 1 --baseline build --base-ref $base --build ./build.sh -- node $EVERYTHING stdio"
	report base-and-head base-and-head

	run three-servers \
		capture-everything "$bin capture --protocol-version 2025-11-25 -o $tmp/a.json -- node $EVERYTHING stdio" \
		capture-memory "$bin capture --protocol-version 2025-11-25 -o $tmp/b.json -- node $MEMORY" \
		capture-filesystem "$bin capture --protocol-version 2025-11-25 -o $tmp/c.json -- node $FILESYSTEM $tmp/files" \
		check-jobs-4 "$bin check $common --jobs 4 --baseline none" \
		check-jobs-1 "$bin check $common --jobs 1 --baseline none"
	report three-servers slowest-capture
fi
if [ "$SERVERS" != node ]; then
	run base-and-head-idle \
		capture-idle "$bin capture --protocol-version 2025-11-25 -o $tmp/a.json -- $fake -startup 400ms" \
		check-jobs-4 "$bin check $common --jobs 4 --baseline build --base-ref $base --build ./build.sh -- $fake -startup 400ms" \
		check-jobs-1 "$bin check $common --jobs 1 --baseline build --base-ref $base --build ./build.sh -- $fake -startup 400ms"
	report base-and-head-idle base-and-head

	run three-servers-idle \
		capture-300 "$bin capture --protocol-version 2025-11-25 -o $tmp/a.json -- $fake -startup 300ms" \
		capture-350 "$bin capture --protocol-version 2025-11-25 -o $tmp/b.json -- $fake -startup 350ms" \
		capture-400 "$bin capture --protocol-version 2025-11-25 -o $tmp/c.json -- $fake -startup 400ms" \
		check-jobs-4 "$bin check $common --config idle.yaml --jobs 4 --baseline none" \
		check-jobs-1 "$bin check $common --config idle.yaml --jobs 1 --baseline none"
	report three-servers-idle slowest-capture
fi
