package diff

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func costFinding(t *testing.T, fx *fixture, reverse bool, rule string) finding.Finding {
	t.Helper()
	b, h := fx.base, fx.head
	if reverse {
		b, h = h, b
	}
	for _, f := range Diff(b, h, fx.opts).Findings {
		if f.Rule == rule {
			return f
		}
	}
	t.Fatalf("%s: no %s finding", fx.Path, rule)
	return finding.Finding{}
}

func fixtureNamed(t *testing.T, name string) *fixture {
	t.Helper()
	for _, fx := range loadFixtures(t) {
		if fx.Name == name {
			return fx
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

// The change finding gives the totals and the largest movers, in the
// message and in before/after, both ways.
func TestContextCostChangedFinding(t *testing.T) {
	fx := fixtureNamed(t, "context-cost-changed")
	f := costFinding(t, fx, false, rules.ContextCostChanged)
	t.Logf("%s\nbefore %s\nafter  %s", f.Message, f.Before, f.After)
	for _, want := range []string{"context cost changed from ", "tokens per session (+", "o200k_base", "largest: ", "export_notes +", "(new)", "search +"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if !strings.Contains(string(f.After), `"export_notes"`) || strings.Contains(string(f.Before), `"export_notes"`) {
		t.Errorf("a new tool is in after only: before %s, after %s", f.Before, f.After)
	}
	if f.Subject.Kind != finding.KindServer || f.Level != rules.LevelNote {
		t.Errorf("subject %v level %s, want the server at note", f.Subject, f.Level)
	}

	r := costFinding(t, fx, true, rules.ContextCostChanged)
	t.Logf("%s", r.Message)
	for _, want := range []string{"tokens per session (-", "export_notes -", "(removed)"} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("reversed message %q lacks %q", r.Message, want)
		}
	}
}

func TestContextCostIncreaseFinding(t *testing.T) {
	f := costFinding(t, fixtureNamed(t, "context-cost-increase-exceeded"), false, rules.ContextCostIncreaseExceeded)
	t.Logf("%s\nbefore %s\nafter  %s", f.Message, f.Before, f.After)
	if !strings.Contains(f.Message, "more than the allowed increase of 20 tokens") || f.Level != rules.LevelWarning {
		t.Errorf("message %q level %s", f.Message, f.Level)
	}
	p := costFinding(t, fixtureNamed(t, "context-cost-increase-percent"), false, rules.ContextCostIncreaseExceeded)
	t.Logf("%s", p.Message)
	if !strings.Contains(p.Message, "allowed increase of 10%") || !strings.Contains(p.Message, "cl100k_base") {
		t.Errorf("message %q", p.Message)
	}
}
