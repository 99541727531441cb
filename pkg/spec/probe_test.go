package spec

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// ValidateProbes reports what the probes' answers caused, nothing about
// the lists (here, a tool without a description), and only for the
// exchanges the capture's probes made.
func TestValidateProbesOnlyJudgesProbes(t *testing.T) {
	frames := capturetest.ParseFrames(t, []byte(`
> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-surface","version":"dev"}}}
< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"demo","version":"1.0.0"}}}
> {"jsonrpc":"2.0","id":1,"method":"tools/list"}
< {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"weather","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"temp":{"type":"number"}},"required":["temp"]}}]}}
> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"weather","arguments":{}}}
< {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"image","data":"AA==","mimeType":"png"}],"structuredContent":{"temp":"hot"}}}
> {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"weather","arguments":{}}}
< {"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"boom"}}
`))
	c := capturetest.FromFrames(t, frames)
	c.Probes = []capture.ProbeResult{{Probe: capture.Probe{ID: "w", Method: capture.MethodToolsCall, Name: "weather"}, Target: "weather", Exchange: 2}}
	all, err := validate(c, testSchemas(t))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ValidateProbes(c, testSchemas(t))
	if err != nil {
		t.Fatal(err)
	}
	rulesOf := func(fs []string) map[string]bool {
		m := map[string]bool{}
		for _, r := range fs {
			m[r] = true
		}
		return m
	}
	var allRules, gotRules []string
	for _, f := range all {
		allRules = append(allRules, f.Rule)
	}
	for _, f := range got {
		gotRules = append(gotRules, f.Rule)
		if f.Revision != "2025-06-18" {
			t.Errorf("finding %s has revision %q", f.Rule, f.Revision)
		}
	}
	a, g := rulesOf(allRules), rulesOf(gotRules)
	if !a["description-missing"] || !a["tool-call-failure-as-rpc-error"] {
		t.Errorf("Validate misses list or error-channel findings: %v", allRules)
	}
	if g["description-missing"] || g["tool-call-failure-as-rpc-error"] {
		t.Errorf("ValidateProbes reported something no probe caused: %v", gotRules)
	}
	if !g["content-block-invalid"] || !g["tool-result-structured-content-invalid"] || len(got) != 2 {
		t.Errorf("ValidateProbes = %v, want content-block-invalid and tool-result-structured-content-invalid", gotRules)
	}
}
