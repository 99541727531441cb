package rulesdoc

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md (as go generate ./internal/app/rulesdoc does)")

// committedPage is docs/rules.md as committed.
func committedPage(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedtest.Root(t), filepath.FromSlash(Path)))
	if err != nil {
		t.Fatalf("%v (run go generate ./internal/app/rulesdoc)", err)
	}
	return string(data)
}

func TestPageIsCurrent(t *testing.T) {
	root := sharedtest.Root(t)
	got, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(Path)), got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(committedPage(t), string(got)); d != "" {
		t.Errorf("%s is stale: run go generate ./internal/app/rulesdoc (-committed +generated):\n%s", Path, d)
	}
	// GitHub renders a markdown file of up to about 2 MB; stay well under.
	if len(got) > 1<<20 {
		t.Errorf("%s is %d bytes: GitHub may not render it (and its anchors) past about 2 MB", Path, len(got))
	}
	again, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(got) {
		t.Error("two generations differ")
	}
}

// Every rule has its heading, in the order of the contents, and the help
// `mcp-surface explain` prints.
func TestPageHasEveryRule(t *testing.T) {
	page := committedPage(t)
	have := anchors(page)
	for _, r := range rules.All() {
		if !slices.Contains(have, r.ID) {
			t.Errorf("%s: no heading with anchor #%s", r.ID, r.ID)
		}
		if !strings.Contains(page, "\n### "+r.ID+"\n") {
			t.Errorf("%s: no heading ### %s", r.ID, r.ID)
		}
		if !strings.Contains(page, strings.TrimSpace(r.Help)) {
			t.Errorf("%s: the help text is not on the page", r.ID)
		}
		if strings.Contains("\n"+r.Help, "\n#") {
			t.Errorf("%s: the help has a heading line, which would add an anchor and break the page's structure", r.ID)
		}
	}
}

func TestExamplesAreRealFixtures(t *testing.T) {
	root := sharedtest.Root(t)
	ex, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rules.All() {
		e, ok := ex[r.ID]
		if !ok || r.Kind != rules.KindChange {
			continue
		}
		n++
		if !slices.Contains(ruleIDs(e.Findings), r.ID) {
			t.Errorf("%s: the example from %s does not report it", r.ID, e.Fixture)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(e.Fixture))); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
	}
	if n == 0 {
		t.Fatal("no change rule has an example")
	}
	t.Logf("%d change rules have an example", n)
}

func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"tool-removed":                 "tool-removed",
		"Tool input schemas":           "tool-input-schemas",
		"SARIF output":                 "sarif-output",
		"Fork pull requests":           "fork-pull-requests",
		"`forbidden`":                  "forbidden",
		"Inputs & outputs (v1.2)":      "inputs--outputs-v12",
		"snake_case and Ünïcödé":       "snake_case-and-ünïcödé",
		"What to do? Keep it: yes!":    "what-to-do-keep-it-yes",
		"mcp-surface-report-truncated": "mcp-surface-report-truncated",
	} {
		if got := anchor(heading); got != want {
			t.Errorf("anchor(%q) = %q, want %q", heading, got, want)
		}
	}
	md := "# A\n\n```\n# not a heading\n```\n\n## A\n### B ###\n    # indented code\n#nospace\n"
	if d := cmp.Diff([]string{"a", "a-1", "b"}, anchors(md)); d != "" {
		t.Errorf("anchors (-want +got):\n%s", d)
	}
}
