package diff

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/testkit/schematest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// reviewBase is a schema with one property per shape the witness search
// attributes through: keywords side by side, compositions, references,
// tuples, conditionals, negation, dependent and pattern-named members,
// property names, unevaluated members and boolean schemas.
const reviewBase = `{"type":"object","properties":{
	"a":{"type":"string","maxLength":10},
	"b":{"type":"integer","minimum":0},
	"c":{"anyOf":[{"type":"string","maxLength":5},{"type":"integer"}]},
	"d":{"oneOf":[{"type":"string"},{"type":"boolean"}]},
	"e":{"allOf":[{"type":"number"},{"maximum":100}]},
	"f":{"$ref":"#/$defs/F"},
	"g":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"integer"}},
	"h":{"type":"object","properties":{"kind":{"type":"string"}},"if":{"properties":{"kind":{"const":"x"}},"required":["kind"]},"then":{"required":["x"]}},
	"i":{"not":{"type":"null"}},
	"j":{"type":"object","dependentSchemas":{"p":{"required":["q"]}}},
	"k":{"type":"object","patternProperties":{"^s_":{"type":"string"}}},
	"l":{"type":"object","propertyNames":{"maxLength":8}},
	"m":{"type":"object","properties":{"x":{}},"unevaluatedProperties":{"type":"integer"}},
	"n":true,
	"o":{"enum":["asc","desc","up","down"]},
	"q":{"anyOf":[{"type":"string","enum":["bug","task"]},{"type":"null"}]}},
	"$defs":{"F":{"type":"object","properties":{"u":{"type":"string","maxLength":6},"v":{"type":"integer","maximum":50}}}}}`

