package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// snapshotConfig writes a .mcp-surface.yaml with two servers of the test
// binary, each in its own mode and with its own snapshot file.
func snapshotConfig(t *testing.T, dir string) {
	t.Helper()
	cfg := fmt.Sprintf(`servers:
  - name: tracker
    command: [%q]
    env: {%s: %s}
    snapshot: snapshots/tracker.json
  - name: issues
    command: [%q]
    env: {%s: %s}
    snapshot: snapshots/issues.json
`, os.Args[0], testserver.EnvVar, testserver.ModeFull, os.Args[0], testserver.EnvVar, testserver.ModeToolsOnly)
	if err := os.MkdirAll(filepath.Join(dir, "snapshots"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".mcp-surface.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func toolCount(t *testing.T, path string) int {
	t.Helper()
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(m.Tools)
}

func TestSnapshotFollowsServersList(t *testing.T) {
	dir := t.TempDir()
	snapshotConfig(t, dir)
	t.Chdir(dir)

	r := run(t, nil, "snapshot")
	if r.code != frontend.ExitOK {
		t.Fatalf("snapshot: exit %d: %s", r.code, r.stderr)
	}
	tracker, issues := filepath.Join("snapshots", "tracker.json"), filepath.Join("snapshots", "issues.json")
	for _, p := range []string{tracker, issues} {
		if !strings.Contains(r.stderr, "wrote "+p) {
			t.Errorf("stderr does not say it wrote %s:\n%s", p, r.stderr)
		}
	}
	if full, only := toolCount(t, tracker), toolCount(t, issues); full <= only || only == 0 {
		t.Errorf("tracker has %d tools, issues %d: each server's snapshot must be its own", full, only)
	}
	if _, err := os.Stat("mcp-surface.json"); err == nil {
		t.Error("snapshot wrote mcp-surface.json although the servers name their files")
	}

	// --check compares each server with its own file.
	if r := run(t, nil, "snapshot", "--check"); r.code != frontend.ExitOK || strings.Count(r.stdout, "matches the server") != 2 {
		t.Errorf("snapshot --check: exit %d\n%s", r.code, r.stdout)
	}
	os.Remove(issues)
	if r := run(t, nil, "snapshot", "--check"); r.code != frontend.ExitFindings || !strings.Contains(r.stdout, issues+" does not exist: run `mcp-surface snapshot --server issues`") {
		t.Errorf("snapshot --check without issues.json: exit %d\n%s", r.code, r.stdout)
	}
}

func TestSnapshotOneServer(t *testing.T) {
	dir := t.TempDir()
	snapshotConfig(t, dir)
	t.Chdir(dir)

	r := run(t, nil, "snapshot", "--server", "issues")
	if r.code != frontend.ExitOK {
		t.Fatalf("snapshot --server issues: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join("snapshots", "tracker.json")); err == nil {
		t.Error("--server issues also wrote tracker's snapshot")
	}
	if toolCount(t, filepath.Join("snapshots", "issues.json")) == 0 {
		t.Error("issues.json has no tools")
	}
	// -o redirects the one server's snapshot.
	if r := run(t, nil, "snapshot", "--server", "tracker", "-o", "elsewhere.json"); r.code != frontend.ExitOK || toolCount(t, "elsewhere.json") == 0 {
		t.Errorf("--server tracker -o elsewhere.json: exit %d: %s", r.code, r.stderr)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"snapshot", "--server", "nope"}, "no such server (servers: tracker, issues)"},
		{[]string{"snapshot", "-o", "one.json"}, "-o names one file"},
		{[]string{"snapshot", "--server", "issues", "--", os.Args[0]}, "--server picks a server of the servers: list"},
	} {
		r := run(t, nil, tc.args...)
		if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, want 2 and %q:\n%s", tc.args, r.code, tc.want, r.stderr)
		}
	}
}

func TestSnapshotWithoutServers(t *testing.T) {
	t.Chdir(t.TempDir())
	if r := run(t, nil, "snapshot"); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "list servers: in .mcp-surface.yaml") {
		t.Errorf("snapshot without a command or servers: exit %d\n%s", r.code, r.stderr)
	}
	if r := run(t, nil, "snapshot", "--server", "x"); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "lists no servers") {
		t.Errorf("--server without servers: exit %d\n%s", r.code, r.stderr)
	}
}

// The report of check names the command that refreshes each server's
// snapshot: the server's own command line, or --server for the list.
func TestCheckNamesTheRefreshCommand(t *testing.T) {
	dir := t.TempDir()
	snapshotConfig(t, dir)
	t.Chdir(dir)
	if r := run(t, nil, "snapshot"); r.code != frontend.ExitOK {
		t.Fatalf("snapshot: exit %d: %s", r.code, r.stderr)
	}
	// issues' snapshot is the full surface now: its server breaks it.
	full, err := os.ReadFile(filepath.Join("snapshots", "tracker.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join("snapshots", "issues.json"), full, 0o644)

	r := run(t, offlineSchemas(t), "check", "--format", "markdown")
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "<code>mcp-surface snapshot --server issues</code>") {
		t.Errorf("check of the list: exit %d, want 1 and the refresh command of issues:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, "reason: TODO") {
		t.Errorf("check of the list: no acknowledgement lines to paste:\n%s", r.stdout)
	}

	r = run(t, append(offlineSchemas(t), serverEnvFor(testserver.ModeToolsOnly)...), append([]string{"check", "--format", "markdown", "--baseline", filepath.Join("snapshots", "tracker.json"), "--snapshot", "mine.json", "--"}, serverCmd()...)...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "<code>mcp-surface snapshot -o mine.json -- ") {
		t.Errorf("check of a command: exit %d, want 1 and the refresh command with the server's command:\n%s", r.code, r.stdout)
	}
}
