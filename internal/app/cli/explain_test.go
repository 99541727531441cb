package cli

import (
	"testing"

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
