package diff

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-surface/mcp-surface/internal/testkit/schematest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Base schemas the property test edits.
const (
	propFlat = `{"type":"object","required":["n"],"properties":{
		"n":{"type":"integer","minimum":0,"maximum":10},
		"s":{"type":"string","minLength":1,"maxLength":8,"pattern":"^[a-z.]+$"},
		"e":{"enum":["a","b","c"]},
		"arr":{"type":"array","items":{"type":"integer"},"maxItems":4},
		"u":{"anyOf":[{"type":"string"},{"type":"integer"}]},
		"o":{"oneOf":[{"type":"string"},{"type":"boolean"}]}}}`
	propNested = `{"type":"object","properties":{"list":{"type":"array","items":{"$ref":"#/$defs/I"}}},
		"$defs":{"I":{"type":"object","properties":{"k":{"type":"string","maxLength":5},"v":{"type":"integer","minimum":1}},"required":["k"]}}}`
)

// edit is one change to a decoded schema.
type edit func(r *rand.Rand, s map[string]any)

func prop(s map[string]any, path ...string) map[string]any {
	cur := s
	for _, p := range path {
		cur = cur[p].(map[string]any)
	}
	return cur
}

func num(n int) json.Number { return json.Number(strconv.Itoa(n)) }

var flatEdits = []edit{
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "n")["minimum"] = num(r.IntN(4)) },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "n")["maximum"] = num(7 + r.IntN(6)) },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "n")["exclusiveMaximum"] = num(8 + r.IntN(4))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "n")["type"] = []string{"number", "string", "boolean"}[r.IntN(3)]
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "s")["minLength"] = num(r.IntN(4)) },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "s")["maxLength"] = num(4 + r.IntN(7)) },
	func(r *rand.Rand, s map[string]any) {
		pats := []string{"^[a-z.]+$", "^[a-z]+$", `^[a-z.]+\.png$`, "^[a-z.]*$", "[a-z]", "^[a-c.]+$", "^[a-z.]{2,}$"}
		prop(s, "properties", "s")["pattern"] = pats[r.IntN(len(pats))]
	},
	func(r *rand.Rand, s map[string]any) {
		var e []any
		for _, v := range []string{"a", "b", "c", "d"} {
			if r.IntN(3) > 0 {
				e = append(e, v)
			}
		}
		if len(e) > 0 {
			prop(s, "properties", "e")["enum"] = e
		}
	},
	func(r *rand.Rand, s map[string]any) {
		// the whole enum replaced: several values removed at once
		prop(s, "properties", "e")["enum"] = []any{[]string{"a", "d", "x"}[r.IntN(3)]}
	},
	func(r *rand.Rand, s map[string]any) {
		s["required"] = []any{"n", []string{"s", "e", "arr"}[r.IntN(3)]}
	},
	func(r *rand.Rand, s map[string]any) { s["required"] = []any{} },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "arr", "items")["type"] = []string{"number", "string"}[r.IntN(2)]
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "arr")["minItems"] = num(1 + r.IntN(2)) },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "arr")["maxItems"] = num(1 + r.IntN(6)) },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "arr")["uniqueItems"] = true },
	func(r *rand.Rand, s map[string]any) { s["additionalProperties"] = false },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "properties", "u")["anyOf"] = []any{map[string]any{"type": []string{"string", "integer"}[r.IntN(2)]}}
	},
	func(r *rand.Rand, s map[string]any) {
		u := prop(s, "properties", "u")
		u["anyOf"] = append(u["anyOf"].([]any), map[string]any{"type": "boolean"})
	},
	func(r *rand.Rand, s map[string]any) {
		o := prop(s, "properties", "o")
		extra := []any{map[string]any{}, map[string]any{"type": "integer"}, map[string]any{"type": "string", "minLength": num(2)}}
		o["oneOf"] = append(o["oneOf"].([]any), extra[r.IntN(len(extra))])
	},
}

