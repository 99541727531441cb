package diff

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/benchsurface"
	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/cputime"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// synthetic is benchsurface's snapshot of n tools, read.
func synthetic(tb testing.TB, n int, changed bool) *manifest.Manifest {
	tb.Helper()
	data, err := benchsurface.Snapshot(n, changed)
	if err != nil {
		tb.Fatal(err)
	}
	m := capturetest.Read(tb, data)
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

// BenchmarkDiffLargePair is the largest real pair's class: about 3 MB of
// snapshots (300 tools, recursive $refs, outputSchema everywhere) with
// hundreds of witnessed errors (benchsurface.LargePair). bench/largediff.sh
// runs it; the figure is in bench/README.md.
func BenchmarkDiffLargePair(b *testing.B) {
	bd, hd, err := benchsurface.LargePair(300)
	if err != nil {
		b.Fatal(err)
	}
	base := capturetest.Read(b, bd)
	head := capturetest.Read(b, hd)
	runtime.GC()
	var witnessed int
	start := cputime.Used()
	for b.Loop() {
		witnessed = 0
		for _, f := range Diff(base, head, Options{}).Findings {
			if f.Witness != nil {
				witnessed++
			}
		}
	}
	// CPU time measures the work on a machine shared with other jobs,
	// where wall time also measures the wait for a core.
	b.ReportMetric((cputime.Used()-start).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(len(bd)+len(hd))/2/1e6, "MB/snapshot")
	b.ReportMetric(float64(witnessed), "witnessed")
}
