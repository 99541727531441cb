package schemadiff

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/testkit/cputime"
)

// Does schemadiff need its own JSON reader, or would the project's one
// canonical JSON (canonjson.Decode into Go maps) do? These benchmarks put
// the figures side by side for a typical tool schema and a large one:
//
//   - lazy: parseJSON, what Compare pays before comparing (validation of
//     the whole document, members of the top level only);
//   - lazy-all: parseJSON and then reading every container, the most a
//     comparison can load (a schema rewritten from top to bottom);
//   - canonjson: canonjson.Decode, which a comparer built on it would pay
//     on every schema before its first comparison (and would still have
//     to sort each object's keys and canonicalize its numbers).
//
// Run: go test -run '^$' -bench Reader ./pkg/diff/schemadiff/
func BenchmarkReader(b *testing.B) {
	docs := []struct {
		name string
		data []byte
	}{
		{"50props", toolSchema(0)},
		{"2000props", largeSchema(40)},
	}
	for _, d := range docs {
		b.Run(d.name+"/lazy", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(d.data)))
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := parseJSON(d.data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(d.name+"/lazy-all", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(d.data)))
			defer reportCPU(b)()
			for b.Loop() {
				v, err := parseJSON(d.data)
				if err != nil {
					b.Fatal(err)
				}
				loadAll(v)
			}
		})
		b.Run(d.name+"/canonjson", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(d.data)))
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := canonjson.Decode(d.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompareLarge compares two large schemas that differ in one
// property: the comparer loads only the containers on the changed path.
func BenchmarkCompareLarge(b *testing.B) {
	base, head := largeSchema(40), largeSchemaChanged(40)
	if n := len(Compare(base, head, Input, Options{})); n == 0 {
		b.Fatal("no changes")
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(base) + len(head)))
	defer reportCPU(b)()
	for b.Loop() {
		Compare(base, head, Input, Options{})
	}
}

// reportCPU starts counting the process's CPU time; the function it
// returns reports it per operation (wall time suffers on a shared machine).
func reportCPU(b *testing.B) func() {
	c0 := cputime.Used()
	return func() {
		if c := cputime.Used() - c0; c > 0 && b.N > 0 {
			b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func loadAll(v *value) {
	switch v.kind {
	case vObj:
		for _, m := range v.members() {
			loadAll(m.v)
		}
	case vArr:
		for _, e := range v.elems() {
			loadAll(e)
		}
	}
}

// largeSchema is a tool schema whose properties are n objects of 50
// properties each (toolSchema's).
func largeSchema(n int) []byte { return largeSchemaOf(n, -1) }

// largeSchemaChanged is largeSchema with one nested schema revised.
func largeSchemaChanged(n int) []byte { return largeSchemaOf(n, n/2) }

func largeSchemaOf(n, changed int) []byte {
	props := map[string]json.RawMessage{}
	for i := range n {
		s := toolSchema(0)
		if i == changed {
			s = toolSchema(1)
		}
		props[fmt.Sprintf("group_%02d", i)] = s
	}
	b, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	if err != nil {
		panic(err)
	}
	return b
}
