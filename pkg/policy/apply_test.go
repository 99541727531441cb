package policy

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// Apply is Adjust then Acknowledge: levels change, off rules go, matching
// findings are acknowledged, expired entries add a finding, and the
// caller's slice is left alone.
func TestPolicyApply(t *testing.T) {
	src := `severity:
  tool-description-changed: breaking
  tool-added: off
acknowledged:
  - rule: tool-removed
    tool: legacy_*
    reason: legacy tools go
  - rule: tool-title-changed
    reason: old
    expires: 2020-01-01
`
	c, err := config.Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	in := []finding.Finding{
		mk("tool-description-changed", finding.KindTool, "t", "/description"),
		mk("tool-added", finding.KindTool, "new", ""),
		mk("tool-removed", finding.KindTool, "legacy_search", ""),
		mk("tool-removed", finding.KindTool, "search", ""),
	}
	orig := append([]finding.Finding(nil), in...)
	got := New(c, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)).Apply(in)
	var lines []string
	for _, f := range got {
		lines = append(lines, f.Rule+" "+f.Subject.Name+" "+string(f.Level)+" "+f.Acknowledged)
	}
	want := []string{
		"tool-description-changed t error ",
		"tool-removed legacy_search error legacy tools go",
		"tool-removed search error ",
		"config-acknowledgement-expired  error ",
	}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("Apply (-want +got):\n%s", d)
	}
	if d := cmp.Diff(orig, in); d != "" {
		t.Errorf("Apply modified its input (-want +got):\n%s", d)
	}

	// A nil configuration changes nothing.
	var none *config.Config
	if got := New(none, time.Time{}).Apply(orig); !cmp.Equal(got, orig) {
		t.Errorf("nil policy: %+v", got)
	}
}
