#!/usr/bin/env bash
# The binary step of action.yml: puts mcp-surface for this runner at
# $BIN_DIR/mcp-surface.
#
#   action-install.sh download   when the action's ref is a release: fetch
#                                that release's archive for this runner,
#                                check it against the release's
#                                checksums.txt and unpack it
#   action-install.sh build      build it from the action's source
#
# download writes installed=true and version=vX.Y.Z to $GITHUB_OUTPUT when
# it installed the binary, and installed=false when the ref is no release,
# the runner's platform has no archive, or the download failed: action.yml
# then builds from source. An archive that does not match checksums.txt is
# refused: the step fails (exit 1) and nothing is installed.
#
# The environment (action.yml sets it; tests point the URLs at loopback):
#   ACTION_REF      the action's ref: a tag (v1.2.3), a major tag (v1), a
#                   commit SHA, a branch, or empty for a local action (uses: ./)
#   RELEASE_URL     release downloads: $RELEASE_URL/<tag>/<file>
#   TAGS_URL        the action's git repository, for `git ls-remote --tags`
#                   (a major tag or a SHA is the release whose tag points at
#                   the same commit)
#   RUNNER_OS, RUNNER_ARCH   Linux, macOS, Windows; X64, ARM64
#   BIN_DIR         where the binary goes
#   SOURCE_DIR      build: the action's source
#   GITHUB_OUTPUT   the step's output file
#
# Archive names follow .goreleaser.yaml:
#   mcp-surface_<version without v>_<linux|darwin|windows>_<amd64|arm64>.tar.gz
# (.zip on Windows), with the binary at the top level.
#
# Everything printed from outside (tag names, digests) is checked against a
# strict pattern first, so no server data reaches the log as a workflow
# command.
set -euo pipefail

