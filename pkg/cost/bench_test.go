package cost

import (
	"fmt"
	"testing"

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
// paid once per process (BenchmarkStartup).
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

// BenchmarkStartup measures what a first count costs a fresh process: the
// default encoding's codec, which a process builds once, on first use
// (here once per iteration), then a count with it. It is a benchmark, not a
// test with a budget: a shared, busy machine makes any fixed bound flaky.
// go test -run '^$' -bench Startup ./pkg/cost
func BenchmarkStartup(b *testing.B) {
	for b.Loop() {
		c := encoders[DefaultEncoding].new()
		if _, err := c.Count("warm up"); err != nil {
			b.Fatal(err)
		}
	}
}
