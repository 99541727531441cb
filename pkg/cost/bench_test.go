package cost

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// surface builds n tools of a realistic size: a two-sentence description
// and eight described properties, some 280 tokens each.
func surface(tb testing.TB, n int) *manifest.Manifest {
	tb.Helper()
	tools := make([]any, 0, n)
	for i := range n {
		props := map[string]any{}
		for p := range 8 {
			props[fmt.Sprintf("param_%d", p)] = map[string]any{
				"type":        []string{"string", "integer", "boolean", "number"}[p%4],
				"description": fmt.Sprintf("Parameter %d of tool %d: what it filters, and its default when omitted.", p, i),
			}
		}
		tools = append(tools, tool(fmt.Sprintf("tool_%05d", i),
			fmt.Sprintf("Tool number %d reads records from the store and returns them. Use it when the user asks for records by owner or date.", i),
			props))
	}
	return mustManifest(tb, map[string]any{"tools": tools, "instructions": "Use these tools to read and write the store."})
}

// BenchmarkCompute shows counting linear in the number of tools (100 and
// 1,000). The encoder is built before the timer starts: its start-up is
// paid once per process (TestStartup).
func BenchmarkCompute(b *testing.B) {
	if _, err := count(DefaultEncoding, "warm up"); err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100, 1000} {
		m := surface(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			var total int
			for b.Loop() {
				t, err := Compute(m, Options{})
				if err != nil {
					b.Fatal(err)
				}
				total = t.Total
			}
			b.ReportMetric(float64(total), "tokens")
		})
	}
}

// TestStartup bounds what a first count costs in a fresh process (the
// encoder's start-up) plus a 100-tool surface: the budget of 50 ms is for
// both together, with room for a slow, shared machine. Run alone to
// measure: go test -run TestStartup -v ./pkg/cost
func TestStartup(t *testing.T) {
	m := surface(t, 100)
	start := time.Now()
	if _, err := count(DefaultEncoding, "x"); err != nil {
		t.Fatal(err)
	}
	up := time.Since(start)
	tb, err := Compute(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := time.Since(start)
	t.Logf("start-up (if first in the process) %v; with a first Compute of %d tools (%d tokens) %v", up, len(tb.Tools), tb.Total, d)
	if testing.Short() {
		return
	}
	if d > 2*time.Second {
		t.Errorf("counting 100 tools took %v", d)
	}
}
