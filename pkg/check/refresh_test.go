package check

import "testing"

func TestSnapshotCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s        Server
		fromList bool
		config   string
		named    bool
		want     string
	}{
		{Server{Name: "a"}, true, "", false, "mcp-surface snapshot"},
		{Server{Name: "a b"}, true, "ci/mcp.yaml", true, "mcp-surface snapshot --config ci/mcp.yaml --server 'a b'"},
		{Server{Command: []string{"node", "server.js"}}, false, "", false, "mcp-surface snapshot -o snap.json -- node server.js"},
		{Server{Command: []string{"make run"}, Shell: true}, false, "", false, "mcp-surface snapshot -o snap.json --shell -- 'make run'"},
		{Server{URL: "http://127.0.0.1:8080/mcp", SSE: true, Headers: map[string][]string{"Authorization": {"secret"}}}, false, "", false, "mcp-surface snapshot -o snap.json --url http://127.0.0.1:8080/mcp --sse"},
	} {
		if got := SnapshotCommand(tc.s, "snap.json", tc.fromList, tc.config, tc.named); got != tc.want {
			t.Errorf("SnapshotCommand(%+v) = %s, want %s", tc.s, got, tc.want)
		}
	}
}
