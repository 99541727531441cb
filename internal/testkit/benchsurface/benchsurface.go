// Package benchsurface makes the large synthetic surfaces that the diff's
// benchmarks measure (pkg/diff's BenchmarkDiff and the diff case of
// bench/rss): n tools, each with a 50-property input schema, and a
// changed variant in which one tool in a hundred differs the way a
// breaking PR does and every 500th is replaced by a new one.
package benchsurface

import (
	"encoding/json"
	"fmt"
)

// Snapshot is a snapshot file of n tools (not yet canonical: read it with
// manifest.FromCanonicalJSON). With changed, one tool in a hundred gains
// a required property, loses one and has its description rewritten, and
// every 500th tool is renamed with a new description.
func Snapshot(n int, changed bool) ([]byte, error) {
	return snapshotOf("bench", n, func(i int) map[string]any { return tool(i, changed) })
}

// snapshotOf is the snapshot file of server name with n tools, the i-th
// made by tool(i).
func snapshotOf(name string, n int, tool func(i int) map[string]any) ([]byte, error) {
	tools := make([]any, 0, n)
	for i := range n {
		tools = append(tools, tool(i))
	}
	return json.Marshal(map[string]any{
		"snapshotVersion": 1, "protocolVersion": "2025-11-25", "handshake": "initialize",
		"serverInfo":   map[string]any{"name": name, "version": "1.0.0"},
		"capabilities": map[string]any{"tools": map[string]any{}},
		"tools":        tools,
	})
}

func tool(i int, changed bool) map[string]any {
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
	return map[string]any{
		"name": name, "description": desc,
		"inputSchema": map[string]any{"type": "object", "properties": props, "required": required},
		"annotations": map[string]any{"readOnlyHint": !(changed && i%100 == 7)},
	}
}
