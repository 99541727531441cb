package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
)

// mcpSurfaceIn runs the binary in dir, the repository root of a check.
func mcpSurfaceIn(t *testing.T, dir string, args ...string) run {
	t.Helper()
	return runBinary(t, dir, nil, args...)
}

// The real upgrade of server-filesystem from 2026.7.4 to 2026.7.10: one
// change (openWorldHint withdrawn) repeats across all 14 tools while
// read_media_file changes on its own. Every machine output has one
// finding per (tool, change), the comment's headline counts the tools
// that break, and the advice fits the pull request: a PR that forgot to
// refresh its snapshot is told so on a line of its own (never "spec or
// lint"), one that refreshed hears no word of refreshing. Capturing these
// servers, which fall back from server/discover to initialize, prints no
// warning.
func TestRealUpgradeOneFindingPerTool(t *testing.T) {
	requireNode(t)
	repo, root := t.TempDir(), t.TempDir()
	server := func(alias string) []string {
		return []string{"--", "node", aliasEntry(alias, "filesystem"), root}
	}
	oldServer, newServer := server("filesystem-2026.7.4"), server("filesystem-2026.7.10")
	capture := func(file string, srv []string) {
		t.Helper()
		r := mcpSurfaceIn(t, repo, append([]string{"capture", "-o", file}, srv...)...)
		if r.code != 0 {
			t.Fatalf("capture: exit %d: %s", r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "warning:") || !strings.Contains(r.stderr, "info: the server did not accept server/discover") {
			t.Errorf("capture's stderr, for a server that falls back to initialize: %q", r.stderr)
		}
	}
	capture("base.json", oldServer)
	capture("mcp-surface.json", oldServer) // the PR forgot to refresh it
	check := func(format string) string {
		t.Helper()
		r := mcpSurfaceIn(t, repo, append([]string{"check", "--schema-dir", spectest.SchemaDir(t), "--baseline", "base.json", "--format", format}, newServer...)...)
		if r.code != 1 {
			t.Fatalf("check --format %s: exit %d, want 1: %s", format, r.code, r.stderr)
		}
		return r.stdout
	}

	var rep struct {
		Findings []struct {
			Rule     string
			Level    string
			Category string
			Subject  struct{ Kind, Name string }
			Subjects json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(check("json")), &rep); err != nil {
		t.Fatal(err)
	}
	const shared = "tool-annotation-open-world-hint-disabled"
	perTool := map[string]int{}
	breaking := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Subjects != nil {
			t.Errorf("finding %s carries subjects: %s", f.Rule, f.Subjects)
		}
		if f.Rule == shared {
			if f.Subject.Kind != "tool" {
				t.Errorf("the shared change is reported on %s %q", f.Subject.Kind, f.Subject.Name)
			}
			perTool[f.Subject.Name]++
		}
		if f.Category == "change" && f.Level == "error" && f.Subject.Kind == "tool" {
			breaking[f.Subject.Name] = true
		}
	}
	if len(perTool) != 14 {
		t.Errorf("%s: %d tools, want one finding for each of the 14: %v", shared, len(perTool), perTool)
	}
	for name, n := range perTool {
		if n != 1 {
			t.Errorf("%s: %d findings on tool %s", shared, n, name)
		}
	}

	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					Logical []struct {
						FullyQualifiedName string `json:"fullyQualifiedName"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(check("sarif")), &sarif); err != nil {
		t.Fatal(err)
	}
	located := map[string]bool{}
	for _, res := range sarif.Runs[0].Results {
		if res.RuleID != shared {
			continue
		}
		if len(res.Locations) != 1 || len(res.Locations[0].Logical) != 1 {
			t.Errorf("a %s result is not located at one tool: %+v", shared, res.Locations)
			continue
		}
		located[res.Locations[0].Logical[0].FullyQualifiedName] = true
	}
	if len(located) != 14 {
		t.Errorf("SARIF: %s results at %d tools, want one at each of the 14: %v", shared, len(located), located)
	}

	md := check("markdown")
	headline := strings.SplitN(md, "\n", 3)[1]
	noun := "tools break"
	if len(breaking) == 1 {
		noun = "tool breaks"
	}
	if want := fmt.Sprintf("### ❌ %d %s existing clients", len(breaking), noun); !strings.HasPrefix(headline, want) {
		t.Errorf("headline %q, want it to start %q (the tools with an error)", headline, want)
	}
	if strings.Contains(headline, "spec or lint") || !strings.Contains(headline, "is out of date") {
		t.Errorf("forgot to refresh: headline %q", headline)
	}
	if !strings.Contains(md, "in **14 tools**") || !strings.Contains(md, "refresh the snapshot and commit it") {
		t.Errorf("the comment does not show the shared change once, or does not offer the refresh:\n%s", md)
	}

	// The PR refreshes its snapshot: no word of refreshing.
	if err := os.Remove(filepath.Join(repo, "mcp-surface.json")); err != nil {
		t.Fatal(err)
	}
	capture("mcp-surface.json", newServer)
	md = check("markdown")
	if strings.Contains(strings.ToLower(md), "refresh") || strings.Contains(md, "out of date") {
		t.Errorf("the pull request refreshed its snapshot, yet the comment says:\n%s", md)
	}
}
