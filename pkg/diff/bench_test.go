package diff

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/benchsurface"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// synthetic is benchsurface's snapshot of n tools, read.
func synthetic(tb testing.TB, n int, changed bool) *manifest.Manifest {
	tb.Helper()
	data, err := benchsurface.Snapshot(n, changed)
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
