package witness

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
)

// largePair is a tool's inputSchema of 40 properties (strings with
// patterns and lengths, bounded numbers, enums, arrays of $ref'd objects,
// unions) and a head that narrows a quarter of them.
func largePair() (base, head json.RawMessage) {
	props := func(narrow bool) string {
		var ps []string
		for i := 0; i < 40; i++ {
			n := narrow && i%4 == 0
			switch i % 5 {
			case 0:
				max := 64
				if n {
					max = 16
				}
				ps = append(ps, fmt.Sprintf(`"s%d":{"type":"string","pattern":"^[a-z0-9_-]+$","maxLength":%d}`, i, max))
			case 1:
				min := 0
				if n {
					min = 10
				}
				ps = append(ps, fmt.Sprintf(`"n%d":{"type":"integer","minimum":%d,"maximum":1000}`, i, min))
			case 2:
				e := `"a","b","c","d"`
				if n {
					e = `"a","c"`
				}
				ps = append(ps, fmt.Sprintf(`"e%d":{"enum":[%s]}`, i, e))
			case 3:
				ps = append(ps, fmt.Sprintf(`"l%d":{"type":"array","items":{"$ref":"#/$defs/Item"},"maxItems":20}`, i))
			case 4:
				b := `{"type":"string"},{"type":"integer"}`
				if n {
					b += `,{}`
				}
				ps = append(ps, fmt.Sprintf(`"u%d":{"oneOf":[%s]}`, i, b))
			}
		}
		return strings.Join(ps, ",")
	}
	item := func(narrow bool) string {
		p := `^[a-zA-Z0-9_.-]+$`
		if narrow {
			p = `^[a-zA-Z0-9_.-]+\\.(png|svg|gif)$`
		}
		return `{"type":"object","properties":{"name":{"type":"string","pattern":"` + p + `"},"size":{"type":"integer","minimum":1}},"required":["name"]}`
	}
	mk := func(narrow bool) json.RawMessage {
		return json.RawMessage(`{"type":"object","required":["s0","n1"],"properties":{` + props(narrow) + `},"$defs":{"Item":` + item(narrow) + `}}`)
	}
	return mk(false), mk(true)
}

// BenchmarkFindLargePair is one tool's whole witness search: compile both
// sides, then Find for every change the comparer reports.
func BenchmarkFindLargePair(b *testing.B) {
	base, head := largePair()
	changes := schemadiff.Compare(base, head, schemadiff.Input, schemadiff.Options{})
	if len(changes) < 10 {
		b.Fatalf("%d changes", len(changes))
	}
	b.ReportAllocs()
	found := 0
	for b.Loop() {
		p := NewPair(base, head, schemadiff.Input, Options{})
		found = 0
		for _, c := range changes {
			if _, ok := p.Find(c); ok {
				found++
			}
		}
	}
	b.ReportMetric(float64(len(changes)), "changes")
	b.ReportMetric(float64(found), "witnesses")
}
