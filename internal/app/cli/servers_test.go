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

// threeNames are the servers of threeServersConfig, in its order.
var threeNames = []string{"alpha", "beta", "gamma"}

// serversConfig writes a .mcp-surface.yaml whose servers are the test
// binary, named names and in the modes of the same index, each with its
// own snapshot file snapshots/NAME.json and, when env is given, that
// environment entry too.
func serversConfig(t *testing.T, dir string, names []string, modes []string, env string) {
	t.Helper()
	var cfg strings.Builder
	cfg.WriteString("servers:\n")
	for i, name := range names {
		fmt.Fprintf(&cfg, "  - name: %s\n    command: [%q]\n    snapshot: snapshots/%s.json\n    env:\n      %s: %s\n",
			name, os.Args[0], name, testserver.EnvVar, modes[i])
		if k, v, ok := strings.Cut(env, "="); ok {
			fmt.Fprintf(&cfg, "      %s: %q\n", k, v)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "snapshots"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".mcp-surface.yaml"), []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// threeServersConfig is serversConfig of threeNames.
func threeServersConfig(t *testing.T, dir string, modes [3]string, env string) {
	t.Helper()
	serversConfig(t, dir, threeNames, modes[:], env)
}

// inTwoServersDir runs the test in a new directory whose configuration
// has two servers (serversConfig): tracker, the full surface, and
// issues, the tools only.
func inTwoServersDir(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	serversConfig(t, dir, []string{"tracker", "issues"}, []string{testserver.ModeFull, testserver.ModeToolsOnly}, "")
	t.Chdir(dir)
}

func toolCount(t *testing.T, path string) int {
	t.Helper()
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(m.Tools)
}

// snapshotFiles is the content of every snapshot file threeServersConfig
// names ("" for one that does not exist).
func snapshotFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, name := range threeNames {
		b, err := os.ReadFile(filepath.Join(dir, "snapshots", name+".json"))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

var threeModes = [3]string{testserver.ModeFull, testserver.ModeToolsOnly, testserver.ModeFull}

// Three servers validated at once print what one at a time prints,
// byte for byte, each section named after its server.
func TestValidateJobsDoNotChangeTheOutput(t *testing.T) {
	env := offlineSchemas(t)
	dir := t.TempDir()
	threeServersConfig(t, dir, threeModes, "")
	t.Chdir(dir)
	for _, format := range []string{"text", "json"} {
		var runs []result
		for _, jobs := range []string{"1", "3"} {
			r := run(t, env, "validate", "--format", format, "--jobs", jobs)
			if r.code != frontend.ExitOK && r.code != frontend.ExitFindings {
				t.Fatalf("validate --jobs %s: exit %d\n%s", jobs, r.code, r.stderr)
			}
			runs = append(runs, r)
		}
		if runs[0] != runs[1] {
			t.Errorf("--format %s: --jobs 3 printed another output than --jobs 1:\n%+v\nwant:\n%+v", format, runs[1], runs[0])
		}
		for _, name := range threeNames {
			if !strings.Contains(runs[1].stdout, name) {
				t.Errorf("--format %s: the report does not name %s:\n%s", format, name, runs[1].stdout)
			}
		}
	}
	// One of them, by name: its section only.
	r := run(t, env, "validate", "--server", "beta", "--format", "json")
	if (r.code != frontend.ExitOK && r.code != frontend.ExitFindings) || strings.Contains(r.stdout, "alpha") {
		t.Errorf("validate --server beta: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, env, "validate", "--jobs", "-2"); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "--jobs -2") {
		t.Errorf("--jobs -2: exit %d, %s", r.code, r.stderr)
	}
}

// Three servers snapshotted at once write the files, and print the lines,
// of a run one at a time; so does --check.
func TestSnapshotJobsDoNotChangeTheOutput(t *testing.T) {
	dir := t.TempDir()
	threeServersConfig(t, dir, threeModes, "")
	t.Chdir(dir)
	var runs, checks []result
	var files [][]string
	for _, jobs := range []string{"1", "3"} {
		if err := os.RemoveAll("snapshots"); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir("snapshots", 0o755); err != nil {
			t.Fatal(err)
		}
		r := runOK(t, nil, "snapshot", "--jobs", jobs)
		runs = append(runs, r)
		files = append(files, snapshotFiles(t, dir))
		// beta's file now differs from its server.
		if err := os.WriteFile(filepath.Join("snapshots", "beta.json"), []byte(files[0][0]), 0o644); err != nil {
			t.Fatal(err)
		}
		checks = append(checks, run(t, nil, "snapshot", "--check", "--jobs", jobs))
	}
	if runs[0] != runs[1] {
		t.Errorf("--jobs 3 printed another output than --jobs 1:\n%+v\nwant:\n%+v", runs[1], runs[0])
	}
	for i, name := range threeNames {
		if files[0][i] == "" || files[0][i] != files[1][i] {
			t.Errorf("snapshots/%s.json differs with --jobs 3 (or is missing):\n%s\n---\n%s", name, files[0][i], files[1][i])
		}
		if !strings.Contains(runs[1].stderr, "wrote "+filepath.Join("snapshots", name+".json")) {
			t.Errorf("stderr does not say it wrote %s:\n%s", name, runs[1].stderr)
		}
	}
	if checks[0] != checks[1] || checks[1].code != frontend.ExitFindings || !strings.Contains(checks[1].stdout, "beta.json is out of date") {
		t.Errorf("snapshot --check: --jobs 3 gave\n%+v\nwant (exit 1, beta drifted):\n%+v", checks[1], checks[0])
	}
}

// Three servers of the configuration probed at once report what one at a
// time reports, byte for byte, and write the same pins.
func TestProbeJobsDoNotChangeTheOutput(t *testing.T) {
	env := offlineSchemas(t)
	dir := t.TempDir()
	var cfg strings.Builder
	cfg.WriteString("servers:\n")
	for _, name := range threeNames {
		fmt.Fprintf(&cfg, "  - name: %s\n    command: [%q]\n    snapshot: %s/mcp-surface.json\n    env: {%s: %s}\n",
			name, os.Args[0], name, testserver.EnvVar, testserver.ModeProbes)
		cfg.WriteString("    probes:\n      - {id: echo, method: tools/call, name: echo, arguments: {message: hi}, pin: shape}\n")
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".mcp-surface.yaml"), []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var runs []result
	var pins []string
	for _, jobs := range []string{"1", "3"} {
		r := runOK(t, env, "probe", "--update", "--format", "json", "--jobs", jobs)
		runs = append(runs, r)
		var all strings.Builder
		for _, name := range threeNames {
			entries, err := os.ReadDir(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(name, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&all, "%s/%s\n%s", name, e.Name(), b)
			}
			if err := os.RemoveAll(name); err != nil || os.Mkdir(name, 0o755) != nil {
				t.Fatal(err)
			}
		}
		pins = append(pins, all.String())
	}
	if runs[0] != runs[1] {
		t.Errorf("--jobs 3 printed another output than --jobs 1:\n%+v\nwant:\n%+v", runs[1], runs[0])
	}
	if pins[0] != pins[1] || !strings.Contains(pins[1], "alpha/") || !strings.Contains(pins[1], "gamma/") {
		t.Errorf("pins differ with --jobs 3 (or are missing):\n%s\n---\n%s", pins[0], pins[1])
	}
	for _, name := range threeNames {
		if !strings.Contains(runs[1].stdout, `"`+name) {
			t.Errorf("the report does not name %s:\n%s", name, runs[1].stdout)
		}
	}
	if r := run(t, env, "probe", "--call", "echo"); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "choose it with --server") {
		t.Errorf("--call with three servers: exit %d, %s", r.code, r.stderr)
	}
}

func TestSnapshotFollowsServersList(t *testing.T) {
	inTwoServersDir(t)

	r := runOK(t, nil, "snapshot")
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
	inTwoServersDir(t)

	runOK(t, nil, "snapshot", "--server", "issues")
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
	inTwoServersDir(t)
	runOK(t, nil, "snapshot")
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
