package version

import (
	"runtime/debug"
	"strings"
	"sync"
)

// Stamped at link time:
//
//	-ldflags "-X github.com/mcp-surface/mcp-surface/internal/app/version.version=v1.2.3
//	          -X github.com/mcp-surface/mcp-surface/internal/app/version.commit=<sha>"
//
// Empty when not stamped.
var (
	version string
	commit  string
)

// Devel is the version of a build that knows no module version: the Go
// toolchain's own word for it.
const Devel = "(devel)"

// Info is what a binary knows about its origin.
type Info struct {
	// Version is the release tag (v1.2.3), the module version go install
	// recorded (a tag or a pseudo-version), or Devel.
	Version string
	// Commit is the full revision the binary was built from; empty when
	// unknown (a build outside a checkout, go install from the proxy).
	Commit string
	// Modified reports a checkout with uncommitted changes.
	Modified bool
}

var get = sync.OnceValue(func() Info {
	bi, _ := debug.ReadBuildInfo()
	return FromBuild(version, commit, bi)
})

// Get returns this binary's Info.
func Get() Info { return get() }

// FromBuild combines the link-time stamp (either may be empty) with the
// build information the toolchain recorded (nil when there is none).
func FromBuild(stampVersion, stampCommit string, bi *debug.BuildInfo) Info {
	// goreleaser stamps "none" when it has no git information.
	if !isHex(stampCommit) {
		stampCommit = ""
	}
	in := Info{Version: stampVersion, Commit: stampCommit}
	var revision string
	var modified bool
	if bi != nil {
		if in.Version == "" {
			in.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if in.Version == "" {
		in.Version = Devel
	}
	// The recorded state describes the recorded revision only: a stamp
	// naming another commit says nothing about local changes.
	if in.Commit == "" || in.Commit == revision {
		in.Commit = revision
		in.Modified = modified && revision != ""
	}
	return in
}

func isHex(s string) bool {
	if len(s) < 7 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ShortCommit is the commit's first seven hex digits (all of it when
// shorter), as git abbreviates it.
func (in Info) ShortCommit() string {
	if len(in.Commit) > 7 {
		return in.Commit[:7]
	}
	return in.Commit
}

// String is the --version line after the program's name:
// "v1.2.3 commit 3b4a4c3", "(devel) commit 3b4a4c3 (modified)", "v1.2.3",
// or "(devel)" when nothing is known.
func (in Info) String() string {
	var b strings.Builder
	b.WriteString(in.Version)
	if in.Commit != "" {
		b.WriteString(" commit ")
		b.WriteString(in.ShortCommit())
	}
	if in.Modified {
		b.WriteString(" (modified)")
	}
	return b.String()
}

// Short is one token for places that take a version without spaces (the
// reports' tool version, the MCP client version, the HTTP user agent): the
// version itself, or for a development build "devel" with the commit after
// a plus ("devel+3b4a4c3").
func (in Info) Short() string {
	if in.Version != Devel {
		return in.Version
	}
	if in.Commit != "" {
		return "devel+" + in.ShortCommit()
	}
	return "devel"
}
