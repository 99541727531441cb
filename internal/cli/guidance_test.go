package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func TestRefreshCommands(t *testing.T) {
	two := []check.Server{{Name: "tracker", Snapshot: "mcp/tracker.json"}, {Name: "issues", Snapshot: "mcp/issues.json"}}
	for _, tc := range []struct {
		name    string
		cfg     actionConfig
		servers []check.Server
		relWork string
		want    []string
	}{
		{"command", actionConfig{Command: "node build/index.js", Snapshot: "mcp-surface.json"},
			[]check.Server{{Command: []string{"node", "build/index.js"}, Snapshot: "mcp-surface.json"}}, ".",
			[]string{"mcp-surface snapshot -o mcp-surface.json -- node build/index.js"}},
		{"shell command in a directory", actionConfig{Command: "npm start --silent", Shell: true, Snapshot: "surface.json"},
			[]check.Server{{Command: []string{"npm start --silent"}, Shell: true, Snapshot: "srv/surface.json"}}, "srv",
			[]string{"cd srv && mcp-surface snapshot -o surface.json --shell -- 'npm start --silent'"}},
		{"url", actionConfig{URL: "http://localhost:3000/mcp", Snapshot: "mcp-surface.json"},
			[]check.Server{{URL: "http://localhost:3000/mcp", Snapshot: "mcp-surface.json"}}, ".",
			[]string{"mcp-surface snapshot -o mcp-surface.json --url http://localhost:3000/mcp"}},
		{"servers list", actionConfig{}, two, "mcp",
			[]string{"cd mcp && mcp-surface snapshot --server tracker", "cd mcp && mcp-surface snapshot --server issues"}},
		{"one server of the list, another config file", actionConfig{Server: "issues", Config: "ci/surface.yaml"}, two[1:], ".",
			[]string{"mcp-surface snapshot --config ci/surface.yaml --server issues"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &actionRun{cfg: &tc.cfg}
			var got []string
			for _, r := range a.refreshCommands(tc.servers, tc.relWork) {
				got = append(got, r.Command)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("refresh commands (-want +got):\n%s", d)
			}
		})
	}
}

func TestGuidanceApply(t *testing.T) {
	g := &guidance{AcceptLabel: DefaultAcceptLabel, Accepted: 0,
		Ack: map[string]string{"tracker": "acknowledged:\n  - rule: tool-removed\n"}, AckAll: map[string]string{"tracker": "acknowledged:\n  - rule: tool-removed\n  - rule: prompt-removed\n"},
		Refresh: []refresh{{Server: "tracker", Command: "mcp-surface snapshot --server tracker"}}}
	var comment, summary report.Options
	g.apply(&comment, false)
	g.apply(&summary, true)
	if comment.AcceptLabel != DefaultAcceptLabel || comment.AcceptedByLabel || comment.SnapshotCommands["tracker"] != "mcp-surface snapshot --server tracker" {
		t.Errorf("comment options: %+v", comment)
	}
	if comment.AckYAML["tracker"] != g.Ack["tracker"] || summary.AckYAML["tracker"] != g.AckAll["tracker"] {
		t.Errorf("acknowledgements: comment %q, summary %q", comment.AckYAML, summary.AckYAML)
	}
	// The label on a pull request that breaks nothing accepts nothing.
	g.LabelApplied = true
	g.apply(&comment, false)
	if comment.AcceptedByLabel {
		t.Error("accepted by label with nothing accepted")
	}
	g.Accepted = 3
	g.apply(&comment, false)
	if !comment.AcceptedByLabel {
		t.Error("not accepted by label")
	}
	var none report.Options
	(*guidance)(nil).apply(&none, true)
	if none.AcceptLabel != "" || none.AckYAML != nil {
		t.Errorf("nil guidance: %+v", none)
	}
}
