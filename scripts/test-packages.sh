#!/usr/bin/env bash
# test-packages.sh: the npm packages and the wheel as their users install
# them. Packs both with scripts/pack.sh (host platform), installs them
# offline into a fresh npm project and a fresh virtual environment, and
# runs them there: --version, a capture of examples/server, and the test
# helpers passing on the unchanged server, failing with the changes named
# on a changed snapshot, and rewriting it when asked. Prints the package
# sizes and the install and first-run times.
#
# Usage: scripts/test-packages.sh [WORKDIR]   (a temporary directory by default)
#
# Needs go, node and npm, python3 with venv; pytest for the plugin's test
# (Debian's python3-pytest: a venv of /usr/bin/python3 with the system's
# site packages runs it), skipped with a note when it is missing, unless
# $CI is set.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-}"
if [ -z "$work" ]; then
	work="$(mktemp -d)"
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work="$(cd "$work" && pwd)"

step() { echo "-- $*"; }
fail() { echo "test-packages: $*" >&2; exit 1; }
# now: milliseconds since the epoch.
now() { date +%s%3N; }
took() { echo "$(($(now) - $1)) ms"; }
# gone PIDFILE WHAT: the process whose pid PIDFILE holds has ended (a
# zombie counts as ended), waiting for it at most 10 s; fails naming WHAT.
gone() {
	local pid i
	pid="$(cat "$1" 2>/dev/null || true)"
	[ -n "$pid" ] || fail "$2: the server wrote no pid to $1"
	for ((i = 0; i < 1000; i++)); do
		if ! kill -0 "$pid" 2>/dev/null || [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = Z ]; then
			return 0
		fi
		sleep 0.01
	done
	kill -9 "$pid" 2>/dev/null || true
	fail "$2: the server (pid $pid) still runs"
}
# wait_file FILE: waits, at most 60 s, until FILE is written.
wait_file() {
	local i
	for ((i = 0; i < 6000; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.01
	done
	fail "$1 was never written"
}
# parent_killed DIR LAUNCHER...: runs LAUNCHER capture on the silent server
# under a shell, SIGKILLs the shell once the server runs: the server must
# end (the launcher ends the binary when its parent exits, the binary its
# server).
parent_killed() {
	local dir="$1"
	shift
	rm -f "$dir/pid-parent"
	(cd "$dir" && PIDFILE=pid-parent exec sh -c '"$@" capture -o /dev/null -- node silent.cjs >/dev/null 2>&1; :' sh "$@") &
	local shell=$!
	wait_file "$dir/pid-parent"
	kill -9 "$shell"
	wait "$shell" 2>/dev/null || true
	gone "$dir/pid-parent" "$* under a parent that was SIGKILLed"
}

step "pack (npm, pypi)"
"$root/scripts/pack.sh" npm "$work/out"
"$root/scripts/pack.sh" pypi "$work/out"
for f in "$work"/out/*; do
	printf '   %-90s %s\n' "$(basename "$f")" "$(du -h "$f" | cut -f1)"
done

# The server and the snapshots: the example server, its snapshot, and a
# copy as the server was before three changes: it accepted one more enum
# value, one tool had another name, and one argument was optional. Every
# helper must name the three, with the calls that now fail.
(cd "$root" && go build -o "$work/server" ./examples/server)
server="$work/server"
mkdir -p "$work/data"
# A server that never answers: it writes its pid to $PIDFILE and waits.
cat >"$work/data/silent.cjs" <<'JS'
require('node:fs').writeFileSync(process.env.PIDFILE, String(process.pid));
setInterval(() => {}, 1 << 30);
JS
make_snapshots() { # MCP_SURFACE_BINARY
	"$1" snapshot -o "$work/data/surface.json" -- "$server" 2>/dev/null
	python3 - "$work/data" <<'PY'
import json, sys
d = sys.argv[1]
with open(d + "/surface.json") as f:
    m = json.load(f)
tools = {t["name"]: t for t in m["tools"]}
tools["search_notes"]["inputSchema"]["properties"]["sort"]["enum"].append("relevance")
tools["get_note"]["name"] = "read_note"
tools["add_note"]["inputSchema"]["required"] = ["title"]
with open(d + "/changed.json", "w") as f:
    json.dump(m, f, indent=2)
PY
}
# The message every helper and snapshot --check must print (a regular
# expression per line that must be there; the first is the first line).
cat >"$work/data/expect.cjs" <<'JS'
'use strict';
const want = [
  /^3 tools break existing clients: changed\.json is out of date$/m,
  /^  tool add_note: property "body" became required; this call was accepted before and is rejected now: \{[^\n]*\} \[input-property-became-required\]$/m,
  /^  tool read_note: renamed to get_note: calls with the old name fail \[tool-renamed\]$/m,
  /^  tool search_notes: "sort": enum value "relevance" removed; this call was accepted before and is rejected now: \{[^\n]*"sort":"relevance"[^\n]*\} \[input-enum-value-removed\]$/m,
];
// expectBrief throws unless msg is the brief of the three changes, whose
// first line is the verdict and whose last says how to update.
function expectBrief(msg, update) {
  const first = msg.split('\n')[0];
  if (!want[0].test(first)) {
    throw new Error(`the first line is not the verdict: ${first}`);
  }
  for (const re of want) {
    if (!re.test(msg)) {
      throw new Error(`the message does not match ${re}:\n${msg}`);
    }
  }
  const last = msg.trimEnd().split('\n').pop();
  if (!last.startsWith('If the change is intended: ') || !last.includes(update)) {
    throw new Error(`the last line does not say ${update}: ${last}`);
  }
  return true;
}
module.exports = { expectBrief, want };
JS
step "npm: install offline into a fresh project"
proj="$work/npm-project"
mkdir -p "$proj"
(cd "$proj" && npm init -y >/dev/null)
t="$(now)"
(cd "$proj" && npm install --offline --no-audit --no-fund "$work"/out/*.tgz >/dev/null)
echo "   npm install: $(took "$t")"
t="$(now)"
version="$(cd "$proj" && npx --no-install mcp-surface --version)"
echo "   first npx mcp-surface --version: $(took "$t"): $version"
case "$version" in "mcp-surface v"*" commit "*) ;; *) fail "npx mcp-surface --version printed: $version" ;; esac
(cd "$proj" && npx --no-install mcp-surface capture -o capture.json -- "$server" 2>/dev/null)
grep -q '"add_note"' "$proj/capture.json" || fail "npx mcp-surface capture wrote no add_note tool"
set +e
(cd "$proj" && npx --no-install mcp-surface diff --definitely-not-a-flag 2>/dev/null)
code=$?
set -e
[ "$code" = 2 ] || fail "a usage error through the launcher exited $code, want 2"
make_snapshots "$proj/node_modules/.bin/mcp-surface"

cp "$work/data/surface.json" "$work/data/changed.json" "$work/data/silent.cjs" "$work/data/expect.cjs" "$proj/"
# snapshot --check through the launcher says what the helpers say, and
# leaves nothing behind.
set +e
(cd "$proj" && npx --no-install mcp-surface snapshot --check -o changed.json -- "$server" >"$work/snapshot-check.txt" 2>/dev/null)
code=$?
set -e
[ "$code" = 1 ] || fail "snapshot --check on the changed snapshot exited $code, want 1"
node -e 'require(process.argv[1]).expectBrief(require("fs").readFileSync(process.argv[2], "utf8"), "`npx mcp-surface snapshot -o changed.json -- ")' \
	"$proj/expect.cjs" "$work/snapshot-check.txt" || fail "snapshot --check"
# no_leftovers DIR: nothing the check wrote (a .live.json) is left in DIR.
no_leftovers() {
	for f in "$1"/*live*; do
		[ ! -e "$f" ] || fail "$2 left $f behind"
	done
}
no_leftovers "$proj" "snapshot --check"
cat >"$proj/surface.test.mjs" <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { checkSurface } from 'mcp-surface';
const { expectBrief } = createRequire(import.meta.url)('./expect.cjs');

const command = [process.env.SERVER];
test('the unchanged server passes', async () => {
  const r = await checkSurface({ command, snapshot: 'surface.json' });
  assert.equal(r.updated, false);
});
test('a changed snapshot fails with the verdict and every change', async () => {
  await assert.rejects(checkSurface({ command, snapshot: 'changed.json' }), (err) => {
    assert.ok(err instanceof Error);
    expectBrief(err.message, 'MCP_SURFACE_UPDATE=1');
    // The same lines as snapshot --check, but for the remedy.
    const cli = readFileSync(process.env.SNAPSHOT_CHECK, 'utf8').trimEnd().split('\n').slice(0, -1);
    assert.deepEqual(err.message.split('\n').slice(0, -1), cli);
    return true;
  });
});
test('timeout: the binary fails with its own message, and the server is gone', async () => {
  await assert.rejects(checkSurface({ command: ['node', 'silent.cjs'], snapshot: 'surface.json', timeout: 1500, env: { PIDFILE: 'pid-timeout' } }), (err) => {
    assert.match(err.message, /1\.5s/);
    assert.doesNotMatch(err.message, /did not finish within the timeout/);
    return true;
  });
});
test('signal: an abort stops the binary and rejects', async () => {
  const ac = new AbortController();
  const p = checkSurface({ command: ['node', 'silent.cjs'], snapshot: 'surface.json', signal: ac.signal, env: { PIDFILE: 'pid-abort' } });
  const t = setInterval(() => {
    if (existsSync('pid-abort')) {
      clearInterval(t);
      ac.abort(new Error('enough'));
    }
  }, 10);
  await assert.rejects(p, /aborted \(Error: enough\)/);
});
test('update: true rewrites it', async () => {
  copyFileSync('changed.json', 'updated.json');
  const r = await checkSurface({ command, snapshot: 'updated.json', update: true });
  assert.equal(r.updated, true);
  assert.equal(readFileSync('updated.json', 'utf8'), readFileSync('surface.json', 'utf8'));
});
JS
# The failure as each runner shows it: a test that lets checkSurface fail.
cat >"$proj/failing.test.mjs" <<'JS'
import { test } from 'node:test';
import { checkSurface } from 'mcp-surface';
test('surface', async () => {
  await checkSurface({ command: [process.env.SERVER], snapshot: 'changed.json' });
});
JS
t="$(now)"
(cd "$proj" && SERVER="$server" SNAPSHOT_CHECK="$work/snapshot-check.txt" node --test surface.test.mjs >"$work/node-test.log" 2>&1) ||
	{ cat "$work/node-test.log"; fail "checkSurface under node --test"; }
echo "   node --test (5 tests): $(took "$t")"
gone "$proj/pid-timeout" "checkSurface with a timeout"
gone "$proj/pid-abort" "checkSurface aborted"
parent_killed "$proj" "$proj/node_modules/.bin/mcp-surface"
echo "   timeout and abort end the binary and the server; so does the launcher's parent's death"
# runner_shows LOG: the runner's own output of the failing test names the
# verdict and the three changes.
runner_shows() {
	grep -q "3 tools break existing clients: changed.json is out of date" "$1" &&
		grep -q 'tool read_note: renamed to get_note' "$1" &&
		grep -q 'enum value "relevance" removed' "$1" &&
		grep -q 'property "body" became required' "$1"
}
if (cd "$proj" && SERVER="$server" node --test failing.test.mjs >"$work/node-fail.log" 2>&1); then
	fail "node --test passed on a changed snapshot"
fi
runner_shows "$work/node-fail.log" || { cat "$work/node-fail.log"; fail "node --test does not show the verdict and the changes"; }
no_leftovers "$proj" checkSurface

step "npm: checkSurface under vitest and jest"
# The runners come from the registry (pinned); the packages under test
# from OUTDIR.
runners="$work/npm-runners"
mkdir -p "$runners"
(cd "$runners" && npm init -y >/dev/null)
cp "$work/data/surface.json" "$work/data/changed.json" "$work/data/silent.cjs" "$work/data/expect.cjs" "$runners/"
if (cd "$runners" && npm install --no-audit --no-fund vitest@4.1.12 jest@30.5.2 "$work"/out/*.tgz >"$work/runners-install.log" 2>&1); then
	cat >"$runners/surface.vitest.test.mjs" <<'JS'
import { test, expect } from 'vitest';
import { createRequire } from 'node:module';
import { checkSurface } from 'mcp-surface';
const { expectBrief } = createRequire(import.meta.url)('./expect.cjs');
const command = [process.env.SERVER];
test('the unchanged server passes', async () => {
  await checkSurface({ command, snapshot: 'surface.json' });
});
test('a changed snapshot fails with the verdict and every change', async () => {
  const err = await checkSurface({ command, snapshot: 'changed.json' }).then(() => null, (e) => e);
  expect(err).toBeInstanceOf(Error);
  expect(expectBrief(err.message, 'MCP_SURFACE_UPDATE=1')).toBe(true);
});
JS
	sed -e "s/import { test, expect } from 'vitest';//" -e "s/import { createRequire } from 'node:module';//" \
		-e "s/import { checkSurface } from 'mcp-surface';/const { checkSurface } = require('mcp-surface');/" \
		-e "s/createRequire(import.meta.url)('.\/expect.cjs')/require('.\/expect.cjs')/" \
		"$runners/surface.vitest.test.mjs" >"$runners/surface.jest.test.js"
	# Tests that time out: vitest aborts its context's signal; under jest
	# the binary's own timeout (passed on) ends it after jest's. Neither
	# leaves a process once the runner exits.
	cat >"$runners/timeout.vitest.test.mjs" <<'JS'
import { test, expect } from 'vitest';
import { checkSurface } from 'mcp-surface';
const command = ['node', 'silent.cjs'];
test('timeout under the test timeout: the binary names it', async () => {
  await expect(checkSurface({ command, snapshot: 'surface.json', timeout: 1500, env: { PIDFILE: 'pid-vitest-own' } })).rejects.toThrow(/1\.5s/);
});
test('times out, with the signal', { timeout: 1500 }, async ({ signal }) => {
  await checkSurface({ command, snapshot: 'surface.json', signal, env: { PIDFILE: 'pid-vitest-signal' } });
});
test('times out, without it', { timeout: 1500 }, async () => {
  await checkSurface({ command, snapshot: 'surface.json', env: { PIDFILE: 'pid-vitest-nosignal' } });
});
JS
	cat >"$runners/timeout.jest.test.js" <<'JS'
const { checkSurface } = require('mcp-surface');
const command = ['node', 'silent.cjs'];
test('timeout under the test timeout: the binary names it', async () => {
  await expect(checkSurface({ command, snapshot: 'surface.json', timeout: 1500, env: { PIDFILE: 'pid-jest-own' } })).rejects.toThrow(/1\.5s/);
});
test('times out', async () => {
  await checkSurface({ command, snapshot: 'surface.json', timeout: 2500, env: { PIDFILE: 'pid-jest-timeout' } });
}, 1500);
JS
	cat >"$runners/failing.vitest.test.mjs" <<'JS'
import { test } from 'vitest';
import { checkSurface } from 'mcp-surface';
test('surface', async () => {
  await checkSurface({ command: [process.env.SERVER], snapshot: 'changed.json' });
});
JS
	sed -e "s/import { test } from 'vitest';//" -e "s/import { checkSurface } from 'mcp-surface';/const { checkSurface } = require('mcp-surface');/" \
		"$runners/failing.vitest.test.mjs" >"$runners/failing.jest.test.js"
	(cd "$runners" && SERVER="$server" npx --no-install vitest run surface.vitest.test.mjs >"$work/vitest.log" 2>&1) ||
		{ cat "$work/vitest.log"; fail "checkSurface under vitest"; }
	(cd "$runners" && SERVER="$server" npx --no-install jest surface.jest.test.js >"$work/jest.log" 2>&1) ||
		{ cat "$work/jest.log"; fail "checkSurface under jest"; }
	if (cd "$runners" && SERVER="$server" npx --no-install vitest run failing.vitest.test.mjs >"$work/vitest-fail.log" 2>&1); then
		fail "vitest passed on a changed snapshot"
	fi
	runner_shows "$work/vitest-fail.log" || { cat "$work/vitest-fail.log"; fail "vitest does not show the verdict and the changes"; }
	if (cd "$runners" && SERVER="$server" npx --no-install jest failing.jest.test.js >"$work/jest-fail.log" 2>&1); then
		fail "jest passed on a changed snapshot"
	fi
	runner_shows "$work/jest-fail.log" || { cat "$work/jest-fail.log"; fail "jest does not show the verdict and the changes"; }
	echo "   vitest and jest: pass and fail as node --test does"
	for runner in vitest jest; do
		if [ "$runner" = vitest ]; then
			run=(npx --no-install vitest run timeout.vitest.test.mjs)
		else
			run=(npx --no-install jest timeout.jest.test.js)
		fi
		if (cd "$runners" && "${run[@]}" >"$work/$runner-timeout.log" 2>&1); then
			cat "$work/$runner-timeout.log"
			fail "$runner passed tests that time out"
		fi
		grep -q "timeout under the test timeout" "$work/$runner-timeout.log" || { cat "$work/$runner-timeout.log"; fail "$runner ran no timeout test"; }
		for f in "$runners"/pid-"$runner"-*; do
			gone "$f" "$runner: $(basename "$f")"
		done
	done
	grep -q '✓ timeout under the test timeout' "$work/vitest-timeout.log" "$work/jest-timeout.log" ||
		{ cat "$work/vitest-timeout.log" "$work/jest-timeout.log"; fail "the binary's own timeout message did not come first"; }
	echo "   vitest and jest: the binary's timeout message first; tests that time out or abort leave no process"
elif [ -n "${CI:-}" ]; then
	cat "$work/runners-install.log"
	fail "vitest and jest could not be installed from the registry"
else
	echo "   skipped: vitest and jest could not be installed from the registry (see $work/runners-install.log)"
fi

step "pypi: install offline into a fresh virtual environment"
t="$(now)"
python3 -m venv "$work/venv"
echo "   python3 -m venv: $(took "$t")"
t="$(now)"
"$work/venv/bin/pip" install --quiet --no-index "$work"/out/*.whl
echo "   pip install --no-index: $(took "$t")"
t="$(now)"
version="$("$work/venv/bin/mcp-surface" --version)"
echo "   first mcp-surface --version: $(took "$t"): $version"
case "$version" in "mcp-surface v"*" commit "*) ;; *) fail "mcp-surface --version printed: $version" ;; esac
[ "$("$work/venv/bin/python" -m mcp_surface --version)" = "$version" ] || fail "python -m mcp_surface --version differs from mcp-surface --version"
"$work/venv/bin/mcp-surface" capture -o "$work/py-capture.json" -- "$server" 2>/dev/null
grep -q '"add_note"' "$work/py-capture.json" || fail "mcp-surface capture (wheel) wrote no add_note tool"
cp "$work/snapshot-check.txt" "$work/data/"
(cd "$work/data" && SERVER="$server" "$work/venv/bin/python" - <<'PY'
import os, re, shutil
from mcp_surface import check_surface

server = [os.environ["SERVER"]]
check_surface(server, "surface.json")
try:
    check_surface(server, "changed.json")
except AssertionError as e:
    msg = str(e)
else:
    raise SystemExit("check_surface passed on a changed snapshot")
want = [
    r"^3 tools break existing clients: changed\.json is out of date$",
    r'^  tool add_note: property "body" became required; this call was accepted before and is rejected now: \{.*\}',
    r"^  tool read_note: renamed to get_note: calls with the old name fail",
    r'^  tool search_notes: "sort": enum value "relevance" removed; this call was accepted before and is rejected now: \{.*"sort":"relevance".*\}',
    r"^If the change is intended: rerun with MCP_SURFACE_UPDATE=1 \(or update=True\) and commit changed\.json$",
]
assert re.match(want[0], msg.splitlines()[0]), msg
for w in want:
    assert re.search(w, msg, re.M), (w, msg)
# The same lines as snapshot --check, but for the remedy.
cli = open("snapshot-check.txt").read().rstrip().splitlines()[:-1]
assert msg.splitlines()[:-1] == cli, (msg, cli)
shutil.copy("changed.json", "updated.json")
check_surface(server, "updated.json", update=True)
assert open("updated.json").read() == open("surface.json").read(), "update=True did not rewrite the snapshot"
from mcp_surface import SurfaceError
try:
    check_surface(["node", "silent.cjs"], "surface.json", env={"PIDFILE": "pid-py-timeout"}, timeout=1.5)
except SurfaceError as e:
    assert "1.5s" in str(e) and "did not finish within the timeout" not in str(e), str(e)
else:
    raise SystemExit("check_surface passed on a server that never answers")
PY
) || fail "check_surface"
gone "$work/data/pid-py-timeout" "check_surface with a timeout"
parent_killed "$work/data" "$work/venv/bin/mcp-surface"
echo "   check_surface: passes, fails with the verdict and the changes, updates, fails with the binary's timeout message; the launcher ends with its parent"

step "pypi: the pytest plugin"
if /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
	/usr/bin/python3 -m venv --system-site-packages "$work/venv-pytest"
	"$work/venv-pytest/bin/pip" install --quiet --no-index "$work"/out/*.whl
	cat >"$work/data/test_surface.py" <<'PY'
import os
from mcp_surface import check_surface

def test_surface():
    check_surface([os.environ["SERVER"]], os.environ["SNAPSHOT"])
PY
	cp "$work/data/changed.json" "$work/data/plugin.json"
	# COLUMNS: a terminal's width (pytest cuts the short summary to it).
	pytest() { (cd "$work/data" && COLUMNS=120 SERVER="$server" SNAPSHOT=plugin.json "$work/venv-pytest/bin/python" -m pytest -q -p no:cacheprovider "$@" test_surface.py); }
	if pytest -rf >"$work/pytest.log" 2>&1; then
		cat "$work/pytest.log"
		fail "pytest passed on a changed snapshot"
	fi
	# The short summary's one line is the verdict.
	grep -q "^FAILED test_surface.py::test_surface - AssertionError: 3 tools break existing clients: plugin.json is out of date" "$work/pytest.log" ||
		{ cat "$work/pytest.log"; fail "pytest's short summary does not show the verdict"; }
	if ! grep -q "tool read_note: renamed to get_note" "$work/pytest.log" ||
		! grep -q "If the change is intended: run \`pytest --mcp-surface-update\`" "$work/pytest.log"; then
		cat "$work/pytest.log"
		fail "pytest's failure does not show the changes and the remedy"
	fi
	pytest --mcp-surface-update -s >"$work/pytest-update.log" 2>&1 || fail "pytest --mcp-surface-update failed"
	grep -q "rewrote plugin.json: 3 tools break existing clients" "$work/pytest-update.log" || { cat "$work/pytest-update.log"; fail "pytest --mcp-surface-update does not say what it rewrote"; }
	pytest >/dev/null || fail "pytest fails after --mcp-surface-update"
	echo "   pytest: fails with the verdict in the summary, --mcp-surface-update rewrites and says so, then passes"
elif [ -n "${CI:-}" ]; then
	fail "pytest is missing: apt-get install python3-pytest"
else
	echo "   skipped: no pytest for /usr/bin/python3 (apt-get install python3-pytest)"
fi
echo "packages: ok"
