package github

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func TestVerdictOutputs(t *testing.T) {
	r := &report.Report{Servers: []report.Section{{Server: "a", Head: &report.Side{ManifestHash: "h"}}}}
	got := map[string]string{}
	var order []string
	for _, o := range VerdictOutputs(r, 1, true) {
		got[o.Name] = o.Value
		order = append(order, o.Name)
	}
	if got["verdict"] != "fail" || got["exit-code"] != "1" || got["breaking"] != "false" || got["manifest-hash"] != "h" || got["base-manifest-hash"] != "" {
		t.Errorf("outputs: %v", got)
	}
	if order[0] != "verdict" || order[len(order)-1] != "base-manifest-hash" {
		t.Errorf("order: %v", order)
	}
}
