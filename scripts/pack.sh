#!/usr/bin/env bash
# pack.sh: build mcp-surface from this checkout and pack it as the npm
# packages or the Python wheels the release publishes.
#
# Usage:
#   scripts/pack.sh npm|pypi OUTDIR [GOOS/GOARCH...]
#
#   npm    OUTDIR gets mcp-surface-<version>.tgz (the launcher, checkSurface
#          and its types; an optional dependency on every platform package)
#          and one mcp-surface-cli-<os>-<arch>-<version>.tgz per platform
#          (the package @mcp-surface/cli-<os>-<arch>, holding the binary)
#   pypi   OUTDIR gets one mcp_surface-<version>-py3-none-<platform>.whl per
#          platform (the binary, check_surface, the pytest plugin)
#
# The platforms are GOOS/GOARCH pairs among linux, darwin, windows and
# amd64, arm64; the host's when none is named. The binaries are built as
# .goreleaser.yaml builds them (CGO_ENABLED=0, -trimpath, the same version
# stamp), so a release's packages hold the bytes of its archives.
#
# The version is $MCP_SURFACE_VERSION (v1.2.3 or 1.2.3, as the release
# workflow sets it from the tag), else the tag at HEAD, else
# 0.0.0-dev.g<commit>. Works offline: needs go, and npm or python3.
set -euo pipefail

usage() {
	echo "usage: $0 npm|pypi OUTDIR [GOOS/GOARCH...]" >&2
	exit 2
}
[ $# -ge 2 ] || usage
kind="$1" out="$2"
shift 2
case "$kind" in
npm | pypi) ;;
*) echo "pack.sh: unknown kind $kind: npm or pypi" >&2; usage ;;
esac
platforms=("$@")
if [ ${#platforms[@]} -eq 0 ]; then
	platforms=("$(go env GOOS)/$(go env GOARCH)")
fi
all_platforms=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)
for p in "${platforms[@]}"; do
	known=0
	for q in "${all_platforms[@]}"; do
		[ "$p" = "$q" ] && known=1
	done
	if [ "$known" = 0 ]; then
		echo "pack.sh: unknown platform $p: the release builds ${all_platforms[*]}" >&2
		exit 2
	fi
done

root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

commit="$(git -C "$root" rev-parse HEAD)"
version="${MCP_SURFACE_VERSION:-}"
if [ -z "$version" ]; then
	version="$(git -C "$root" describe --tags --exact-match --match 'v[0-9]*' HEAD 2>/dev/null || true)"
fi
if [ -z "$version" ]; then
	version="0.0.0-dev.g$(git -C "$root" rev-parse --short=7 HEAD)"
fi
version="${version#v}"
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
	echo "pack.sh: version $version is not MAJOR.MINOR.PATCH[-PRERELEASE]" >&2
	exit 2
fi
# Reproducible archives: file times from the commit.
SOURCE_DATE_EPOCH="$(git -C "$root" log -1 --format=%ct HEAD)"
export SOURCE_DATE_EPOCH

module=github.com/mcp-surface/mcp-surface
build() { # GOOS GOARCH OUTFILE
	(cd "$root" && CGO_ENABLED=0 GOOS="$1" GOARCH="$2" go build -trimpath \
		-ldflags "-s -w -X $module/internal/app/version.version=v$version -X $module/internal/app/version.commit=$commit" \
		-o "$3" .)
}
exe_name() { # GOOS
	if [ "$1" = windows ]; then echo mcp-surface.exe; else echo mcp-surface; fi
}
node_os() { # GOOS
	if [ "$1" = windows ]; then echo win32; else echo "$1"; fi
}
node_cpu() { # GOARCH
	if [ "$1" = amd64 ]; then echo x64; else echo "$1"; fi
}

pack_npm() {
	local p goos goarch os cpu dir exe
	for p in "${platforms[@]}"; do
		goos="${p%/*}" goarch="${p#*/}"
		os="$(node_os "$goos")" cpu="$(node_cpu "$goarch")"
		dir="$work/cli-$os-$cpu"
		exe="$(exe_name "$goos")"
		mkdir -p "$dir/bin"
		build "$goos" "$goarch" "$dir/bin/$exe"
		cp "$root/LICENSE" "$dir/"
		cat >"$dir/package.json" <<JSON
{
  "name": "@mcp-surface/cli-$os-$cpu",
  "version": "$version",
  "description": "The mcp-surface binary for $os $cpu (installed by the mcp-surface package)",
  "license": "MIT",
  "repository": {
    "type": "git",
    "url": "git+https://github.com/mcp-surface/mcp-surface.git"
  },
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/"],
  "preferUnplugged": true
}
JSON
		cat >"$dir/README.md" <<MD
# @mcp-surface/cli-$os-$cpu

The mcp-surface binary for $os $cpu. Install the package mcp-surface, which
depends on it and runs it.
MD
		(cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null)
		echo "$out/mcp-surface-cli-$os-$cpu-$version.tgz"
	done

	# The main package depends on every platform's package, whichever were
	# packed here: the release publishes them all.
	local main="$work/mcp-surface"
	cp -R "$root/npm/mcp-surface" "$main"
	cp "$root/LICENSE" "$main/"
	local deps="" sep=""
	for p in "${all_platforms[@]}"; do
		os="$(node_os "${p%/*}")" cpu="$(node_cpu "${p#*/}")"
		deps="$deps$sep\"@mcp-surface/cli-$os-$cpu\":\"$version\""
		sep=","
	done
	(cd "$main" && npm pkg set "version=$version" && npm pkg set --json "optionalDependencies={$deps}")
	(cd "$main" && npm pack --silent --pack-destination "$out" >/dev/null)
	echo "$out/mcp-surface-$version.tgz"
}

pack_pypi() {
	local p goos goarch bin
	for p in "${platforms[@]}"; do
		goos="${p%/*}" goarch="${p#*/}"
		bin="$work/$goos-$goarch/$(exe_name "$goos")"
		build "$goos" "$goarch" "$bin"
		python3 "$root/python/build_wheel.py" --version "$version" --platform "$p" \
			--binary "$bin" --license "$root/LICENSE" --out "$out"
	done
}

"pack_$kind"
