package check

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func TestGuidanceApply(t *testing.T) {
	t.Parallel()
	g := &Guidance{AcceptLabel: "mcp-surface: accept-breaking", Accepted: 0,
		Ack: map[string]string{"tracker": "acknowledged:\n  - rule: tool-removed\n"}, AckAll: map[string]string{"tracker": "acknowledged:\n  - rule: tool-removed\n  - rule: prompt-removed\n"},
		Refresh: []Refresh{{Server: "tracker", Command: "mcp-surface snapshot --server tracker"}}}
	var comment, summary report.Options
	g.Apply(&comment, false)
	g.Apply(&summary, true)
	if comment.AcceptLabel != "mcp-surface: accept-breaking" || comment.AcceptedByLabel || comment.SnapshotCommands["tracker"] != "mcp-surface snapshot --server tracker" {
		t.Errorf("comment options: %+v", comment)
	}
	if comment.AckYAML["tracker"] != g.Ack["tracker"] || summary.AckYAML["tracker"] != g.AckAll["tracker"] {
		t.Errorf("acknowledgements: comment %q, summary %q", comment.AckYAML, summary.AckYAML)
	}
	// The label on a pull request that breaks nothing accepts nothing.
	g.LabelApplied = true
	g.Apply(&comment, false)
	if comment.AcceptedByLabel {
		t.Error("accepted by label with nothing accepted")
	}
	g.Accepted = 3
	g.Apply(&comment, false)
	if !comment.AcceptedByLabel {
		t.Error("not accepted by label")
	}
	var none report.Options
	(*Guidance)(nil).Apply(&none, true)
	if none.AcceptLabel != "" || none.AckYAML != nil {
		t.Errorf("nil guidance: %+v", none)
	}
}
