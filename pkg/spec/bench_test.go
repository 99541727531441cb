package spec

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// bigCapture builds a capture of n tools in pages of pageSize, every tool
// with its own input schema (distinct property names, so that no two
// compile alike) and every other one with an outputSchema. mutate may
// change the JSON of tool i.
func bigCapture(t testing.TB, rev string, n, pageSize int, mutate func(i int, tool map[string]any)) *capture.Capture {
	t.Helper()
	var frames []string
	frames = append(frames,
		`> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+rev+`","capabilities":{},"clientInfo":{"name":"mcp-surface","version":"dev"}}}`,
		`< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"`+rev+`","capabilities":{"tools":{}},"serverInfo":{"name":"big","version":"1.0.0"}}}`)
	id := 1
	for start := 0; start < n; start += pageSize {
		var tools []any
		for i := start; i < min(n, start+pageSize); i++ {
			tool := map[string]any{
				"name":        fmt.Sprintf("tool_%04d", i),
				"description": fmt.Sprintf("Generated tool number %d. Looks up records by query and returns at most n of them.", i),
				"inputSchema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						fmt.Sprintf("q%d", i): map[string]any{"type": "string", "description": "Query.", "minLength": 1},
						"n":                   map[string]any{"type": "integer", "minimum": 0, "maximum": 1000, "description": "How many."},
						"opts": map[string]any{"type": "object", "properties": map[string]any{
							"sort": map[string]any{"type": "string", "enum": []any{"asc", "desc"}},
						}},
					},
					"required": []any{fmt.Sprintf("q%d", i)},
				},
				"annotations": map[string]any{"readOnlyHint": i%2 == 0},
			}
			if i%2 == 1 {
				tool["outputSchema"] = map[string]any{"type": "object", "properties": map[string]any{
					fmt.Sprintf("r%d", i): map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				}}
			}
			if mutate != nil {
				mutate(i, tool)
			}
			tools = append(tools, tool)
		}
		result := map[string]any{"tools": tools}
		cursor := ""
		if start+pageSize < n {
			result["nextCursor"] = fmt.Sprint(start + pageSize)
		}
		if start > 0 {
			cursor = fmt.Sprintf(`,"params":{"cursor":"%d"}`, start)
		}
		data, err := json.Marshal(result)
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames,
			fmt.Sprintf(`> {"jsonrpc":"2.0","id":%d,"method":"tools/list"%s}`, id, cursor),
			fmt.Sprintf(`< {"jsonrpc":"2.0","id":%d,"result":%s}`, id, data))
		id++
	}
	return capturetest.FromFrames(t, capturetest.ParseFrames(t, []byte(strings.Join(frames, "\n"))))
}

// A violation deep in a long, paginated list is found, and named after
// the item that carries it.
func TestViolationInToolDeepInTheList(t *testing.T) {
	schemas := testSchemas(t)
	c := bigCapture(t, "2025-06-18", 1000, 100, func(i int, tool map[string]any) {
		if i == 937 {
			tool["inputSchema"].(map[string]any)["properties"].(map[string]any)["n"] = true
			delete(tool, "description")
		}
	})
	if len(c.Pages) != 10 {
		t.Fatalf("%d pages, want 10", len(c.Pages))
	}
	fs, err := validate(c, schemas)
	if err != nil {
		t.Fatal(err)
	}
	got := render(fs)
	want := `error schema-violation tool "tool_0937" "/inputSchema/properties/n"
	tool tool_0937: inputSchema.properties.n is a boolean, but the 2025-06-18 schema requires an object
note description-missing tool "tool_0937" "/description"
	tool tool_0937 has no description; the model has only its name to go by
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkValidate5000Tools validates a capture of 5,000 distinct tools
// in 50 pages, after the schemas are loaded. The target is under 0.5 s.
func BenchmarkValidate5000Tools(b *testing.B) {
	c := bigCapture(b, "2025-11-25", 5000, 100, nil)
	benchmarkClean(b, c, testSchemas(b))
}

// BenchmarkValidate5000ToolsDistinctShapes is the worst case for the
// tool-schema check: no two schemas share a shape (each has its own
// maxLength and maximum), so every one is validated against the
// meta-schema.
func BenchmarkValidate5000ToolsDistinctShapes(b *testing.B) {
	c := bigCapture(b, "2025-11-25", 5000, 100, func(i int, tool map[string]any) {
		props := tool["inputSchema"].(map[string]any)["properties"].(map[string]any)
		props["n"].(map[string]any)["maximum"] = 1000 + i
		props[fmt.Sprintf("q%d", i)].(map[string]any)["maxLength"] = 10 + i
		if out, ok := tool["outputSchema"].(map[string]any); ok {
			out["maxProperties"] = i
		}
	})
	benchmarkClean(b, c, testSchemas(b))
}

// BenchmarkValidate5000ToolsSDK validates the capture of a real SDK server
// with 5,000 tools (internal/testkit/testserver's big mode, 50 pages).
func BenchmarkValidate5000ToolsSDK(b *testing.B) {
	schemas := testSchemas(b)
	c := capturetest.InProcess(b, testserver.ModeBig, capture.Options{ProtocolVersion: "2025-11-25"})
	if n := len(c.Pages); n < 50 {
		b.Fatalf("%d pages", n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fs, err := validate(c, schemas)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range fs {
			if f.Level == "error" {
				b.Fatalf("error finding: %s %s", f.Rule, f.Message)
			}
		}
	}
}

// benchmarkClean validates c, which must have no finding, b.N times.
func benchmarkClean(b *testing.B, c *capture.Capture, schemas *Schemas) {
	if fs, err := validate(c, schemas); err != nil || len(fs) != 0 {
		b.Fatalf("the benchmark capture is not clean: %v %s", err, render(fs))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := validate(c, schemas); err != nil {
			b.Fatal(err)
		}
	}
}
