package witness

import (
	"encoding/json"
	"math/big"
	"slices"
	"strings"
)

// gen builds instances from subschemas. It is deterministic: keys are
// visited sorted, branches in order, and every loop is bounded by the
// depth limit and the work counter.
type gen struct {
	// choose fixes the branch taken at an anyOf or oneOf (by the pointer
	// of the keyword); unlisted ones take branch 0.
	choose map[at]int
	work   int // steps left for the current value
	// stopped is set when the consumer of candidates wants no more.
	stopped bool
	// exhausted is set when a value could not be built within maxDepth
	// or maxWork: the search was bounded, not complete.
	exhausted bool
	// pwork is what is left of the transitions the pattern searches of
	// one Find may try.
	pwork int
	// around caches the value around the candidate at each level of the
	// one route a Find builds along (see build): it does not depend on the
	// candidate, and a 50-property object is costly to build 600 times.
	around map[aroundKey]aroundVal
}

type aroundKey struct {
	level int
	both  bool
}

type aroundVal struct {
	v  any
	ok bool
}

const (
	maxDepth = 24
	maxWork  = 4000
	// maxString bounds the strings built: long enough for a maxLength
	// of tens of thousands (prompts, queries), short enough to validate
	// at once.
	maxString = 1 << 16
	maxItems  = 64
)

// expand flattens a conjunction: $refs followed (a draft-07 $ref hides
// its siblings), allOf branches added, the chosen anyOf/oneOf branch
// added. ok is false when a false schema is part of it.
func (g *gen) expand(nodes []sref, depth int) ([]sref, bool) {
	var out []sref
	seen := map[at]bool{}
	var add func(n sref, depth int) bool
	add = func(n sref, depth int) bool {
		g.work--
		if depth > maxDepth || g.work < 0 {
			g.exhausted = true
			return false
		}
		switch v := n.v.(type) {
		case bool:
			return v
		case map[string]any:
			if seen[n.key()] {
				return true
			}
			seen[n.key()] = true
			if ref, ok := v["$ref"].(string); ok {
				t, ok := n.d.deref(ref)
				if !ok || !add(t, depth+1) {
					return false
				}
				if n.d.legacy {
					return true
				}
			}
			out = append(out, n)
			if all, ok := v["allOf"].([]any); ok {
				for i, b := range all {
					if !add(n.child(b, "/allOf/"+itoa(i)), depth+1) {
						return false
					}
				}
			}
			for _, kw := range []string{"anyOf", "oneOf"} {
				bs, ok := v[kw].([]any)
				if !ok || len(bs) == 0 {
					continue
				}
				i := g.choose[at{n.d, n.ptr + "/" + kw}]
				if i < 0 || i >= len(bs) {
					i = 0
				}
				if !add(n.child(bs[i], "/"+kw+"/"+itoa(i)), depth+1) {
					return false
				}
			}
			return true
		}
		return true // not a schema: constrains nothing the generator knows
	}
	for _, n := range nodes {
		if !add(n, depth) {
			return nil, false
		}
	}
	return out, true
}

// Type names, in the order generation prefers them when nothing hints.
var typeOrder = []string{"string", "integer", "number", "boolean", "object", "array", "null"}

// allowed is the set of JSON types every node of a flat conjunction
// allows ("integer" is a "number").
func allowed(flat []sref) []string {
	ok := map[string]bool{}
	for _, t := range typeOrder {
		ok[t] = true
	}
	for _, n := range flat {
		m := n.v.(map[string]any)
		tv, has := m["type"]
		if !has {
			continue
		}
		var ts []string
		switch t := tv.(type) {
		case string:
			ts = []string{t}
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					ts = append(ts, s)
				}
			}
		}
		if slices.Contains(ts, "number") {
			ts = append(ts, "integer")
		}
		for t := range ok {
			if !slices.Contains(ts, t) {
				delete(ok, t)
			}
		}
	}
	var out []string
	for _, t := range typeOrder {
		if ok[t] {
			out = append(out, t)
		}
	}
	return out
}

// hints are the keywords that make one type the natural choice.
var hints = []struct {
	typ string
	kws []string
}{
	{"object", []string{"properties", "required", "additionalProperties", "minProperties", "patternProperties", "dependentRequired"}},
	{"array", []string{"items", "prefixItems", "minItems", "contains", "uniqueItems"}},
	{"string", []string{"minLength", "maxLength", "pattern"}},
	{"integer", []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}},
}

