package action

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/pkg/check"
)

func TestRefreshCommands(t *testing.T) {
	t.Parallel()
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
