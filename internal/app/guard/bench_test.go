package guard

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// line is a client's raw stdio connection: one request line written, one
// answer line read.
type line struct {
	w io.Writer
	r *bufio.Reader
}

func (c line) roundTrip(tb testing.TB, req string) time.Duration {
	start := time.Now()
	if _, err := io.WriteString(c.w, req+"\n"); err != nil {
		tb.Fatal(err)
	}
	if _, err := c.r.ReadBytes('\n'); err != nil {
		tb.Fatal(err)
	}
	return time.Since(start)
}

func (c line) handshake(tb testing.TB) {
	c.roundTrip(tb, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if _, err := io.WriteString(c.w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkGuardLatency measures what the guard adds to one message: the
// same requests, one at a time, to the full test server directly and
// through the guard (its lock current), a ping and a tools/list page
// (which the guard compares with the lock item by item; a page of 4 tools,
// and of 100 from the big server). It reports the direct and guarded
// round trips at p50 and p99, and the added latency as their difference
// (which noise on a busy machine can make negative), in place of ns/op.
func BenchmarkGuardLatency(b *testing.B) {
	locks := map[string]*lock.Lock{}
	for _, req := range []struct{ name, mode, body string }{
		{"ping", testserver.ModeFull, `"method":"ping"`},
		{"tools-list", testserver.ModeFull, `"method":"tools/list"`},
		{"tools-list-100", testserver.ModeBig, `"method":"tools/list"`},
	} {
		b.Run(req.name, func(b *testing.B) {
			mode := req.mode
			l := locks[mode]
			if l == nil {
				l = lockOf(b, mode)
				locks[mode] = l
			}
			p, err := capture.StartProcess(serverCommand(mode), capture.Limits{}, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Stop()
			direct := line{p.Stdin(), bufio.NewReaderSize(p.Stdout(), 1<<20)}
			direct.handshake(b)

			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			e, _ := Select(l, "")
			done := make(chan error, 1)
			go func() {
				done <- Run(context.Background(), Config{Server: serverCommand(mode), Session: NewSession(Options{Entry: e, All: l}),
					Stdin: inR, Stdout: outW, Stderr: io.Discard})
				outW.Close()
			}()
			guarded := line{inW, bufio.NewReaderSize(outR, 1<<20)}
			guarded.handshake(b)

			var d, g []time.Duration
			b.ResetTimer()
			for i := range b.N {
				body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i+1, req.body)
				// Taken in turns, so that neither side always goes first.
				if i%2 == 0 {
					d = append(d, direct.roundTrip(b, body))
					g = append(g, guarded.roundTrip(b, body))
				} else {
					g = append(g, guarded.roundTrip(b, body))
					d = append(d, direct.roundTrip(b, body))
				}
			}
			b.StopTimer()
			inW.Close()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
			pd, pg := percentiles(d), percentiles(g)
			ms := func(x time.Duration) float64 { return float64(x) / float64(time.Millisecond) }
			b.ReportMetric(ms(pd[0]), "direct-p50-ms")
			b.ReportMetric(ms(pg[0]), "guard-p50-ms")
			b.ReportMetric(ms(pd[1]), "direct-p99-ms")
			b.ReportMetric(ms(pg[1]), "guard-p99-ms")
			b.ReportMetric(ms(pg[0]-pd[0]), "added-p50-ms")
			b.ReportMetric(ms(pg[1]-pd[1]), "added-p99-ms")
			// Each iteration times a direct and a guarded round trip: its
			// ns/op, their sum, is neither.
			b.ReportMetric(0, "ns/op")
		})
	}
}

// percentiles are the p50 and p99 of ds.
func percentiles(ds []time.Duration) [2]time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return [2]time.Duration{at(0.50), at(0.99)}
}
