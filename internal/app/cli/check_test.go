package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// serverArgs is the server command: the mode comes from the checkout.
func serverArgs() []string {
	return []string{"--shell", "--", "MCP_SURFACE_TESTSERVER=$(cat mode.txt) exec " + os.Args[0]}
}

// modeRepo makes a repository for a server of serverArgs, which serves
// the mode mode.txt names, and runs the test in it: a base commit in
// baseMode, holding that mode's snapshot when withSnapshot, then, unless
// headMode is "", a head commit in headMode. It returns the repository
// and the base commit.
func modeRepo(t *testing.T, baseMode string, withSnapshot bool, headMode string) (*gittest.Repo, string) {
	t.Helper()
	repo := gittest.New(t)
	repo.Write("mode.txt", []byte(baseMode+"\n"))
	if withSnapshot {
		repo.Write("mcp-surface.json", []byte(snapshotOf(t, baseMode)))
	}
	base := repo.Commit("base")
	if headMode != "" {
		repo.Write("mode.txt", []byte(headMode+"\n"))
		repo.Commit("head")
	}
	t.Chdir(repo.Dir)
	return repo, base
}

// snapshotOf captures the given mode and returns the snapshot file bytes.
func snapshotOf(t *testing.T, mode string) string {
	t.Helper()
	return captureOK(t, mode).stdout
}

func checkJSON(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	r := run(t, nil, append([]string{"check", "--format", "json", "--schema-dir", spectest.SchemaDir(t)}, args...)...)
	var doc map[string]any
	if r.code != frontend.ExitFailure {
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("check output is not JSON: %v\n%s\n%s", err, r.stdout, r.stderr)
		}
	}
	return r.code, doc, r.stderr
}

func rulesIn(doc map[string]any) map[string]int {
	out := map[string]int{}
	fs, _ := doc["findings"].([]any)
	for _, f := range fs {
		m, _ := f.(map[string]any)
		rule, _ := m["rule"].(string)
		out[rule]++
	}
	return out
}

func TestCheckAgainstTheSnapshotAtTheBase(t *testing.T) {
	// The head removes tools but forgets to refresh the snapshot.
	_, base := modeRepo(t, testserver.ModeFull, true, testserver.ModeToolsOnly)

	code, doc, stderr := checkJSON(t, append([]string{"--base-ref", base}, serverArgs()...)...)
	if code != frontend.ExitFindings {
		t.Fatalf("exit %d, want 1 (tools were removed):\n%s", code, stderr)
	}
	got := rulesIn(doc)
	for _, want := range []string{"tool-removed", "prompt-removed", "capability-prompts-removed", "snapshot-out-of-date"} {
		if got[want] == 0 {
			t.Errorf("no %s finding; got %v", want, got)
		}
	}
	if strings.Contains(stderr, "worktree") {
		t.Errorf("the committed snapshot at the base should have been read, not built: %s", stderr)
	}
	// Same input, same bytes.
	_, doc2, _ := checkJSON(t, append([]string{"--base-ref", base}, serverArgs()...)...)
	a, _ := json.Marshal(doc)
	b, _ := json.Marshal(doc2)
	if string(a) != string(b) {
		t.Errorf("two runs of check differ")
	}
}

