package cli

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func TestNearestFindsATypo(t *testing.T) {
	t.Parallel()
	r := rules.All()[0]
	typo := r.ID[:len(r.ID)-1] + "x"
	if got := nearestRules(typo); len(got) == 0 || got[0] != r.ID {
		t.Errorf("nearestRules(%q) = %v, want %s first", typo, got, r.ID)
	}
	if got := nearestRules("nothing-like-any-rule-at-all-zzzz"); len(got) > 3 {
		t.Errorf("more than three suggestions: %v", got)
	}
}

// Every rule that fails a run by default says what to do, in explain as
// in docs/rules.md; a rule whose help had no advice of its own gets its
// row's fix, the text of the PR comment's Fix column.
func TestExplainSaysWhatToDo(t *testing.T) {
	n := 0
	for _, r := range rules.All() {
		if r.Level != rules.LevelError {
			continue
		}
		n++
		res := run(t, nil, "explain", r.ID)
		if res.code != frontend.ExitOK || !strings.Contains(res.stdout, "\n**What to do.** ") {
			t.Errorf("explain %s (exit %d) has no \"What to do\":\n%s%s", r.ID, res.code, res.stdout, res.stderr)
		}
	}
	if n == 0 {
		t.Fatal("no error rule in the table")
	}
	r := rules.MustLookup(rules.ToolRenamed)
	if res := run(t, nil, "explain", r.ID); !strings.Contains(res.stdout, "**What to do.** "+r.Fix+".") {
		t.Errorf("explain %s does not give its row's fix %q:\n%s", r.ID, r.Fix, res.stdout)
	}
}

func TestExplainDigests(t *testing.T) {
	res := run(t, nil, "explain", "digests")
	if res.code != 0 {
		t.Errorf("explain digests: exit %d", res.code)
	}
	wantIn(t, "explain digests", res.stdout, "fingerprints.manifest", "RFC 8785", "tool definition", "Only fingerprints.manifest decides")
}
