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

step "pack (npm, pypi)"
"$root/scripts/pack.sh" npm "$work/out"
"$root/scripts/pack.sh" pypi "$work/out"
for f in "$work"/out/*; do
	printf '   %-90s %s\n' "$(basename "$f")" "$(du -h "$f" | cut -f1)"
done

# The server and the snapshots: the example server, its snapshot, and a
# copy with one tool dropped and one description changed.
(cd "$root" && go build -o "$work/server" ./examples/server)
server="$work/server"
mkdir -p "$work/data"
make_snapshots() { # MCP_SURFACE_BINARY
	"$1" snapshot -o "$work/data/surface.json" -- "$server" 2>/dev/null
	python3 - "$work/data" <<'PY'
import json, sys
d = sys.argv[1]
with open(d + "/surface.json") as f:
    m = json.load(f)
removed = m["tools"].pop()["name"]
m["tools"][0]["description"] = "a description the snapshot no longer has"
with open(d + "/changed.json", "w") as f:
    json.dump(m, f, indent=2)
with open(d + "/removed.txt", "w") as f:
    f.write(removed + "\n" + m["tools"][0]["name"] + "\n")
PY
}

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
{ read -r removed && read -r changed; } <"$work/data/removed.txt"

cp "$work/data/surface.json" "$work/data/changed.json" "$proj/"
cat >"$proj/surface.test.mjs" <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { checkSurface } from 'mcp-surface';

const command = [process.env.SERVER];
test('the unchanged server passes', async () => {
  const r = await checkSurface({ command, snapshot: 'surface.json' });
  assert.equal(r.updated, false);
});
test('a changed snapshot fails with the changes named', async () => {
  await assert.rejects(checkSurface({ command, snapshot: 'changed.json' }), (err) => {
    assert.ok(err instanceof Error);
    assert.match(err.message, new RegExp(`tools added: ${process.env.REMOVED}\\b`));
    assert.match(err.message, new RegExp(`descriptions changed: ${process.env.CHANGED}\\b`));
    assert.match(err.message, /update: true or MCP_SURFACE_UPDATE=1/);
    return true;
  });
});
test('update: true rewrites it', async () => {
  copyFileSync('changed.json', 'updated.json');
  const r = await checkSurface({ command, snapshot: 'updated.json', update: true });
  assert.equal(r.updated, true);
  assert.equal(readFileSync('updated.json', 'utf8'), readFileSync('surface.json', 'utf8'));
});
JS
t="$(now)"
(cd "$proj" && SERVER="$server" REMOVED="$removed" CHANGED="$changed" node --test surface.test.mjs >"$work/node-test.log" 2>&1) ||
	{ cat "$work/node-test.log"; fail "checkSurface under node --test"; }
echo "   node --test (3 tests): $(took "$t")"

step "npm: checkSurface under vitest and jest"
# The runners come from the registry (pinned); the packages under test
# from OUTDIR.
runners="$work/npm-runners"
mkdir -p "$runners"
(cd "$runners" && npm init -y >/dev/null)
cp "$work/data/surface.json" "$work/data/changed.json" "$runners/"
if (cd "$runners" && npm install --no-audit --no-fund vitest@4.1.12 jest@30.5.2 "$work"/out/*.tgz >"$work/runners-install.log" 2>&1); then
	cat >"$runners/surface.vitest.test.mjs" <<'JS'
import { test, expect } from 'vitest';
import { checkSurface } from 'mcp-surface';
const command = [process.env.SERVER];
test('the unchanged server passes', async () => {
  await checkSurface({ command, snapshot: 'surface.json' });
});
test('a changed snapshot fails with the changes named', async () => {
  await expect(checkSurface({ command, snapshot: 'changed.json' })).rejects.toThrow(new RegExp(`tools added: ${process.env.REMOVED}\\b`));
});
JS
	sed -e "s/import { test, expect } from 'vitest';//" -e "s/import { checkSurface } from 'mcp-surface';/const { checkSurface } = require('mcp-surface');/" \
		"$runners/surface.vitest.test.mjs" >"$runners/surface.jest.test.js"
	(cd "$runners" && SERVER="$server" REMOVED="$removed" npx --no-install vitest run surface.vitest.test.mjs >"$work/vitest.log" 2>&1) ||
		{ cat "$work/vitest.log"; fail "checkSurface under vitest"; }
	(cd "$runners" && SERVER="$server" REMOVED="$removed" npx --no-install jest surface.jest.test.js >"$work/jest.log" 2>&1) ||
		{ cat "$work/jest.log"; fail "checkSurface under jest"; }
	echo "   vitest and jest: pass and fail as node --test does"
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
(cd "$work/data" && SERVER="$server" REMOVED="$removed" CHANGED="$changed" "$work/venv/bin/python" - <<'PY'
import os, shutil
from mcp_surface import check_surface

server = [os.environ["SERVER"]]
check_surface(server, "surface.json")
try:
    check_surface(server, "changed.json")
except AssertionError as e:
    msg = str(e)
    assert "tools added: " + os.environ["REMOVED"] in msg, msg
    assert "descriptions changed: " + os.environ["CHANGED"] in msg, msg
else:
    raise SystemExit("check_surface passed on a changed snapshot")
shutil.copy("changed.json", "updated.json")
check_surface(server, "updated.json", update=True)
assert open("updated.json").read() == open("surface.json").read(), "update=True did not rewrite the snapshot"
PY
) || fail "check_surface"
echo "   check_surface: passes, fails with the changes, updates"

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
	pytest() { (cd "$work/data" && SERVER="$server" SNAPSHOT=plugin.json "$work/venv-pytest/bin/python" -m pytest -q -p no:cacheprovider "$@" test_surface.py); }
	if pytest >"$work/pytest.log" 2>&1; then
		cat "$work/pytest.log"
		fail "pytest passed on a changed snapshot"
	fi
	grep -q "AssertionError: .*plugin.json no longer matches" "$work/pytest.log" || { cat "$work/pytest.log"; fail "pytest's failure does not show the diff"; }
	pytest --mcp-surface-update >/dev/null || fail "pytest --mcp-surface-update failed"
	pytest >/dev/null || fail "pytest fails after --mcp-surface-update"
	echo "   pytest: fails with the diff, --mcp-surface-update rewrites, then passes"
elif [ -n "${CI:-}" ]; then
	fail "pytest is missing: apt-get install python3-pytest"
else
	echo "   skipped: no pytest for /usr/bin/python3 (apt-get install python3-pytest)"
fi
echo "packages: ok"