func TestCheckBuildsTheBaseWhenItHasNoSnapshot(t *testing.T) {
	// The head adds prompts and resources to a base without a snapshot.
	repo, base := modeRepo(t, testserver.ModeToolsOnly, false, testserver.ModeFull)

	code, doc, stderr := checkJSON(t, append([]string{"--base-ref", base, "--build", "test -f mode.txt"}, serverArgs()...)...)
	if code != frontend.ExitOK {
		t.Fatalf("exit %d, want 0 (only additions):\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "temporary worktree") {
		t.Errorf("the base was not built in a worktree: %s", stderr)
	}
	if got := rulesIn(doc); got["tool-added"] == 0 || got["prompt-added"] == 0 || got["tool-removed"] != 0 {
		t.Errorf("findings %v, want additions only", got)
	}
	if out := repo.Git("worktree", "list"); strings.Count(out, "\n") != 0 {
		t.Errorf("temporary worktree left behind:\n%s", out)
	}
}

func TestCheckWithoutBaseline(t *testing.T) {
	modeRepo(t, testserver.ModeFull, false, "")
	code, doc, stderr := checkJSON(t, serverArgs()...)
	if code != frontend.ExitOK {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if got := rulesIn(doc); got["tool-added"] != 0 {
		t.Errorf("changes reported without a baseline: %v", got)
	}
	// A baseline file compares with it.
	path := filepath.Join(t.TempDir(), "old.json")
	os.WriteFile(path, []byte(snapshotOf(t, "tools-only")), 0o644)
	code, doc, _ = checkJSON(t, append([]string{"--baseline", path}, serverArgs()...)...)
	if code != frontend.ExitOK || rulesIn(doc)["tool-added"] == 0 {
		t.Errorf("--baseline FILE: exit %d, findings %v", code, rulesIn(doc))
	}
	if _, err := manifest.ReadFile(path); err != nil {
		t.Fatal(err)
	}
}

func TestCheckWritesEveryOutput(t *testing.T) {
	modeRepo(t, testserver.ModeFull, false, "")
	out := t.TempDir()
	args := append([]string{"check", "--schema-dir", spectest.SchemaDir(t), "--format", "sarif", "--output", filepath.Join(out, "r.sarif"),
		"--format", "markdown", "--output", filepath.Join(out, "r.md"), "--output", "junit=" + filepath.Join(out, "r.xml")}, serverArgs()...)
	r := runOK(t, nil, args...)
	for name, want := range map[string]string{"r.sarif": `"version": "2.1.0"`, "r.md": "<!-- mcp-surface:report", "r.xml": "<testsuites"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !strings.Contains(string(data), want) {
			t.Errorf("%s: %v, want it to contain %q", name, err, want)
		}
	}
	if !strings.HasPrefix(r.stdout, "<!-- mcp-surface:report") {
		t.Errorf("stdout is not in the last --format (markdown): %.80s", r.stdout)
	}
}

// --jobs 1 and --jobs 4 print the same bytes: the report on stdout, the
// progress lines and the build output on stderr, in every format.
func TestCheckJobsGiveTheSameBytes(t *testing.T) {
	// The head removes prompts from a base without a snapshot.
	_, base := modeRepo(t, testserver.ModeFull, false, testserver.ModeToolsOnly)
	for _, format := range []string{"json", "markdown", "text"} {
		var want result
		for _, jobs := range []string{"1", "4"} {
			r := run(t, nil, append([]string{"check", "--format", format, "--schema-dir", spectest.SchemaDir(t),
				"--jobs", jobs, "--base-ref", base, "--build", "echo building; cat mode.txt"}, serverArgs()...)...)
			if r.code != frontend.ExitFindings {
				t.Fatalf("--jobs %s: exit %d, want 1 (prompts removed):\n%s", jobs, r.code, r.stderr)
			}
			if jobs == "1" {
				want = r
				continue
			}
			if r.stdout != want.stdout {
				t.Errorf("--format %s: --jobs 4 printed another report than --jobs 1:\n%s\nwant:\n%s", format, r.stdout, want.stdout)
			}
			if r.stderr != want.stderr {
				t.Errorf("--format %s: --jobs 4 printed another stderr than --jobs 1:\n%s\nwant:\n%s", format, r.stderr, want.stderr)
			}
		}
		head, base := strings.Index(want.stderr, "\nbuilding\ntools-only\n"), strings.Index(want.stderr, "\nbuilding\nfull\n")
		if head < 0 || base < head {
			t.Errorf("stderr %q: want the head's build output, then the base's", want.stderr)
		}
	}
	if r := run(t, nil, "check", "--jobs", "-1", "--", "true"); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "--jobs -1") {
		t.Errorf("--jobs -1: exit %d, stderr %q; want a usage error naming it", r.code, r.stderr)
	}
}

// Offline, check needs only the schema of the revision the server
// negotiated, not every published one.
func TestCheckOfflineNeedsOnlyTheNegotiatedSchema(t *testing.T) {
	one := t.TempDir()
	rev := capture.LatestRevision
	data, err := os.ReadFile(filepath.Join(spectest.SchemaDir(t), rev, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(one, rev), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(one, rev, "schema.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(serverEnvFor(testserver.ModeFull), "RUNNER_TOOL_CACHE="+t.TempDir(), frontend.SchemaDirEnv+"=")
	args := append([]string{"check", "--no-download", "--schema-dir", one, "--baseline", "none", "--fail-on", "none", "--"}, serverCmd()...)
	if r := run(t, env, args...); r.code != frontend.ExitOK {
		t.Errorf("exit %d, want the check done with the one schema it needs:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
