package report

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Every rule about a description, title or instructions is a prose rule
// and every text detector a span rule, so a new rule of either kind is
// classified when it is added.
func TestProseAndSpanRules(t *testing.T) {
	for _, r := range rules.All() {
		prose := strings.Contains(r.ID, "description") || strings.Contains(r.ID, "title") || strings.Contains(r.ID, "instructions")
		if proseRules[r.ID] != prose {
			t.Errorf("%s: proseRules has %v, want %v", r.ID, proseRules[r.ID], prose)
		}
		span := strings.HasPrefix(r.ID, "text-")
		if spanRules[r.ID] != span {
			t.Errorf("%s: spanRules has %v, want %v", r.ID, spanRules[r.ID], span)
		}
	}
}
