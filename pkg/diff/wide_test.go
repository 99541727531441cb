package diff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/cputime"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/diff/witness"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// wideSnapshots is one tool whose inputSchema has n optional string
// properties (p000000 …); in head the middle one is an integer.
func wideSnapshots(tb testing.TB, n int) (base, head *manifest.Manifest) {
	tb.Helper()
	mk := func(changed bool) *manifest.Manifest {
		var b strings.Builder
		b.WriteString(`{"capabilities":{"tools":{}},"protocolVersion":"2025-11-25","serverInfo":{"name":"wide","version":"1.0.0"},"snapshotVersion":1,"tools":[{"name":"t","inputSchema":{"type":"object","properties":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			typ := "string"
			if changed && i == n/2 {
				typ = "integer"
			}
			fmt.Fprintf(&b, `"p%06d":{"type":%q}`, i, typ)
		}
		b.WriteString(`}}}]}`)
		m := capturetest.Read(tb, []byte(b.String()))
		return m
	}
	return mk(false), mk(true)
}

// TestWideSchemaTypeChanged: a change at one of 50,000 optional
// properties is proven by a call that sends that property alone; a
// search that would give up must not lower the error.
func TestWideSchemaTypeChanged(t *testing.T) {
	n := caseCount(50000, 2000)
	base, head := wideSnapshots(t, n)
	fs := Diff(base, head, Options{}).Findings
	var got []finding.Finding
	for _, f := range fs {
		if strings.HasPrefix(f.Rule, "input-") {
			got = append(got, f)
		}
	}
	name := fmt.Sprintf("p%06d", n/2)
	if len(got) != 1 || got[0].Level != rules.LevelError || got[0].Witness == nil || string(got[0].Witness.Value) != `{"`+name+`":""}` {
		t.Fatalf("findings %s", renderWitnesses(got))
	}
}

// BenchmarkWideSchemaDiff is the 50,000-property pair's whole diff.
func BenchmarkWideSchemaDiff(b *testing.B) {
	base, head := wideSnapshots(b, 50000)
	start := cputime.Used()
	for b.Loop() {
		Diff(base, head, Options{})
	}
	b.ReportMetric((cputime.Used()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// A search that gives up at a bound leaves a breaking change an error and
// says where it stopped; one that tried every candidate lowers it (input
// and output).
func TestProveFailsClosed(t *testing.T) {
	base := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)
	head := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1000000,"multipleOf":7}}}`)
	for _, dir := range []schemadiff.Direction{schemadiff.Input, schemadiff.Output} {
		b, h := base, head
		if dir == schemadiff.Output {
			b, h = head, base
		}
		changes := schemadiff.Compare(b, h, dir, schemadiff.Options{})
		var c schemadiff.Change
		for _, x := range changes {
			if r, ok := rules.Lookup(x.Rule); ok && r.Severity == rules.SeverityBreaking {
				c = x
			}
		}
		if c.Rule == "" {
			t.Fatalf("%s: no breaking change in %v", dir, changes)
		}
		fd := finding.New(c.Rule, finding.Subject{Kind: "tool", Name: "t"}, "/inputSchema", "m", nil, nil)
		prove(&fd, c, changes, witness.NewPair(b, h, dir, witness.Options{Budget: 2}), dir)
		if fd.Level != rules.LevelError || fd.Witness != nil || !strings.Contains(fd.Message, "not proven: the search gave up after") {
			t.Errorf("%s, budget 2: %s %q", dir, fd.Level, fd.Message)
		}
		fd = finding.New(c.Rule, finding.Subject{Kind: "tool", Name: "t"}, "/inputSchema", "m", nil, nil)
		prove(&fd, c, changes, witness.NewPair(b, h, dir, witness.Options{}), dir)
		if fd.Level != rules.LevelError || fd.Witness == nil {
			t.Errorf("%s, whole budget: %s %q, want a witness", dir, fd.Level, fd.Message)
		}
	}
}

// A snapshot written before trials were recorded keeps today's verdict
// for a withdrawn capability, and the message says no trial was made.
func TestCapabilityWithoutTrialSaysSo(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		if !strings.HasSuffix(fx.Path, "-no-trial-withdrawn.txtar") {
			continue
		}
		for _, f := range Diff(fx.base, fx.head, Options{}).Findings {
			if !strings.HasPrefix(f.Rule, "capability-") {
				continue
			}
			if f.Level != rules.LevelError || !strings.Contains(f.Message, "base records no trial of") {
				t.Errorf("%s: %s %s %q", fx.Path, f.Rule, f.Level, f.Message)
			}
		}
	}
}
