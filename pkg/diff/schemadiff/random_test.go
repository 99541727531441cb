package schemadiff

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// schemaGen builds random schemas from the keywords the engine knows, and
// mutations of them, to check on many shapes that Compare does not panic,
// is deterministic, finds nothing between a schema and itself, and
// explains differences with specific rules rather than the catch-all.
type schemaGen struct{ r *rand.Rand }

func (g schemaGen) pick(xs ...any) any { return xs[g.r.Intn(len(xs))] }

func (g schemaGen) schema(depth int) any {
	if depth <= 0 || g.r.Intn(4) == 0 {
		return g.leaf()
	}
	switch g.r.Intn(7) {
	case 0, 1, 2:
		props := map[string]any{}
		var req []any
		for i := 0; i < 1+g.r.Intn(4); i++ {
			name := fmt.Sprintf("p%d", g.r.Intn(6))
			props[name] = g.schema(depth - 1)
			if g.r.Intn(3) == 0 {
				req = append(req, name)
			}
		}
		s := map[string]any{"type": "object", "properties": props}
		if len(req) > 0 {
			s["required"] = req
		}
		if g.r.Intn(3) == 0 {
			s["additionalProperties"] = g.pick(false, true, map[string]any{"type": "string"})
		}
		return s
	case 3:
		s := map[string]any{"type": "array", "items": g.schema(depth - 1)}
		if g.r.Intn(2) == 0 {
			s["maxItems"] = g.r.Intn(5)
		}
		return s
	case 4:
		var br []any
		for i := 0; i < 2+g.r.Intn(2); i++ {
			br = append(br, g.schema(depth-1))
		}
		return map[string]any{g.pick("anyOf", "oneOf", "allOf").(string): br}
	case 5:
		return map[string]any{"$ref": "#/$defs/d" + fmt.Sprint(g.r.Intn(2))}
	default:
		return map[string]any{"type": "string", "not": g.leaf()}
	}
}

func (g schemaGen) leaf() any {
	switch g.r.Intn(9) {
	case 0:
		return map[string]any{"type": "string", "maxLength": g.r.Intn(10), "pattern": g.pick("^a", "^[a-z]+$", "b$")}
	case 1:
		return map[string]any{"type": g.pick("integer", "number", []any{"integer", "null"}), "minimum": g.r.Intn(3)}
	case 2:
		return map[string]any{"enum": []any{"a", "b", g.pick("c", 1, nil)}}
	case 3:
		return map[string]any{"const": g.pick("x", 2, true)}
	case 4:
		return map[string]any{"type": "boolean", "description": g.pick("d1", "d2")}
	case 5:
		return g.pick(true, false, map[string]any{})
	case 6:
		return map[string]any{"type": "string", "format": g.pick("date", "uri"), "default": "x"}
	case 7:
		return map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "null"}}}
	default:
		return map[string]any{"type": "string", "nullable": true}
	}
}

func (g schemaGen) doc() map[string]any {
	s, ok := g.schema(3).(map[string]any)
	if !ok {
		s = map[string]any{"type": "object"}
	}
	s["$defs"] = map[string]any{"d0": g.schema(2), "d1": map[string]any{"type": "object", "properties": map[string]any{"next": map[string]any{"$ref": "#/$defs/d1"}, "v": g.leaf()}}}
	return s
}

// mutate changes one random place of a decoded schema.
func (g schemaGen) mutate(v any, depth int) any {
	m, ok := v.(map[string]any)
	if !ok || depth > 6 {
		return g.schema(1)
	}
	out := maps.Clone(m)
	keys := slices.Sorted(maps.Keys(out)) // a deterministic key choice
	if len(keys) == 0 || g.r.Intn(5) == 0 {
		out[g.pick("maxLength", "minimum", "type", "required", "additionalProperties", "description").(string)] =
			g.pick(3, 5, "string", []any{"p1"}, false, "zz")
		return out
	}
	k := keys[g.r.Intn(len(keys))]
	switch x := out[k].(type) {
	case map[string]any:
		if k == "properties" || k == "$defs" {
			inner := maps.Clone(x)
			names := slices.Sorted(maps.Keys(inner))
			if len(names) > 0 {
				n := names[g.r.Intn(len(names))]
				switch g.r.Intn(4) {
				case 0:
					delete(inner, n)
				case 1:
					inner["new"+n] = inner[n]
				default:
					inner[n] = g.mutate(inner[n], depth+1)
				}
			}
			out[k] = inner
		} else {
			out[k] = g.mutate(x, depth+1)
		}
	case []any:
		l := append([]any(nil), x...)
		if len(l) > 0 && g.r.Intn(2) == 0 {
			l = l[:len(l)-1]
		} else if len(l) > 0 {
			i := g.r.Intn(len(l))
			l[i] = g.mutate(l[i], depth+1)
		} else {
			l = append(l, g.leaf())
		}
		out[k] = l
	default:
		if g.r.Intn(2) == 0 {
			delete(out, k)
		} else {
			out[k] = g.pick(1, 7, "string", "integer", true, nil)
		}
	}
	return out
}

func TestRandomSchemas(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	g := schemaGen{rand.New(rand.NewSource(1))}
	unexplained := 0
	for i := 0; i < n; i++ {
		a := g.doc()
		b := g.mutate(a, 0).(map[string]any)
		ab, _ := json.Marshal(a)
		bb, _ := json.Marshal(b)
		for _, dir := range []Direction{Input, Output} {
			got := Compare(ab, bb, dir, Options{})
			again := Compare(ab, bb, dir, Options{})
			if render(got) != render(again) {
				t.Fatalf("not deterministic:\n%s\n%s", ab, bb)
			}
			checkChanges(t, got, dir)
			for _, c := range got {
				if strings.Contains(c.Message, "no rule explains") {
					unexplained++
					if unexplained <= 5 {
						t.Logf("unexplained (%s): %s\nbase %s\nhead %s", dir, c.Message, ab, bb)
					}
				}
			}
			if self := Compare(ab, ab, dir, Options{forceWalk: true}); len(self) > 0 {
				t.Fatalf("self-compare:\n%s\n%s", ab, messages(self))
			}
		}
	}
	if unexplained > 0 {
		t.Errorf("%d differences explained only by the catch-all", unexplained)
	}
}
