package diff

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A failed list is its own error, named with its side, method, page and
// error, and the diff says it is incomplete; a partial snapshot compared
// with itself still reports it (two failed captures are not "unchanged").
func TestListFailedFindings(t *testing.T) {
	fx := fixtureNamed(t, "list-failed-head-tools")
	res := Diff(fx.base, fx.head, Options{Cost: &CostOptions{}})
	if !res.Incomplete {
		t.Error("Diff of a partial head is not Incomplete")
	}
	var failed []string
	for _, f := range res.Findings {
		switch f.Rule {
		case rules.ToolRemoved, rules.ToolAdded, rules.ContextCostChanged:
			t.Errorf("a failed tools/list was compared: %s %s", f.Rule, f.Message)
		case rules.SurfaceListFailed:
			failed = append(failed, f.Message)
			if f.Level != rules.LevelError || f.Before != nil || string(f.After) != `{"code":-32603,"page":1}` {
				t.Errorf("surface-list-failed = level %s, before %s, after %s", f.Level, f.Before, f.After)
			}
		}
	}
	if len(failed) != 1 {
		t.Fatalf("surface-list-failed findings = %q, want one", failed)
	}
	for _, want := range []string{"tools/list failed at head, so no tool was compared", "head: page 1 answered with error -32603", `"backend unreachable: connect ECONNREFUSED"`} {
		if !strings.Contains(failed[0], want) {
			t.Errorf("message %q does not name %q", failed[0], want)
		}
	}
	if strings.Contains(failed[0], "base") {
		t.Errorf("message %q blames base", failed[0])
	}

	both := fixtureNamed(t, "list-failed-both")
	for _, m := range []*manifest.Manifest{both.base, both.head} {
		self := Diff(m, m, Options{})
		if len(self.Findings) != 1 || self.Findings[0].Rule != rules.SurfaceListFailed || !self.Incomplete {
			t.Errorf("Diff(partial, partial) = %s, want surface-list-failed alone", render(self.Findings))
		}
	}
	r := Diff(both.base, both.head, Options{})
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Message, "failed at base and head") ||
		!strings.Contains(r.Findings[0].Message, "base: page 1 answered with error -32603") || !strings.Contains(r.Findings[0].Message, "head: page 2 answered with error -32000") {
		t.Errorf("two failed captures = %s: %v", render(r.Findings), r.Findings)
	}
	if r.WorstSeverity != "" || r.SuggestedBump != "" {
		t.Errorf("a failed list suggests a bump: %q %q", r.WorstSeverity, r.SuggestedBump)
	}
}

// The server's message is bounded in the finding, whatever a hand-edited
// snapshot holds, and the finding's fingerprint does not depend on it.
func TestListFailedMessageBounded(t *testing.T) {
	long := &manifest.Manifest{Partial: map[string]manifest.ListFailure{"tools/list": {Page: 1, Code: -32603, Message: strings.Repeat("x", 5000)}}}
	short := &manifest.Manifest{Partial: map[string]manifest.ListFailure{"tools/list": {Page: 1, Code: -32603, Message: "down"}}}
	a, b := Diff(&manifest.Manifest{}, long, Options{}).Findings, Diff(&manifest.Manifest{}, short, Options{}).Findings
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("findings = %d, %d", len(a), len(b))
	}
	if len(a[0].Message) > 600 {
		t.Errorf("message of %d bytes", len(a[0].Message))
	}
	if a[0].Fingerprint != b[0].Fingerprint {
		t.Error("the fingerprint depends on the server's message")
	}
}
