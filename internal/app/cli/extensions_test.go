package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// The extensions end to end, over stdio with the test server's skills and
// groups (go-sdk custom methods; the extension logic is the test
// server's, written from the documents): capture writes two skills (one
// with three files) read over two pages, and groups over two pages with
// a nested group and scoped tools; against the changed server, a skill
// file's digest, a removed scoped tool, a tool moved from tools/list into
// a group and a SKILL.md that gains an instruction to read ~/.ssh are
// each reported at their level, in the PR comment and in SARIF.
func TestExtensionsEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	snap := func(mode string) string {
		path := filepath.Join(dir, mode+".json")
		captureOK(t, mode, "--flat-view", "-o", path)
		return path
	}
	base, head := snap(testserver.ModeExtensions), snap(testserver.ModeExtensionsChanged)

	m, err := manifest.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	x := m.Ext
	if x == nil || len(x.Skills) != 2 || len(x.Groups) != 3 {
		t.Fatalf("snapshot extensions: %+v", x)
	}
	pdf, _ := x.Skill("skill://pdf-processing/SKILL.md")
	var files []json.RawMessage
	if err := json.Unmarshal(pdf.Resources, &files); err != nil || len(files) != 3 || !pdf.HasText {
		t.Errorf("pdf-processing: %d files, SKILL.md read %v", len(files), pdf.HasText)
	}
	if triage, ok := x.Group("triage"); !ok || len(triage.Tools) != 1 || len(triage.Parents) != 1 {
		t.Errorf("nested group triage: %+v", triage)
	}
	if len(m.Tools) != 2 || len(x.Flat[manifest.ListTools]) != 6 {
		t.Errorf("tools/list holds %d tools for a client with groups, %d without; want 2 and 6", len(m.Tools), len(x.Flat[manifest.ListTools]))
	}

	want := map[string]string{ // rule: SARIF level
		"skill-file-changed":             "warning",
		"group-item-removed":             "error",
		"tool-moved-into-group":          "error",
		"text-sensitive-reference-added": "",
		"skill-text-changed":             "",
	}
	r := run(t, nil, "diff", "--format", "markdown", base, head)
	if r.code == frontend.ExitOK {
		t.Errorf("diff with breaking changes exited 0")
	}
	for rule := range want {
		if !strings.Contains(r.stdout, rule) {
			t.Errorf("the PR comment lacks %s:\n%s", rule, r.stdout)
		}
	}
	for _, s := range []string{"label_issue", "create_issue", "FORMS.md"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("the PR comment does not name %s", s)
		}
	}
	r = run(t, nil, "diff", "--format", "sarif", base, head)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, r.stdout)
	}
	got := map[string]string{}
	for _, res := range log.Runs[0].Results {
		got[res.RuleID] = res.Level
	}
	for rule, level := range want {
		l, ok := got[rule]
		switch {
		case !ok:
			t.Errorf("SARIF lacks %s (has %v)", rule, got)
		case level != "" && l != level:
			t.Errorf("SARIF: %s at level %q, want %q", rule, l, level)
		}
	}
	if _, ok := got["tool-removed"]; ok {
		t.Errorf("the tool that moved into a group is also reported removed")
	}
}

// A server declaring an extension mcp-surface does not know: the
// capture records it and says it was not captured.
func TestExtensionUnknownSaidUncaptured(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.json")
	r := captureOK(t, testserver.ModeExtensionsUnknown, "-o", path)
	if !strings.Contains(r.stderr, "com.example/widgets") || !strings.Contains(r.stderr, "not captured") {
		t.Errorf("stderr does not say com.example/widgets is not captured:\n%s", r.stderr)
	}
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Ext == nil || len(m.Ext.Uncaptured) != 1 || m.Ext.Uncaptured[0] != "com.example/widgets" {
		t.Errorf("snapshot uncaptured = %+v", m.Ext)
	}
}

// A failed skills/list or groups/get is never an empty list: exit 2,
// naming it, and no snapshot.
func TestExtensionFailuresExit2(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for mode, method := range map[string]string{testserver.ModeSkillsListFails: "skills/list", testserver.ModeGroupsGetFails: "groups/get"} {
		out := filepath.Join(dir, mode+".json")
		r := run(t, serverEnvFor(mode), captureArgs("-o", out)...)
		if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, method) || !strings.Contains(r.stderr, "incomplete") {
			t.Errorf("%s: exit %d, want 2 naming %s:\n%s", mode, r.code, method, r.stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a snapshot was written", mode)
		}
	}
}

// lock --check reports the same changes of a consumer's locked server.
func TestExtensionsLockCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, _ := json.Marshal(os.Args[0])
	// One configuration entry; the server it runs changes underneath (the
	// mode comes from the environment the configuration reads).
	text := `{"mcpServers": {"tracker": {"command": ` + string(bin) + `, "env": {"` + testserver.EnvVar + `": "${TRACKER_MODE}"}}}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, []string{"TRACKER_MODE=" + testserver.ModeExtensions}, "lock", "--root", dir)
	r := run(t, []string{"TRACKER_MODE=" + testserver.ModeExtensionsChanged}, "lock", "--root", dir, "--check")
	if r.code == 0 {
		t.Fatalf("lock --check of the changed server exited 0:\n%s", r.stdout)
	}
	for _, want := range []string{"skill-file-changed", "group-item-removed", "tool-moved-into-group", "text-sensitive-reference-added"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lock --check lacks %s:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
}