say() { printf '%s\n' "$*"; }
notice() { printf '::notice title=mcp-surface::%s\n' "$*"; }
warn() { printf '::warning title=mcp-surface::%s\n' "$*"; }
fail() {
	printf '::error title=mcp-surface::%s\n' "$*"
	exit 1
}
output() { printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"; }
not_installed() {
	say "$1: building mcp-surface from the action's source"
	output installed false
	exit 0
}

release_re='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'
major_re='^v[0-9]+$'
sha_re='^[0-9a-f]{40}$'

# tag_for_commit COMMIT [MAJOR]: the highest release tag whose commit is
# COMMIT, or with MAJOR (v1) the highest stable vMAJOR.x.y tag on the
# commit the MAJOR tag points at; stable releases before prereleases. Empty
# when there is none. (awk, not bash 4 arrays: macOS ships bash 3.2.)
tag_for_commit() {
	local listing
	if ! listing=$(git ls-remote --tags "$TAGS_URL" 2>/dev/null); then
		warn "could not list the action's tags" >&2
		return 0
	fi
	printf '%s\n' "$listing" | awk -v want="$1" -v major="${2-}" '
		function hex40(s) { return length(s) == 40 && s ~ /^[0-9a-f]+$/ }
		function release(s) { return s ~ /^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$/ }
		# a before b: stable first, then by major, minor, patch, then
		# prerelease text.
		function better(a, b,   ca, cb, ra, rb, na, nb, i) {
			if (b == "") return 1
			ca = a; ra = ""; if ((i = index(a, "-")) > 0) { ca = substr(a, 1, i - 1); ra = substr(a, i + 1) }
			cb = b; rb = ""; if ((i = index(b, "-")) > 0) { cb = substr(b, 1, i - 1); rb = substr(b, i + 1) }
			if ((ra == "") != (rb == "")) return ra == ""
			split(substr(ca, 2), na, "."); split(substr(cb, 2), nb, ".")
			for (i = 1; i <= 3; i++) if (na[i] + 0 != nb[i] + 0) return na[i] + 0 > nb[i] + 0
			return ra > rb
		}
		{
			name = $2
			sub(/^refs\/tags\//, "", name)
			# An annotated tag: the peeled line (name^{}) has its commit.
			peeled = sub(/\^\{\}$/, "", name)
			if (!hex40($1) || (!peeled && (name in p))) next
			c[name] = $1
			if (peeled) p[name] = 1
		}
		END {
			if (major != "") { if (!(major in c)) exit; want = c[major] }
			best = ""
			for (n in c) {
				if (c[n] != want || !release(n)) continue
				if (major != "" && (index(n, major ".") != 1 || index(n, "-") > 0)) continue
				if (better(n, best)) best = n
			}
			if (best != "") print best
		}'
}

sha256_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

fetch() { # URL FILE
	# curl says why on stderr (its own text: the URL and the HTTP status).
	curl -fsSL --retry 3 --retry-delay 1 --connect-timeout 15 --max-time 300 -o "$2" "$1"
}

download() {
	local ref=${ACTION_REF-} tag="" os arch ext exe=""
	: "${BIN_DIR:?BIN_DIR is not set}" "${RELEASE_URL:?RELEASE_URL is not set}"
	if [[ $ref =~ $release_re ]]; then
		tag=$ref
	elif [[ $ref =~ $major_re ]]; then
		: "${TAGS_URL:?TAGS_URL is not set}"
		tag=$(tag_for_commit "" "$ref")
		[[ -n $tag ]] || not_installed "the action's ref $ref points at no release of $ref"
	elif [[ $ref =~ $sha_re ]]; then
		: "${TAGS_URL:?TAGS_URL is not set}"
		tag=$(tag_for_commit "$ref")
		[[ -n $tag ]] || not_installed "the action's commit ${ref:0:12} is no release"
	elif [[ -z $ref ]]; then
		not_installed "a local action (no ref)"
	else
		not_installed "the action's ref is no release tag"
	fi

	case ${RUNNER_OS-} in
	Linux) os=linux ext=tar.gz ;;
	macOS) os=darwin ext=tar.gz ;;
	Windows) os=windows ext=zip exe=.exe ;;
	*) not_installed "no release archive for this runner's OS" ;;
	esac
	case ${RUNNER_ARCH-} in
	X64) arch=amd64 ;;
	ARM64) arch=arm64 ;;
	*) not_installed "no release archive for this runner's architecture" ;;
	esac
	if [[ $ext == zip ]] && ! command -v unzip >/dev/null 2>&1; then
		not_installed "unzip is not installed"
	fi

	local asset="mcp-surface_${tag#v}_${os}_${arch}.${ext}"
	local tmp
	tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mcp-surface-download.XXXXXX")
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '$tmp'" EXIT
	say "downloading $asset of mcp-surface $tag"
	if ! fetch "$RELEASE_URL/$tag/checksums.txt" "$tmp/checksums.txt"; then
		warn "could not download checksums.txt of release $tag; building from source instead"
		output installed false
		return 0
	fi
	if ! fetch "$RELEASE_URL/$tag/$asset" "$tmp/$asset"; then
		warn "could not download $asset of release $tag; building from source instead"
		output installed false
		return 0
	fi

	local want got
	want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/checksums.txt" | tr 'A-F' 'a-f')
	[[ $want =~ ^[0-9a-f]{64}$ ]] || fail "checksums.txt of release $tag has no SHA-256 for $asset: refusing the download"
	got=$(sha256_of "$tmp/$asset")
	[[ $got == "$want" ]] || fail "$asset of release $tag: its SHA-256 $got does not match $want in checksums.txt: refusing the download (corrupted or tampered with)"
	say "verified $asset: sha256 $got"

	mkdir -p "$tmp/x"
	if [[ $ext == zip ]]; then
		unzip -q -o "$tmp/$asset" "mcp-surface$exe" -d "$tmp/x" || fail "unpacking $asset failed"
	else
		tar -xzf "$tmp/$asset" -C "$tmp/x" "mcp-surface$exe" || fail "unpacking $asset failed"
	fi
	[[ -f $tmp/x/mcp-surface$exe && ! -L $tmp/x/mcp-surface$exe ]] || fail "$asset holds no mcp-surface$exe"
	mkdir -p "$BIN_DIR"
	mv -f "$tmp/x/mcp-surface$exe" "$BIN_DIR/mcp-surface"
	chmod 0755 "$BIN_DIR/mcp-surface"
	notice "mcp-surface $tag from the release ($os/$arch, checksum verified)"
	output installed true
	output version "$tag"
}

build() {
	local ref=${ACTION_REF-}
	: "${BIN_DIR:?BIN_DIR is not set}" "${SOURCE_DIR:?SOURCE_DIR is not set}"
	# A source download has no git history: the ref names the build
	# (internal/app/version). Only a plain ref name is stamped; anything else
	# would be read as more linker flags.
	local pkg=github.com/mcp-surface/mcp-surface/internal/app/version ldflags=""
	if [[ $ref =~ $sha_re ]]; then
		ldflags="-X $pkg.commit=$ref"
	elif [[ $ref =~ ^[A-Za-z0-9][A-Za-z0-9._/-]*$ ]]; then
		ldflags="-X $pkg.version=$ref"
	fi
	# auto: a job's Go 1.21 or later fetches the toolchain go.mod names.
	export CGO_ENABLED=0 GOFLAGS=-mod=readonly GOWORK=off GOTOOLCHAIN=auto
	mkdir -p "$BIN_DIR"
	cd "$SOURCE_DIR"
	say "building mcp-surface from source${ref:+ ($ref)}"
	go build -trimpath -ldflags "$ldflags" -o "$BIN_DIR/mcp-surface" .
}

case ${1-} in
download) download ;;
build) build ;;
*)
	say "usage: action-install.sh download|build" >&2
	exit 2
	;;
esac