var nestedEdits = []edit{
	func(r *rand.Rand, s map[string]any) {
		prop(s, "$defs", "I", "properties", "k")["maxLength"] = num(2 + r.IntN(5))
	},
	func(r *rand.Rand, s map[string]any) {
		prop(s, "$defs", "I", "properties", "v")["minimum"] = num(r.IntN(4))
	},
	func(r *rand.Rand, s map[string]any) { prop(s, "$defs", "I")["required"] = []any{"k", "v"} },
	func(r *rand.Rand, s map[string]any) { prop(s, "$defs", "I")["additionalProperties"] = false },
	func(r *rand.Rand, s map[string]any) { prop(s, "properties", "list")["maxItems"] = num(1) },
	func(r *rand.Rand, s map[string]any) {
		prop(s, "$defs", "I", "properties", "k")["pattern"] = []string{"^[a-z]*$", "^x", "[0-9]"}[r.IntN(3)]
	},
}

func decodeSchema(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// plainValidator compiles a schema with the validator's defaults (2020-12,
// Go regexps: the property test's patterns mean the same in both engines),
// sharing nothing with pkg/diff/witness.
func plainValidator(t *testing.T, schema []byte) *jsonschema.Schema {
	t.Helper()
	sch, err := schematest.Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// sample is a random instance for the property test's schemas: typed
// leaves near the bounds the edits use, optional members left out,
// sometimes an extra one; independent of the witness generator.
func sample(r *rand.Rand, depth int) any {
	switch k := r.IntN(9); {
	case depth > 2 || k < 2:
		return []any{nil, true, false, json.Number("0.5")}[r.IntN(4)]
	case k < 4:
		return num(r.IntN(16) - 2)
	case k < 6:
		alpha := "abcdx.-_0"
		var b strings.Builder
		for n := r.IntN(12); n > 0; n-- {
			b.WriteByte(alpha[r.IntN(len(alpha))])
		}
		if r.IntN(4) == 0 {
			b.WriteString(".png")
		}
		return b.String()
	case k < 7:
		var a []any
		for n := r.IntN(5); n > 0; n-- {
			a = append(a, sample(r, depth+1))
		}
		return a
	}
	o := map[string]any{}
	for _, p := range []string{"n", "s", "e", "arr", "u", "o", "list", "k", "v", "x"} {
		if r.IntN(3) == 0 {
			o[p] = sample(r, depth+1)
		}
	}
	return o
}

// sampleFor is sample shaped like the schema: an object with some of its
// properties (list items objects), so that valid instances are common.
func sampleFor(r *rand.Rand, nested bool) any {
	o := map[string]any{}
	if nested {
		var list []any
		for n := r.IntN(3); n > 0; n-- {
			it := map[string]any{"k": sample(r, 2)}
			if s, ok := sample(r, 1).(string); ok {
				it["k"] = s
			}
			if r.IntN(2) == 0 {
				it["v"] = num(r.IntN(5))
			}
			if r.IntN(8) == 0 {
				it["x"] = "y"
			}
			list = append(list, it)
		}
		o["list"] = list
		return o
	}
	o["n"] = num(r.IntN(13) - 1)
	for _, p := range []string{"s", "e", "arr", "u", "o"} {
		if r.IntN(2) == 0 {
			o[p] = sample(r, 1)
		}
	}
	if r.IntN(2) == 0 {
		o["e"] = []string{"a", "b", "c", "d"}[r.IntN(4)]
	}
	if r.IntN(8) == 0 {
		o["x"] = "y"
	}
	return o
}

// caseCount is how many cases a randomized test runs: full, or short
// under -short.
func caseCount(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// TestWitnessProperty edits the base schemas at random (seeded), diffs the
// tool whose inputSchema and outputSchema both change, and checks that
// (a) every witness validates as it claims under a fresh validator, and
// (b) whenever a random sampler finds an instance the compatible side
// accepts and the other rejects, the diff has an error with a witness on
// that schema.
func TestWitnessProperty(t *testing.T) {
	cases := caseCount(240, 60)
	r := rand.New(rand.NewPCG(21, 2026))
	var witnesses, wrong, neighbours, broken, missed int
	for i := 0; i < cases; i++ {
		nested := i%4 == 3
		src, edits := propFlat, flatEdits
		if nested {
			src, edits = propNested, nestedEdits
		}
		head := decodeSchema(t, src)
		for n := 1 + r.IntN(2); n > 0; n-- {
			edits[r.IntN(len(edits))](r, head)
		}
		hb, _ := json.Marshal(head)
		bb, _ := json.Marshal(decodeSchema(t, src))
		tool := func(s []byte) string {
			return `{"name":"t","inputSchema":` + string(s) + `,"outputSchema":` + string(s) + `}`
		}
		res := Diff(snapshotOf(t, tool(bb)), snapshotOf(t, tool(hb)), Options{})
		proven := map[string]bool{}
		for _, f := range res.Findings {
			if f.Witness == nil {
				continue
			}
			witnesses++
			key := strings.Split(strings.TrimPrefix(f.Pointer, "/"), "/")[0]
			proven[key] = true
			bv, hv := plainValidator(t, bb), plainValidator(t, hb)
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(f.Witness.Value)))
			if err != nil {
				t.Fatal(err)
			}
			bOK, hOK := bv.Validate(inst) == nil, hv.Validate(inst) == nil
			wantBase := f.Witness.Accepts == finding.SideBase
			if !sendsOwnValue(f) {
				neighbours++
				t.Errorf("case %d: %s %s (%s): witness %s does not send the value the finding names", i, f.Rule, f.Pointer, f.Message, f.Witness.Value)
			}
			if bOK != wantBase || hOK == wantBase || f.Level != rules.LevelError || (key == "inputSchema") != wantBase {
				wrong++
				t.Errorf("case %d: %s %s: witness %s accepts=%s; base valid %v, head valid %v\nhead %s", i, f.Rule, f.Pointer, f.Witness.Value, f.Witness.Accepts, bOK, hOK, hb)
			}
		}
		bv, hv := plainValidator(t, bb), plainValidator(t, hb)
		var inBreak, outBreak any
		for s := 0; s < 300 && (inBreak == nil || outBreak == nil); s++ {
			inst := sampleFor(r, nested)
			bOK, hOK := bv.Validate(inst) == nil, hv.Validate(inst) == nil
			if bOK && !hOK && inBreak == nil {
				inBreak = inst
			}
			if hOK && !bOK && outBreak == nil {
				outBreak = inst
			}
		}
		for key, inst := range map[string]any{"inputSchema": inBreak, "outputSchema": outBreak} {
			if inst == nil {
				continue
			}
			broken++
			if !proven[key] {
				missed++
				raw, _ := json.Marshal(inst)
				t.Errorf("case %d: %s: the sampler found %s, the diff has no error with a witness\nhead %s\n%s", i, key, raw, hb, render(res.Findings))
			}
		}
	}
	t.Logf("%d cases: %d witnesses emitted, %d wrong, %d proving another finding; %d breaking schema pairs found by sampling, %d without a witnessed error", cases, witnesses, wrong, neighbours, broken, missed)
}

// sendsOwnValue reports whether a witness of a finding that names a value
// (an enum value removed or added, null no longer or now allowed) sends
// that value where the finding is: "enum value "b" removed" is proven by a
// call with "b", not by one with "a" (which proves its neighbour). Other
// findings, and pointers this check cannot follow to an instance location,
// pass.
func sendsOwnValue(f finding.Finding) bool {
	var want any
	switch f.Rule {
	case rules.InputEnumValueRemoved:
		want = f.Before
	case rules.OutputEnumValueAdded:
		want = f.After
	case rules.InputBecameNotNullable, rules.OutputBecameNullable:
		want = json.RawMessage("null")
	default:
		return true
	}
	toks := strings.Split(strings.TrimPrefix(f.Pointer, "/"), "/")[1:]
	var inst any
	if json.Unmarshal(f.Witness.Value, &inst) != nil {
		return false
	}
	for len(toks) >= 2 && toks[0] == "properties" {
		o, ok := inst.(map[string]any)
		if !ok {
			return false
		}
		inst = o[toks[1]]
		toks = toks[2:]
	}
	if len(toks) == 0 || !slices.Contains([]string{"enum", "type", "anyOf", "oneOf"}, toks[0]) {
		return true // not a location this check follows
	}
	var w any
	if json.Unmarshal(want.(json.RawMessage), &w) != nil {
		return true
	}
	return reflect.DeepEqual(inst, w)
}
