package check

import (
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/config"
)

// A server's shutdownGrace applies unless the options set one (the
// command line's --shutdown-grace, the action's input).
func TestShutdownGracePrecedence(t *testing.T) {
	cfg, err := config.Parse(".mcp-surface.yaml", []byte("servers:\n  - name: a\n    command: run\n    shutdownGrace: 2s\n  - name: b\n    command: run\n"))
	if err != nil {
		t.Fatal(err)
	}
	servers, err := FromConfig(cfg, ".mcp-surface.yaml", "", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts      time.Duration
		server    int
		want      time.Duration
		wantDefer bool
	}{
		{0, 0, 2 * time.Second, false},
		{0, 1, 0, true},
		{300 * time.Millisecond, 0, 300 * time.Millisecond, true},
	} {
		o := Options{Limits: capture.Limits{ShutdownGrace: tc.opts}, DeferShutdown: tc.wantDefer}
		got := o.captureOptions(servers[tc.server])
		if got.Limits.ShutdownGrace != tc.want || got.DeferShutdown != tc.wantDefer {
			t.Errorf("options %v, server %s: grace %v, defer %v; want %v, %v", tc.opts, servers[tc.server].Name,
				got.Limits.ShutdownGrace, got.DeferShutdown, tc.want, tc.wantDefer)
		}
	}
}
