package version

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

const rev = "3b4a4c3e1f0d2c5b6a79881726354453627180ab"

func buildInfo(mainVersion string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mcp-surface/mcp-surface", Version: mainVersion}}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

func TestFromBuild(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		stampVersion, stampCommit string
		bi                        *debug.BuildInfo
		want, short               string
	}{
		{
			name:         "release build: the stamp",
			stampVersion: "v1.2.3", stampCommit: rev,
			bi:   buildInfo("v1.2.3", "vcs.revision", rev, "vcs.modified", "false"),
			want: "v1.2.3 commit 3b4a4c3", short: "v1.2.3",
		},
		{
			name:         "stamped version, commit from the checkout",
			stampVersion: "v1", bi: buildInfo(Devel, "vcs.revision", rev, "vcs.modified", "true"),
			want: "v1 commit 3b4a4c3 (modified)", short: "v1",
		},
		{
			name:        "a stamped commit other than the recorded one ignores local changes",
			stampCommit: "ffffffffffffffffffffffffffffffffffffffff",
			bi:          buildInfo(Devel, "vcs.revision", rev, "vcs.modified", "true"),
			want:        "(devel) commit fffffff", short: "devel+fffffff",
		},
		{
			name:         "a stamp without git information",
			stampVersion: "v0.0.0-snapshot-none", stampCommit: "none",
			bi:   buildInfo(Devel),
			want: "v0.0.0-snapshot-none", short: "v0.0.0-snapshot-none",
		},
		{
			name: "go install module@version",
			bi:   buildInfo("v1.4.0"),
			want: "v1.4.0", short: "v1.4.0",
		},
		{
			name: "go build in a clean checkout",
			bi:   buildInfo(Devel, "vcs", "git", "vcs.revision", rev, "vcs.time", "2026-12-01T18:00:00Z", "vcs.modified", "false"),
			want: "(devel) commit 3b4a4c3", short: "devel+3b4a4c3",
		},
		{
			name: "go build in a modified checkout",
			bi:   buildInfo(Devel, "vcs.revision", rev, "vcs.modified", "true"),
			want: "(devel) commit 3b4a4c3 (modified)", short: "devel+3b4a4c3",
		},
		{
			name: "go build in a checkout, version from its tags (Go 1.24 and later)",
			bi:   buildInfo("v1.2.4-0.20261201180000-3b4a4c3e1f0d+dirty", "vcs.revision", rev, "vcs.modified", "true"),
			want: "v1.2.4-0.20261201180000-3b4a4c3e1f0d+dirty commit 3b4a4c3 (modified)", short: "v1.2.4-0.20261201180000-3b4a4c3e1f0d+dirty",
		},
		{
			name: "modified without a revision says nothing",
			bi:   buildInfo("", "vcs.modified", "true"),
			want: "(devel)", short: "devel",
		},
		{
			name: "no build information",
			want: "(devel)", short: "devel",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := FromBuild(tc.stampVersion, tc.stampCommit, tc.bi)
			if got := in.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if got := in.Short(); got != tc.short {
				t.Errorf("Short() = %q, want %q", got, tc.short)
			}
			if strings.ContainsAny(in.Short(), " \t\n") {
				t.Errorf("Short() = %q has a space", in.Short())
			}
		})
	}
}

// TestBinary builds the command twice, as the release does (stamped with
// -ldflags) and as a contributor does (plain go build in the checkout),
// and reads --version back. Only the link step is new work: the packages
// are in the build cache from compiling the tests.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	build := func(name string, args ...string) string {
		t.Helper()
		bin := filepath.Join(dir, name)
		cmd := exec.Command("go", append(append([]string{"build", "-o", bin}, args...), ".")...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", args, err, out)
		}
		return bin
	}
	run := func(bin string, arg string) string {
		t.Helper()
		out, err := exec.Command(bin, arg).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), arg, err, out)
		}
		return strings.TrimSpace(string(out))
	}

	const pkg = "github.com/mcp-surface/mcp-surface/internal/app/version"
	stamped := build("stamped", "-ldflags", "-X "+pkg+".version=v9.8.7 -X "+pkg+".commit="+rev)
	for _, arg := range []string{"--version", "version"} {
		if got, want := run(stamped, arg), "mcp-surface v9.8.7 commit 3b4a4c3"; got != want {
			t.Errorf("stamped %s = %q, want %q", arg, got, want)
		}
	}

	// A plain build names the checkout's commit. The toolchain records it
	// only in a clone (a .git directory), not in a linked worktree.
	if fi, err := os.Stat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
		t.Skip("not a git clone: the toolchain records no commit here")
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("git rev-parse HEAD: %v", err)
	}
	plain := build("plain", "-buildvcs=true")
	got := run(plain, "--version")
	if want := "commit " + string(head[:7]); !strings.Contains(got, want) {
		t.Errorf("plain build --version = %q, want it to name %q", got, want)
	}
	if got == "mcp-surface dev" || strings.HasSuffix(got, " (devel)") {
		t.Errorf("plain build --version = %q names no commit", got)
	}
}
