package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/pkg/config"
)

const diffBase = `{
  "snapshotVersion": 1,
  "protocolVersion": "2025-11-25",
  "serverInfo": {"name": "demo", "version": "1.0.0"},
  "capabilities": {"tools": {}},
  "tools": [
    {"name": "get_user", "description": "Look up a user by id.",
     "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
     "annotations": {"readOnlyHint": true}},
    {"name": "legacy", "description": "Old.", "inputSchema": {"type": "object"}}
  ]
}`

const diffHead = `{
  "snapshotVersion": 1,
  "protocolVersion": "2025-11-25",
  "serverInfo": {"name": "demo", "version": "1.0.0"},
  "capabilities": {"tools": {}},
  "tools": [
    {"name": "get_user", "description": "Look up a user by numeric id.",
     "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
     "annotations": {"readOnlyHint": true}}
  ]
}`

// runCLI runs the program in-process.
func runCLI(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string { return env[k] }
	code = Run(context.Background(), args, strings.NewReader(""), &out, &errb, getenv)
	return code, out.String(), errb.String()
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDiffText(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": diffBase, "head.json": diffHead})
	t.Chdir(dir)
	code, out, stderr := runCLI(t, nil, "diff", "base.json", "head.json")
	if code != frontend.ExitFindings {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	wantIn(t, "output", out,
		"tool legacy\n  error   tool-removed\n",
		"tool get_user\n  note    tool-description-changed  /description\n",
		"…a user by {+numeric +}id.",
		"server\n  warning server-version-not-bumped  /serverInfo/version\n",
		"1 error, 1 warning, 2 notes; worst change: breaking; suggested version bump: major\n",
		"  note    context-cost-changed\n          context cost changed from 47 to 32 tokens per session (-15, -32%, o200k_base); largest: legacy -16 (removed), get_user +1\n",
	)
	if strings.Index(out, "tool legacy") > strings.Index(out, "tool get_user") {
		t.Errorf("worst subject is not first:\n%s", out)
	}
	// Deterministic to the byte.
	_, again, _ := runCLI(t, nil, "diff", "base.json", "head.json")
	if again != out {
		t.Error("two runs differ")
	}
	if _, verbose, _ := runCLI(t, nil, "diff", "--verbose", "base.json", "head.json"); verbose == out || !strings.Contains(verbose, "tool-removed") {
		t.Errorf("--verbose changes nothing:\n%s", verbose)
	}
	if code, _, _ := runCLI(t, nil, "diff", "--fail-on", "none", "base.json", "head.json"); code != frontend.ExitOK {
		t.Errorf("--fail-on none: exit %d", code)
	}
	if code, out, _ := runCLI(t, nil, "diff", "base.json", "base.json"); code != frontend.ExitOK || !strings.HasSuffix(out, "\nno findings\n") {
		t.Errorf("identical snapshots: exit %d, %q", code, out)
	}
}

func TestDiffJSON(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": diffBase, "head.json": diffHead})
	t.Chdir(dir)
	code, out, stderr := runCLI(t, nil, "diff", "--format", "json", "base.json", "head.json")
	if code != frontend.ExitFindings {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var report struct {
		Findings      []map[string]any `json:"findings"`
		Summary       map[string]any   `json:"summary"`
		ReportVersion int              `json:"reportVersion"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := report.Summary
	if report.ReportVersion != 1 || s["failed"] != true || s["failOn"] != "error" {
		t.Errorf("report = %+v", report)
	}
	if s["error"] != 1.0 || s["warning"] != 1.0 || s["note"] != 2.0 || s["info"] != 0.0 || s["worstSeverity"] != "breaking" ||
		s["suggestedBump"] != "major" || len(s["baseManifestHash"].(string)) != 64 || s["baseManifestHash"] == s["headManifestHash"] {
		t.Errorf("summary = %v", s)
	}
	var desc map[string]any
	for _, f := range report.Findings {
		for _, k := range []string{"rule", "level", "tags", "subject", "pointer", "message", "fingerprint"} {
			if _, ok := f[k]; !ok {
				t.Errorf("finding lacks %q: %v", k, f)
			}
		}
		if f["rule"] == "tool-description-changed" {
			desc = f
		}
		if loc, _ := f["location"].(map[string]any); loc["path"] != "head.json" {
			t.Errorf("location = %v", f["location"])
		}
	}
	if desc == nil || desc["textDiff"] != "…a user by {+numeric +}id." || desc["before"] != "Look up a user by id." {
		t.Errorf("description finding = %v", desc)
	}
}

func TestDiffIgnoreYAMLRoundTrip(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": diffBase, "head.json": diffHead})
	t.Chdir(dir)
	code, out, _ := runCLI(t, nil, "diff", "--format", "ignore-yaml", "base.json", "head.json")
	if code != frontend.ExitFindings {
		t.Fatalf("exit %d", code)
	}
	wantIn(t, "ignore-yaml", out, "acknowledged:\n", "  # error: tool \"legacy\" was removed: calls to it fail\n  - rule: tool-removed\n    tool: legacy\n", "reason: TODO\n")
	// Only what fails at --fail-on (error) is offered; at note, every one.
	if n := strings.Count(out, "- rule: "); n != 1 || strings.Contains(out, "# note:") || strings.Contains(out, "# warning:") {
		t.Errorf("ignore-yaml offers %d acknowledgements, want only the failing error:\n%s", n, out)
	}
	if _, all, _ := runCLI(t, nil, "diff", "--format", "ignore-yaml", "--fail-on", "note", "base.json", "head.json"); strings.Count(all, "- rule: ") != 4 {
		t.Errorf("ignore-yaml at --fail-on note:\n%s", all)
	}
	// The placeholder is refused until a reason is written.
	if err := os.WriteFile(config.DefaultFile, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, nil, "diff", "base.json", "head.json"); code != frontend.ExitFailure || !strings.Contains(stderr, "TODO placeholder") {
		t.Errorf("TODO reason accepted: exit %d, %s", code, stderr)
	}
	filled := strings.ReplaceAll(out, "reason: TODO", "reason: reviewed in the release notes")
	if err := os.WriteFile(config.DefaultFile, []byte(filled), 0o644); err != nil {
		t.Fatal(err)
	}
	code, text, stderr := runCLI(t, nil, "diff", "base.json", "head.json")
	if code != frontend.ExitOK {
		t.Fatalf("acknowledged run: exit %d, %s\n%s", code, stderr, text)
	}
	if !strings.Contains(text, "acknowledged: reviewed in the release notes") || !strings.Contains(text, "1 acknowledged") {
		t.Errorf("acknowledged findings not shown:\n%s", text)
	}
}

func TestDiffConfigExpiry(t *testing.T) {
	cfg := "acknowledged:\n  - rule: tool-removed\n    tool: legacy\n    reason: going away\n    expires: 2030-01-31\n"
	dir := writeFiles(t, map[string]string{"base.json": diffBase, "head.json": diffHead, "c.yaml": cfg})
	t.Chdir(dir)
	code, _, _ := runCLI(t, map[string]string{frontend.NowEnv: "2030-01-31"}, "diff", "--config", "c.yaml", "base.json", "head.json")
	if code != frontend.ExitOK {
		t.Errorf("before expiry: exit %d", code)
	}
	code, out, _ := runCLI(t, map[string]string{frontend.NowEnv: "2030-02-01"}, "diff", "--config", "c.yaml", "base.json", "head.json")
	if code != frontend.ExitFindings || !strings.Contains(out, "config-acknowledgement-expired") || !strings.Contains(out, "c.yaml:2: the acknowledgement of tool-removed expired on 2030-01-31") {
		t.Errorf("after expiry: exit %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, nil, "diff", "--config", "missing.yaml", "base.json", "head.json"); code != frontend.ExitFailure || !strings.Contains(stderr, "missing.yaml") {
		t.Errorf("missing config: exit %d %s", code, stderr)
	}
	bad := writeFiles(t, map[string]string{"bad.yaml": "severty: {}\n"})
	if code, _, stderr := runCLI(t, nil, "diff", "--config", filepath.Join(bad, "bad.yaml"), "base.json", "head.json"); code != frontend.ExitFailure || !strings.Contains(stderr, `bad.yaml:1: unknown key "severty" (did you mean "severity"?)`) {
		t.Errorf("bad config: exit %d %s", code, stderr)
	}
}

func TestDiffOtherFormats(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": diffBase, "head.json": diffHead})
	t.Chdir(dir)
	for format, want := range map[string]string{"sarif": `"ruleId": "tool-removed"`, "markdown": "tool-removed", "github": "::error", "junit": "<testsuites"} {
		code, out, stderr := runCLI(t, nil, "diff", "--format", format, "base.json", "head.json")
		if code != frontend.ExitFindings || !strings.Contains(out, want) {
			t.Errorf("--format %s: exit %d, stderr %s, output lacks %q:\n%s", format, code, stderr, want, out)
		}
	}
}

func TestDiffFailOnTag(t *testing.T) {
	head := strings.Replace(diffBase, `"readOnlyHint": true`, `"readOnlyHint": false`, 1)
	dir := writeFiles(t, map[string]string{"base.json": diffBase, "head.json": head})
	t.Chdir(dir)
	if code, _, _ := runCLI(t, nil, "diff", "base.json", "head.json"); code != frontend.ExitOK {
		t.Errorf("risky only, --fail-on error: exit %d", code)
	}
	if code, _, _ := runCLI(t, nil, "diff", "--fail-on-tag", "sec", "base.json", "head.json"); code != frontend.ExitFindings {
		t.Errorf("--fail-on-tag sec: exit %d", code)
	}
	if code, _, _ := runCLI(t, nil, "diff", "--fail-on", "risky", "base.json", "head.json"); code != frontend.ExitFindings {
		t.Errorf("--fail-on risky: exit %d", code)
	}
}

func TestDiffUsageErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"base.json": diffBase, "bad.json": "{"})
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "base.json"}, "need BASE and HEAD"},
		{[]string{"diff", "base.json", "nope.json"}, "nope.json"},
		{[]string{"diff", "base.json", "bad.json"}, "bad.json"},
		{[]string{"diff", "--format", "yaml", "base.json", "base.json"}, `unknown --format "yaml"`},
		{[]string{"diff", "--fail-on", "sometimes", "base.json", "base.json"}, "--fail-on"},
	} {
		code, _, stderr := runCLI(t, nil, tc.args...)
		if code != frontend.ExitFailure || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
}

func TestDiffGitRef(t *testing.T) {
	repo := gittest.New(t)
	repo.Write("mcp-surface.json", []byte(diffBase))
	repo.Commit("base")
	t.Chdir(repo.Dir)
	if err := os.WriteFile("mcp-surface.json", []byte(diffHead), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, nil, "diff", "HEAD:mcp-surface.json", "mcp-surface.json")
	if code != frontend.ExitFindings || !strings.Contains(out, "tool-removed") {
		t.Errorf("exit %d, stderr %s\n%s", code, stderr, out)
	}
	code, _, stderr = runCLI(t, nil, "diff", "nosuchref:mcp-surface.json", "mcp-surface.json")
	if code != frontend.ExitFailure || !strings.Contains(stderr, "nosuchref is not a commit") {
		t.Errorf("bad ref: exit %d, %s", code, stderr)
	}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, nil, "explain", "tool-removed")
	if code != frontend.ExitOK || !strings.Contains(out, "tool-removed\n  kind:      change\n  severity:  breaking (level error)\n  direction: surface\n  tags:      wire\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
	code, _, stderr := runCLI(t, nil, "explain", "tool-remove")
	if code != frontend.ExitFailure || !strings.Contains(stderr, `unknown rule "tool-remove"; did you mean tool-removed`) {
		t.Errorf("unknown rule: exit %d %s", code, stderr)
	}
	code, out, _ = runCLI(t, nil, "explain", "--list")
	if code != frontend.ExitOK || !strings.Contains(out, "tool-removed ") || !strings.Contains(out, "text-url-added ") {
		t.Errorf("--list: exit %d", code)
	}
	code, out, _ = runCLI(t, nil, "explain", "--format", "json", "text-url-added")
	var doc map[string]any
	if code != frontend.ExitOK || json.Unmarshal([]byte(out), &doc) != nil || doc["severity"] != "minor" {
		t.Errorf("json: exit %d %s", code, out)
	}
	if code, _, _ := runCLI(t, nil, "explain"); code != frontend.ExitFailure {
		t.Errorf("no rule: exit %d", code)
	}
}
