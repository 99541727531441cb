package schemadiff

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/cputime"
)

// toolSchema builds a realistic 50-property tool input schema. variant
// changes a few properties the way a typical PR does.
func toolSchema(variant int) json.RawMessage {
	props := map[string]any{}
	var required []string
	for i := 0; i < 50; i++ {
		name := fmt.Sprintf("param_%02d", i)
		var p map[string]any
		switch i % 6 {
		case 0:
			p = map[string]any{"type": "string", "minLength": 1, "maxLength": 256}
		case 1:
			p = map[string]any{"type": "integer", "minimum": 0, "maximum": 1000}
		case 2:
			p = map[string]any{"type": "string", "enum": []any{"asc", "desc", "none"}}
		case 3:
			p = map[string]any{"type": "array", "items": map[string]any{"type": "string", "format": "uri"}, "maxItems": 20}
		case 4:
			p = map[string]any{"type": []any{"boolean", "null"}, "default": false}
		case 5:
			p = map[string]any{"type": "object", "properties": map[string]any{
				"x": map[string]any{"type": "number"}, "y": map[string]any{"type": "number"}}, "required": []any{"x"}}
		}
		p["description"] = fmt.Sprintf("Parameter %d controls an aspect of the operation.", i)
		if variant == 1 {
			switch i {
			case 3:
				p["description"] = "Changed description."
			case 6:
				p["maximum"] = 500
			case 8:
				p["enum"] = []any{"asc", "desc"}
			}
		}
		props[name] = p
		if i%4 == 0 {
			required = append(required, name)
		}
	}
	if variant == 1 {
		delete(props, "param_49")
		props["param_50"] = map[string]any{"type": "string"}
		required = append(required, "param_01")
	}
	s := map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

func benchCompare(b *testing.B, base, head json.RawMessage, dir Direction) {
	b.ReportAllocs()
	b.SetBytes(int64(len(base) + len(head)))
	b.ResetTimer()
	c0 := cputime.Used()
	for i := 0; i < b.N; i++ {
		Compare(base, head, dir, Options{})
	}
	if c := cputime.Used() - c0; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// Two 50-property input schemas that differ the way a typical PR does
// (a description, a bound, an enum value, a property removed and one
// added, one became required).
func BenchmarkCompare50Props(b *testing.B) {
	base, head := toolSchema(0), toolSchema(1)
	if n := len(Compare(base, head, Input, Options{})); n == 0 {
		b.Fatal("no changes")
	}
	benchCompare(b, base, head, Input)
}

func BenchmarkCompare50PropsOutput(b *testing.B) {
	benchCompare(b, toolSchema(0), toolSchema(1), Output)
}

// Same schema, different bytes (key order): the common case in a diff of
// thousands of tools, where almost nothing changed.
func BenchmarkCompare50PropsUnchanged(b *testing.B) {
	base := toolSchema(0)
	benchCompare(b, base, reorder(b, base), Input)
}

func BenchmarkParse(b *testing.B) {
	base := toolSchema(0)
	b.ReportAllocs()
	c0 := cputime.Used()
	for i := 0; i < b.N; i++ {
		if _, err := parseJSON(base); err != nil {
			b.Fatal(err)
		}
	}
	if c := cputime.Used() - c0; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkStdlibUnmarshalForScale(b *testing.B) {
	base := toolSchema(0)
	b.ReportAllocs()
	c0 := cputime.Used()
	for i := 0; i < b.N; i++ {
		var v any
		if err := json.Unmarshal(base, &v); err != nil {
			b.Fatal(err)
		}
	}
	if c := cputime.Used() - c0; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
