package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// cost counts a live server and a snapshot of it alike, in every format;
// a budget it exceeds is reported and fails the command only at or above
// --fail-on.
func TestCost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	snap := snapshotFile(t, dir, testserver.ModeFull)

	live := run(t, serverEnvFor(testserver.ModeFull), append([]string{"cost", "--format", "json", "--"}, serverCmd()...)...)
	file := run(t, nil, "cost", "--format", "json", snap)
	if live.code != 0 || file.code != 0 {
		t.Fatalf("exit %d and %d\n%s\n%s", live.code, file.code, live.stderr, file.stderr)
	}
	if live.stdout != file.stdout {
		t.Errorf("live and snapshot counts differ:\n%s\n%s", live.stdout, file.stdout)
	}
	var table struct {
		Encoding string
		Total    int
		Tools    []struct {
			Name   string
			Tokens int
		}
	}
	if err := json.Unmarshal([]byte(file.stdout), &table); err != nil {
		t.Fatalf("json: %v\n%s", err, file.stdout)
	}
	sum := 0
	for i, tl := range table.Tools {
		sum += tl.Tokens
		if tl.Tokens <= 0 || (i > 0 && tl.Tokens > table.Tools[i-1].Tokens) {
			t.Errorf("tool %d %q: %d tokens, not positive or not largest first", i, tl.Name, tl.Tokens)
		}
	}
	if table.Encoding != "o200k_base" || len(table.Tools) == 0 || sum > table.Total {
		t.Errorf("table = %+v", table)
	}

	if r := run(t, nil, "cost", "--encoding", "cl100k_base", snap); r.code != 0 || !strings.Contains(r.stdout, "cl100k_base") {
		t.Errorf("--encoding cl100k_base: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	cfg := filepath.Join(dir, "budget.yaml")
	if err := os.WriteFile(cfg, []byte("cost:\n  budget:\n    total: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	warn := run(t, nil, "cost", "--config", cfg, snap)
	if warn.code != 0 || !strings.Contains(warn.stderr, "context-budget-exceeded") {
		t.Errorf("a warning under --fail-on error: exit %d, stderr:\n%s", warn.code, warn.stderr)
	}
	if r := run(t, nil, "cost", "--config", cfg, "--fail-on", "warning", snap); r.code != 1 {
		t.Errorf("--fail-on warning: exit %d, want 1\n%s", r.code, r.stderr)
	}

	for _, bad := range [][]string{
		{"cost"},
		{"cost", "--format", "sarif", snap},
		{"cost", "--encoding", "p50k", snap},
		{"cost", filepath.Join(dir, "missing.json")},
	} {
		if r := run(t, nil, bad...); r.code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", bad, r.code, r.stderr)
		}
	}
}

// cost --help lists the formats it renders, and each one it lists works.
func TestCostHelpFormats(t *testing.T) {
	snap := snapshotFile(t, t.TempDir(), testserver.ModeToolsOnly)
	help := run(t, nil, "cost", "--help")
	_, line, ok := strings.Cut(help.stdout+help.stderr, "output format: ")
	if !ok {
		t.Fatalf("cost --help names no formats:\n%s", help.stdout+help.stderr)
	}
	line, _, _ = strings.Cut(line, " ")
	formats := strings.Split(line, "|")
	if len(formats) < 2 {
		t.Fatalf("formats %q", line)
	}
	for _, f := range formats {
		if r := run(t, nil, "cost", "--format", f, snap); r.code != 0 {
			t.Errorf("cost --help offers %q, which fails: exit %d %s", f, r.code, r.stderr)
		}
	}
}
