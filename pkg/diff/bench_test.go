package diff

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// synthetic builds a snapshot of n tools, each with a 50-property input
// schema. With changed set, one tool in a hundred differs: a new required
// property, a removed one, a rewritten description, and every 500th tool
// is replaced by a new one.
func synthetic(tb testing.TB, n int, changed bool) *manifest.Manifest {
	tb.Helper()
	tools := make([]any, 0, n)
	for i := range n {
		name := fmt.Sprintf("tool_%06d", i)
		desc := fmt.Sprintf("Tool number %d reads records from the store and returns them.", i)
		props := map[string]any{}
		required := []any{}
		for p := range 50 {
			pn := fmt.Sprintf("param_%02d", p)
			props[pn] = map[string]any{
				"type":        []string{"string", "integer", "boolean", "number"}[p%4],
				"description": fmt.Sprintf("Parameter %d of tool %d.", p, i),
			}
			if p%10 == 0 {
				required = append(required, pn)
			}
		}
		if changed && i%100 == 7 {
			desc += " Now also deletes them."
			delete(props, "param_49")
			props["param_new"] = map[string]any{"type": "string"}
			required = append(required, "param_new")
		}
		if changed && i%500 == 11 {
			name = fmt.Sprintf("renamed_%06d", i)
			desc = fmt.Sprintf("Something else entirely, number %d.", i)
		}
		tools = append(tools, map[string]any{
			"name": name, "description": desc,
			"inputSchema": map[string]any{"type": "object", "properties": props, "required": required},
			"annotations": map[string]any{"readOnlyHint": !(changed && i%100 == 7)},
		})
	}
	data, err := json.Marshal(map[string]any{
		"snapshotVersion": 1, "protocolVersion": "2025-11-25", "handshake": "initialize",
		"serverInfo":   map[string]any{"name": "bench", "version": "1.0.0"},
		"capabilities": map[string]any{"tools": map[string]any{}},
		"tools":        tools,
	})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := manifest.FromCanonicalJSON(data)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkDiff shows the cost of a diff growing linearly with the number
// of tools (500, 5,000, 50,000, each with a 50-property input schema).
func BenchmarkDiff(b *testing.B) {
	for _, n := range []int{500, 5000, 50000} {
		base, head := synthetic(b, n, false), synthetic(b, n, true)
		runtime.GC() // the snapshots' construction garbage is not the diff's cost
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			var findings int
			for b.Loop() {
				findings = len(Diff(base, head, Options{}).Findings)
			}
			b.ReportMetric(float64(findings), "findings")
		})
	}
}