// reviewLegacy is the draft-07 counterpart: tuple items, additionalItems,
// definitions and dependencies.
const reviewLegacy = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{
	"a":{"type":"string","maxLength":10},
	"g":{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"integer"}},
	"f":{"$ref":"#/definitions/F"},
	"j":{"type":"object","dependencies":{"p":{"required":["q"]}}}},
	"definitions":{"F":{"type":"object","properties":{"u":{"type":"string","maxLength":6}}}}}`

func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

var reviewEdits = []edit{
	func(r *rand.Rand, s map[string]any) {
		// several enum values removed at once, or the enum replaced
		var e []any
		for _, v := range []string{"asc", "desc", "up", "down", "left"} {
			if r.IntN(3) == 0 {
				e = append(e, v)
			}
		}
		if len(e) == 0 {
			e = []any{"asc"}
		}
		prop(s, "properties", "o")["enum"] = e
	},
	func(r *rand.Rand, s map[string]any) {
		// the nullable enum collapsed (zod .nullable() to .optional())
		s["properties"].(map[string]any)["q"] = obj("type", "string", "enum", []any{"bug", "task"})
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "a")["maxLength"] = num(5 + r.IntN(10)) },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "a")["pattern"] = pick(r, "^[a-z]*$", "^x", "[0-9]")
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "a")["minLength"] = num(1 + r.IntN(3)) },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "a")["default"] = "zz" },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "b")["minimum"] = num(r.IntN(4) - 1) },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "b")["maximum"] = num(5) },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "b")["type"] = pick(r, "number", "string") },
	func(r *rand.Rand, s map[string]any) {
		c := prop(s, "properties", "c")
		c["anyOf"].([]any)[0].(map[string]any)["maxLength"] = num(2 + r.IntN(6))
	},
	func(r *rand.Rand, s map[string]any) {
		c := prop(s, "properties", "c")
		c["anyOf"] = append(c["anyOf"].([]any), obj("type", "boolean"))
	},
	func(r *rand.Rand, s map[string]any) {
		c := prop(s, "properties", "c")
		c["anyOf"] = c["anyOf"].([]any)[:1]
	},
	func(r *rand.Rand, s map[string]any) {
		c := prop(s, "properties", "c")
		c["oneOf"] = append(c["anyOf"].([]any), obj())
		delete(c, "anyOf")
	},
	func(r *rand.Rand, s map[string]any) {
		d := prop(s, "properties", "d")
		d["oneOf"] = append(d["oneOf"].([]any), pick[any](r, obj(), obj("type", "string", "minLength", num(2)), obj("type", "integer")))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "d")["oneOf"].([]any)[0].(map[string]any)["maxLength"] = num(1 + r.IntN(3))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "e")["allOf"].([]any)[1].(map[string]any)["maximum"] = num(50 + r.IntN(100))
	},
	func(r *rand.Rand, s map[string]any) {
		e := prop(s, "properties", "e")
		e["allOf"] = append(e["allOf"].([]any), obj("minimum", num(0)))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "$defs", "F", "properties", "u")["maxLength"] = num(3 + r.IntN(6))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "$defs", "F", "properties", "v")["maximum"] = num(40 + r.IntN(20))
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "$defs", "F")["required"] = []any{"u"} },
	func(r *rand.Rand, s map[string]any) { prop(s, "$defs", "F")["additionalProperties"] = false },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "g")["prefixItems"].([]any)[0].(map[string]any)["type"] = "integer"
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "g", "items")["type"] = "string" },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "g")["maxItems"] = num(1 + r.IntN(2)) },
	func(r *rand.Rand, s map[string]any) {
		g := prop(s, "properties", "g")
		g["prefixItems"] = append(g["prefixItems"].([]any), obj("type", "boolean"))
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "h", "then")["required"] = []any{"x", "y"} },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "h", "if", "properties", "kind")["const"] = "y"
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "h")["else"] = obj("required", []any{"z"}) },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "i")["not"] = pick[any](r, obj("type", []any{"null", "boolean"}), obj("type", "string"))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "j", "dependentSchemas", "p")["required"] = []any{"q", "r"}
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "j", "dependentSchemas")["r"] = obj("required", []any{"p"})
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "k", "patternProperties", "^s_")["type"] = "integer"
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "k")["additionalProperties"] = false },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "l", "propertyNames")["maxLength"] = num(2 + r.IntN(3))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "l", "propertyNames")["pattern"] = "^[a-z]+$"
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "m")["unevaluatedProperties"] = pick[any](r, false, obj("type", "string"))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties")["n"] = pick[any](r, false, obj("type", "string"))
	},
	func(r *rand.Rand, s map[string]any) { s["required"] = []any{pick(r, "a", "b", "f")} },
	func(r *rand.Rand, s map[string]any) { s["additionalProperties"] = false },
	func(r *rand.Rand, s map[string]any) { s["maxProperties"] = num(2 + r.IntN(2)) },
	func(r *rand.Rand, s map[string]any) { s["not"] = obj("required", []any{"zz"}) },
	func(r *rand.Rand, s map[string]any) { delete(prop(s, "properties"), pick(r, "a", "b", "n")) },
	func(r *rand.Rand, s map[string]any) { delete(prop(s, "$defs", "F", "properties"), "v") },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties")["zz"] = obj("type", "string")
		req, _ := s["required"].([]any)
		s["required"] = append(req, "zz")
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "b")["deprecated"] = true
		delete(prop(s, "properties"), "b")
	},
}

var legacyEdits = []edit{
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "a")["maxLength"] = num(5 + r.IntN(10)) },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "g")["items"].([]any)[0].(map[string]any)["type"] = "integer"
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "g", "additionalItems")["type"] = "string"
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "g")["additionalItems"] = false },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "definitions", "F", "properties", "u")["maxLength"] = num(3 + r.IntN(6))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "j", "dependencies", "p")["required"] = []any{"q", "r"}
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "j", "dependencies")["p"] = []any{"q"} },
	func(r *rand.Rand, s map[string]any) { s["additionalProperties"] = false },
}

// applyEdit applies one edit, or none when an earlier edit took away
// what it edits (a keyword replaced by false).
func applyEdit(e edit, r *rand.Rand, s map[string]any) {
	defer func() { _ = recover() }()
	e(r, s)
}

// tokens splits a schema pointer (relative to the schema's root).
func tokens(t *testing.T, ptr string) []string {
	p, err := jsonptr.Parse(ptr)
	if err != nil {
		t.Fatalf("pointer %q: %v", ptr, err)
	}
	return p.Tokens()
}

// replace sets (v != nil, del false) or deletes the value at toks in root,
// creating objects on the way; insert adds an array element.
func replace(root any, toks []string, v any, del, insert bool) bool {
	if len(toks) == 0 {
		return false
	}
	parent, ok := jsonptr.Lookup(root, toks[:len(toks)-1])
	if !ok {
		// create the missing objects
		cur := root
		for _, tok := range toks[:len(toks)-1] {
			m, ok := cur.(map[string]any)
			if !ok {
				return false
			}
			if _, ok := m[tok]; !ok {
				m[tok] = map[string]any{}
			}
			cur = m[tok]
		}
		parent = cur
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		if del {
			delete(p, last)
		} else {
			p[last] = v
		}
		return true
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i > len(p) {
			return false
		}
		gp, _ := jsonptr.Lookup(root, toks[:len(toks)-2])
		key := toks[len(toks)-2]
		switch {
		case insert:
			p = slices.Insert(p, i, v)
		case del && i < len(p):
			p = slices.Delete(p, i, i+1)
		case i < len(p):
			p[i] = v
		case !del:
			p = append(p, v)
		default:
			return false
		}
		switch g := gp.(type) {
		case map[string]any:
			g[key] = p
		default:
			return false
		}
		return true
	}
	return false
}

// singleChange is base with only one change of the diff applied: the head
// value at the change's head pointer put at its base pointer (a branch
// added or removed as that one element; a renamed property moved).
func singleChange(t *testing.T, baseSrc string, head map[string]any, bp, hp string) (map[string]any, bool) {
	b := decodeSchema(t, baseSrc)
	bt, ht := tokens(t, bp), tokens(t, hp)
	if len(bt) >= 2 {
		// a keyword added to a true schema: true is {}
		if v, ok := jsonptr.Lookup(b, bt[:len(bt)-1]); ok && v == true {
			replace(b, bt[:len(bt)-1], map[string]any{}, false, false)
		}
	}
	hv, hok := jsonptr.Lookup(head, ht)
	_, bok := jsonptr.Lookup(b, bt)
	_, bInHead := jsonptr.Lookup(head, bt)
	_, hInBase := jsonptr.Lookup(b, ht)
	isIndex := func(s string) bool { _, err := strconv.Atoi(s); return err == nil }
	switch {
	case len(ht) == len(bt)+1 && slices.Equal(ht[:len(bt)], bt) && isIndex(ht[len(ht)-1]) && hok:
		return b, replace(b, ht, hv, false, true) // branch added
	case len(bt) == len(ht)+1 && slices.Equal(bt[:len(ht)], ht) && isIndex(bt[len(bt)-1]):
		return b, replace(b, bt, nil, true, false) // branch removed
	case len(ht) > 0 && isIndex(ht[len(ht)-1]) && hok && !hInBase && isArrayAt(b, ht[:len(ht)-1]):
		return b, replace(b, ht, hv, false, true) // branch added, the list pointer elsewhere
	case bp != hp && bok && hok && !bInHead && !hInBase:
		return b, replace(b, bt, nil, true, false) && replace(b, ht, hv, false, false) // renamed
	case hok:
		if len(bt) == 0 {
			return copyAny(hv).(map[string]any), true
		}
		return b, replace(b, bt, copyAny(hv), false, false)
	case bok:
		return b, len(bt) > 0 && replace(b, bt, nil, true, false)
	}
	return nil, false
}

// requiredChange is singleChange for a property that became required or
// optional (its finding points at the property; the change is in the
// object's required list): the name added to or dropped from it.
func requiredChange(one, head map[string]any, bp, hp string) bool {
	toks := strings.Split(strings.TrimPrefix(hp, "/"), "/")
	if len(toks) < 2 || toks[len(toks)-2] != "properties" {
		return false
	}
	name := jsonptr.Unescape(toks[len(toks)-1])
	objToks := toks[:len(toks)-2]
	hObj, ok1 := jsonptr.Lookup(head, objToks)
	bObj, ok2 := jsonptr.Lookup(one, objToks)
	hm, ok3 := hObj.(map[string]any)
	bm, ok4 := bObj.(map[string]any)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return false
	}
	hreq, _ := hm["required"].([]any)
	breq, _ := bm["required"].([]any)
	breq = slices.DeleteFunc(slices.Clone(breq), func(x any) bool { return x == name })
	if slices.Contains(hreq, any(name)) {
		breq = append(breq, name)
	}
	bm["required"] = breq
	return true
}

// changeOnly compiles src with one finding's change applied from other
// (see singleChange), or nil.
func changeOnly(t *testing.T, src string, other map[string]any, rule, bp, hp string) *jsonschema.Schema {
	one, ok := singleChange(t, src, other, bp, hp)
	if ok && !strings.HasSuffix(hp, "/required") && (strings.Contains(rule, "required") || strings.Contains(rule, "became-optional")) {
		ok = requiredChange(one, other, bp, hp)
	}
	if !ok {
		return nil
	}
	return compileOrNil(t, one)
}

func isArrayAt(v any, toks []string) bool {
	x, ok := jsonptr.Lookup(v, toks)
	_, arr := x.([]any)
	return ok && arr
}

func copyAny(v any) any {
	raw, _ := json.Marshal(v)
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	var out any
	_ = d.Decode(&out)
	return out
}

func compileOrNil(t *testing.T, s map[string]any) *jsonschema.Schema {
	raw, _ := json.Marshal(s)
	sch, _ := schematest.Compile(raw)
	return sch
}

// TestWitnessAttribution applies two or three random edits to schemas of
// every shape the search walks through, and for every witness the diff
// emits applies ONLY that finding's change to base: a witness of change C
// must tell base from base+C the same way (input: base+C rejects it;
// output: base+C accepts it). A witness that does not is another change's
// proof attached to this finding.
func TestWitnessAttribution(t *testing.T) {
	cases := caseCount(400, 100)
	r := rand.New(rand.NewPCG(21, 7))
	var witnesses, raised, separated, joint, unbuilt int
	byRule := map[string]int{}
	for i := 0; i < cases; i++ {
		src, edits := reviewBase, reviewEdits
		if i%5 == 4 {
			src, edits = reviewLegacy, legacyEdits
		}
		head := decodeSchema(t, src)
		for n := 2 + r.IntN(2); n > 0; n-- {
			applyEdit(edits[r.IntN(len(edits))], r, head)
		}
		hb, _ := json.Marshal(head)
		bb, _ := json.Marshal(decodeSchema(t, src))
		tool := func(s []byte) string {
			return `{"name":"t","inputSchema":` + string(s) + `,"outputSchema":` + string(s) + `}`
		}
		res := Diff(snapshotOf(t, tool(bb)), snapshotOf(t, tool(hb)), Options{})
		for _, f := range res.Findings {
			if f.Witness == nil {
				continue
			}
			byRule[f.Rule]++
			witnesses++
			if !sendsOwnValue(f) {
				t.Errorf("case %d: %s %s (%s): witness %s does not send the value the finding names", i, f.Rule, f.Pointer, f.Message, f.Witness.Value)
			}
			if strings.HasSuffix(f.Message, "; proven by a witness") {
				raised++
				t.Logf("case %d: raised %s %s %s: %s", i, f.Rule, f.Pointer, f.Message, f.Witness.Value)
			}
			key := "/" + strings.Split(strings.TrimPrefix(f.Pointer, "/"), "/")[0]
			bp, hp := strings.TrimPrefix(f.BasePointer, key), strings.TrimPrefix(f.HeadPointer, key)
			plus := changeOnly(t, src, head, f.Rule, bp, hp)
			minus := changeOnly(t, string(hb), decodeSchema(t, src), f.Rule, hp, bp)
			if plus == nil || minus == nil {
				t.Logf("case %d: %s %s %s: no single-change schema", i, f.Rule, f.BasePointer, f.HeadPointer)
				unbuilt++
				continue
			}
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(f.Witness.Value)))
			if err != nil {
				t.Fatal(err)
			}
			// input: base+C rejects it (C suffices), head-C accepts it
			// (C is needed); output the other way round.
			input := f.Witness.Accepts == finding.SideBase
			sufficient := (plus.Validate(inst) == nil) != input
			needed := (minus.Validate(inst) == nil) == input
			switch {
			case sufficient:
				separated++
			case needed:
				joint++
				t.Logf("case %d: %s %s: witness %s needs this change and another together", i, f.Rule, f.Pointer, f.Witness.Value)
			default:
				t.Errorf("case %d: %s %s (%s): witness %s is neither rejected for this change alone nor needs it\nhead %s\n%s", i, f.Rule, f.Pointer, f.Message, f.Witness.Value, hb, render(res.Findings))
			}
		}
	}
	t.Logf("%d cases: %d witnesses (%d raised from risky): %d tell base from base+change, %d need the change with another, %d single-change schemas not built", cases, witnesses, raised, separated, joint, unbuilt)
	t.Logf("witnesses by rule: %v", byRule)
	if witnesses == 0 || separated < witnesses*9/10 {
		t.Errorf("%d witnesses, %d separated: the review needs most witnesses checked", witnesses, separated)
	}
}

// BenchmarkDiffWitness is BenchmarkDiff at 5,000 tools alone (it builds no
// larger snapshot), to measure what the witness search adds.
func BenchmarkDiffWitness(b *testing.B) {
	base, head := synthetic(b, 5000, false), synthetic(b, 5000, true)
	b.ReportAllocs()
	for b.Loop() {
		Diff(base, head, Options{})
	}
}