// pickType chooses the type to generate.
func pickType(flat []sref, types []string) string {
	for _, h := range hints {
		if !slices.Contains(types, h.typ) {
			continue
		}
		for _, n := range flat {
			m := n.v.(map[string]any)
			for _, k := range h.kws {
				if _, ok := m[k]; ok {
					return h.typ
				}
			}
		}
	}
	if len(types) == 0 {
		return ""
	}
	return types[0]
}

// value is a minimal instance of a conjunction of subschemas, or false.
func (g *gen) value(nodes []sref, depth int) (any, bool) {
	return g.valueAs(nodes, "", depth)
}

// valueAs is value restricted to one type ("" for any).
func (g *gen) valueAs(nodes []sref, typ string, depth int) (any, bool) {
	flat, ok := g.expand(nodes, depth)
	if !ok {
		return nil, false
	}
	for _, n := range flat {
		m := n.v.(map[string]any)
		if c, ok := m["const"]; ok {
			return c, true
		}
	}
	if e, ok := enumOf(flat); ok {
		for _, x := range e {
			if typ == "" || typeOf(x) == typ || typ == "number" && typeOf(x) == "integer" {
				return x, true
			}
		}
		return nil, false
	}
	types := allowed(flat)
	if typ != "" {
		if !slices.Contains(types, typ) {
			return nil, false
		}
		types = []string{typ}
	}
	switch pickType(flat, types) {
	case "string":
		return g.str(flat, -1)
	case "integer":
		return numberIn(flat, true, nil)
	case "number":
		return numberIn(flat, false, nil)
	case "boolean":
		return true, true
	case "null":
		return nil, true
	case "object":
		return g.object(flat, depth)
	case "array":
		return g.array(flat, -1, depth)
	}
	return nil, false
}

// enumOf is the members of the first enum that every other enum of the
// conjunction has too.
func enumOf(flat []sref) ([]any, bool) {
	var sets [][]any
	for _, n := range flat {
		if e, ok := n.v.(map[string]any)["enum"].([]any); ok {
			sets = append(sets, e)
		}
	}
	if len(sets) == 0 {
		return nil, false
	}
	var out []any
	for _, x := range sets[0] {
		if all(sets[1:], func(s []any) bool { return slices.ContainsFunc(s, func(y any) bool { return equal(x, y) }) }) {
			out = append(out, x)
		}
	}
	return out, true
}

func all[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

func typeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// lengthBounds are the string length bounds of a conjunction: the largest
// minLength (0 without one) and the smallest maxLength (-1 without one).
func lengthBounds(flat []sref) (lo, hi int) {
	lo, hi = 0, -1
	for _, f := range flat {
		m := f.v.(map[string]any)
		if v, ok := intKw(m, "minLength"); ok && v > lo {
			lo = v
		}
		if v, ok := intKw(m, "maxLength"); ok && (hi < 0 || v < hi) {
			hi = v
		}
	}
	return lo, hi
}

// str is the shortest string of the conjunction (of exactly length n
// runes when n >= 0).
func (g *gen) str(flat []sref, n int) (any, bool) {
	lo, hi := lengthBounds(flat)
	var pats []string
	for _, f := range flat {
		if p, ok := f.v.(map[string]any)["pattern"].(string); ok {
			pats = append(pats, p)
		}
	}
	if n >= 0 {
		lo, hi = n, n
	}
	if lo > maxString || hi >= 0 && hi < lo {
		return nil, false
	}
	if len(pats) == 0 {
		// A value of the formats named, where there is one of a length
		// the bounds allow: it holds whether formats are asserted or not.
		for _, f := range flat {
			format, ok := f.v.(map[string]any)["format"].(string)
			if !ok {
				continue
			}
			for _, l := range []int{-1, lo} {
				if s, ok := formatSample(format, l); ok && len(s) >= lo && (hi < 0 || len(s) <= hi) {
					return s, true
				}
			}
		}
		return strings.Repeat("a", lo), true
	}
	limit := min(g.pwork, 20000)
	s, ok, used := patternString(pats, lo, hi, limit)
	g.pwork -= used
	if !ok && used >= limit {
		g.exhausted = true
	}
	return s, ok
}

// intKw reads a non-negative integer keyword.
func intKw(m map[string]any, k string) (int, bool) {
	n, ok := m[k].(json.Number)
	if !ok {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() || r.Num().Int64() > 1<<20 {
		return 0, false
	}
	return int(r.Num().Int64()), true
}
