package schemadiff

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var (
	propertyCount   = flag.Int("property.count", 0, "pairs TestVerdictAgreesWithValidator generates (0: the bounded default)")
	propertySeed    = flag.Int64("property.seed", 13, "seed of TestVerdictAgreesWithValidator")
	propertyVerbose = flag.Bool("property.verbose", false, "log samples of comparisons flagged without a witness")
)

// caseCount is how many cases a property test generates: full, or short
// under -short; -property.count, when set, overrides both.
func caseCount(full, short int) int {
	switch {
	case *propertyCount > 0:
		return *propertyCount
	case testing.Short():
		return short
	}
	return full
}

// TestVerdictAgreesWithValidator generates a small schema, derives a
// variant by one edit of a known class (narrowing, widening, a union added
// where there was none, an overlapping oneOf branch, a tautology, a union
// wrapped in a single-branch anyOf), and checks the verdict against a JSON
// Schema validator run on generated instances: a value valid under base
// but not head must give a risky or worse input finding, a value valid
// under head but not base a risky or worse output finding, and a
// tautology edit no finding above info at all.
func TestVerdictAgreesWithValidator(t *testing.T) {
	n := caseCount(1500, 300)
	g := &propGen{r: rand.New(rand.NewSource(*propertySeed))}
	type tally struct{ pairs, witnessed, missed, strictOnly, falseAlarm, noWitness int }
	byEdit := map[string]*tally{}
	logged := 0
	for i := 0; i < n; i++ {
		base := g.schema(3)
		edit, head := g.edit(base)
		bb, _ := json.Marshal(base)
		hb, _ := json.Marshal(head)
		bs, hs := compileForTest(t, bb), compileForTest(t, hb)
		lost, gained := g.separate(base, head, bs, hs)
		tl := byEdit[edit]
		if tl == nil {
			tl = &tally{}
			byEdit[edit] = tl
		}
		for _, d := range []struct {
			dir     Direction
			witness string
		}{{Input, lost}, {Output, gained}} {
			got := Compare(bb, hb, d.dir, Options{})
			unsafe, strict := false, false
			for _, c := range got {
				unsafe = unsafe || unsafeRule(c.Rule)
				strict = strict || unprovenRule(c.Rule)
			}
			tl.pairs++
			if d.witness != "" {
				tl.witnessed++
			} else if unsafe {
				// flagged although no generated value tells the sides
				// apart: caution or a value the generator never made
				tl.noWitness++
				if *propertyVerbose && tl.noWitness <= 3 {
					t.Logf("flagged without a witness (%s, %s)\nbase %s\nhead %s\n%s", edit, d.dir, bb, hb, messages(got))
				}
			}
			bad := ""
			switch {
			case d.witness != "" && !unsafe && strict:
				// reported, but by a rule the default profile calls minor
				// (the "strict" tag): a documented convention, counted apart
				tl.strictOnly++
			case d.witness != "" && !unsafe:
				tl.missed++
				bad = fmt.Sprintf("%s: value %s is valid under one side only, yet no risky finding", d.dir, d.witness)
			case strings.HasPrefix(edit, "tautology") && len(got) > 0 && !onlyInfo(got):
				tl.falseAlarm++
				bad = fmt.Sprintf("%s: a tautology edit gave findings", d.dir)
			}
			if bad != "" && logged < 20 {
				logged++
				t.Logf("%s (%s)\nbase %s\nhead %s\n%s", bad, edit, bb, hb, messages(got))
			}
		}
	}
	edits := make([]string, 0, len(byEdit))
	for e := range byEdit {
		edits = append(edits, e)
	}
	sort.Strings(edits)
	total, missed, alarms, strictOnly, noWitness := 0, 0, 0, 0, 0
	for _, e := range edits {
		tl := byEdit[e]
		total += tl.pairs
		missed += tl.missed
		alarms += tl.falseAlarm
		strictOnly += tl.strictOnly
		noWitness += tl.noWitness
		t.Logf("%-24s comparisons %5d  with a witness %5d  missed %3d  strict-only %3d  tautology alarms %3d  flagged without a witness %4d",
			e, tl.pairs, tl.witnessed, tl.missed, tl.strictOnly, tl.falseAlarm, tl.noWitness)
	}
	t.Logf("flagged risky or worse without a witness: %d of %d comparisons", noWitness, total)
	t.Logf("reported only under the strict profile: %d of %d comparisons", strictOnly, total)
	t.Logf("disagreement: %d of %d comparisons (%.2f%%)", missed+alarms, total, 100*float64(missed+alarms)/float64(max(total, 1)))
	if missed+alarms > 0 {
		t.Errorf("%d comparisons disagree with the validator", missed+alarms)
	}
}

func onlyInfo(cs []Change) bool {
	for _, c := range cs {
		if !strings.HasSuffix(c.Rule, "-schema-equivalent-rewrite") && !strings.HasSuffix(c.Rule, "-wrapped-in-composition") {
			return false
		}
	}
	return true
}

func compileForTest(t *testing.T, b []byte) *jsonschema.Schema {
	t.Helper()
	s, err := schematest.Compile(b)
	if err != nil {
		t.Fatalf("compile %s: %v", b, err)
	}
	return s
}

func tryCompile(b []byte) *jsonschema.Schema {
	s, _ := schematest.Compile(b)
	return s
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// toInstance turns a generated Go value into the validator's form
// (numbers as json.Number).
func toInstance(v any) any {
	b, _ := json.Marshal(v)
	x, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	return x
}

func fixedInstances() []any {
	var out []any
	for _, s := range []string{`null`, `true`, `false`, `0`, `1`, `-1`, `2.5`, `""`, `"a"`, `"abc"`, `"abcdef"`,
		`[]`, `["a"]`, `[1,2,3]`, `{}`, `{"a":1}`, `{"a":"x","b":"y"}`, `{"page_id":"x","type":"page_id"}`,
		`{"a":null}`, `{"x":true}`, `[null]`, `[{}]`} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(s))
		out = append(out, v)
	}
	return out
}

// propGen makes small schemas in the subset whose meaning the validator
// and the engine both know, edits of them, and instances.
type propGen struct{ r *rand.Rand }

type obj = map[string]any

func (g *propGen) pick(xs ...any) any { return xs[g.r.Intn(len(xs))] }

var propNames = []string{"a", "b", "c"}

func (g *propGen) schema(depth int) obj {
	if depth <= 0 || g.r.Intn(3) == 0 {
		return g.leaf()
	}
	switch g.r.Intn(6) {
	case 0, 1:
		props := obj{}
		var req []any
		for _, p := range propNames {
			if g.r.Intn(2) == 0 {
				props[p] = g.schema(depth - 1)
				if g.r.Intn(3) == 0 {
					req = append(req, p)
				}
			}
		}
		s := obj{"type": "object", "properties": props}
		if len(req) > 0 {
			s["required"] = req
		}
		if g.r.Intn(4) == 0 {
			s["additionalProperties"] = false
		}
		return s
	case 2:
		s := obj{"type": "array", "items": g.schema(depth - 1)}
		if g.r.Intn(3) == 0 {
			s["maxItems"] = 1 + g.r.Intn(2)
		}
		return s
	case 3, 4:
		var br []any
		for i := 0; i < 2+g.r.Intn(2); i++ {
			br = append(br, g.schema(depth-1))
		}
		return obj{g.pick("anyOf", "oneOf").(string): br}
	default:
		return obj{}
	}
}

func (g *propGen) leaf() obj {
	switch g.r.Intn(8) {
	case 0:
		s := obj{"type": "string"}
		if g.r.Intn(2) == 0 {
			s["maxLength"] = 1 + g.r.Intn(4)
		}
		return s
	case 1:
		s := obj{"type": g.pick("integer", "number").(string)}
		if g.r.Intn(2) == 0 {
			s["minimum"] = g.r.Intn(2)
		}
		return s
	case 2:
		return obj{"enum": []any{"a", "b", g.pick("c", 1, nil)}}
	case 3:
		return obj{"type": "boolean"}
	case 4:
		return obj{"type": "null"}
	case 5:
		return obj{"type": "object", "required": []any{g.pick("a", "b").(string)}}
	case 6:
		return obj{"type": "object"}
	default:
		return obj{}
	}
}

func clone(v any) any {
	switch x := v.(type) {
	case obj:
		out := obj{}
		for k, e := range x {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

// subschemas lists the schema locations of s (s itself first) as setters,
// so an edit can replace one of them.
func subschemas(s obj) []obj {
	out := []obj{s}
	if ps, ok := s["properties"].(obj); ok {
		for _, k := range slices.Sorted(maps.Keys(ps)) {
			if c, ok := ps[k].(obj); ok {
				out = append(out, subschemas(c)...)
			}
		}
	}
	if it, ok := s["items"].(obj); ok {
		out = append(out, subschemas(it)...)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if l, ok := s[k].([]any); ok {
			for _, e := range l {
				if c, ok := e.(obj); ok {
					out = append(out, subschemas(c)...)
				}
			}
		}
	}
	return out
}

// replaceIn empties dst and copies src's keywords into it (an in-place
// edit of one location of the cloned schema).
func replaceIn(dst, src obj) {
	for k := range dst {
		delete(dst, k)
	}
	for k, v := range src {
		dst[k] = v
	}
}

func closedShape(names ...string) obj {
	props := obj{}
	for _, n := range names {
		props[n] = obj{"type": "integer"}
	}
	return obj{"type": "object", "properties": props, "additionalProperties": false}
}

// edit returns the edit's class and the edited copy of s.
func (g *propGen) edit(s obj) (string, obj) {
	h := clone(s).(obj)
	locs := subschemas(h)
	at := locs[g.r.Intn(len(locs))]
	switch g.r.Intn(10) {
	case 0: // narrow
		switch g.r.Intn(4) {
		case 0:
			at["maxLength"] = g.r.Intn(2)
		case 1:
			at["required"] = []any{g.pick("a", "b", "c").(string)}
		case 2:
			at["additionalProperties"] = false
		default:
			at["type"] = g.pick("string", "object", "integer")
		}
		return "narrow", h
	case 1: // widen
		ks := slices.Sorted(maps.Keys(at))
		if len(ks) == 0 {
			at["description"] = "x"
			return "widen", h
		}
		delete(at, ks[g.r.Intn(len(ks))])
		return "widen", h
	case 2: // a union where there was none
		if _, ok := at["anyOf"]; ok {
			return "composition-add", h
		}
		if _, ok := at["oneOf"]; ok {
			return "composition-add", h
		}
		kind := g.pick("anyOf", "oneOf").(string)
		switch g.r.Intn(3) {
		case 0:
			at[kind] = []any{closedShape("id", "value"), closedShape("name", "value")}
		case 1:
			at[kind] = []any{obj{"type": "string"}, obj{"type": "number"}, obj{"type": "boolean"}, obj{"type": "array", "items": obj{"type": "string"}}, obj{"type": "null"}}
		default:
			at[kind] = []any{clone(at), g.leaf()}
		}
		return "composition-add", h
	case 3: // a oneOf whose branches may overlap
		switch g.r.Intn(3) {
		case 0:
			replaceIn(at, obj{"oneOf": []any{obj{"required": []any{"a"}}, obj{"required": []any{"b"}}, obj{"required": []any{"type"}}}})
		case 1:
			if l, ok := at["oneOf"].([]any); ok {
				at["oneOf"] = append(l, obj{})
			} else {
				at["oneOf"] = []any{clone(at), obj{"type": "object"}}
			}
		default:
			if l, ok := at["oneOf"].([]any); ok && len(l) > 0 {
				l[0] = obj{}
			} else {
				replaceIn(at, obj{"oneOf": []any{clone(at), g.leaf()}})
			}
		}
		return "oneof-overlap", h
	case 4: // tautology
		switch g.r.Intn(8) {
		case 0:
			at["minLength"] = 0
		case 1:
			at["minItems"] = 0
		case 2:
			at["propertyNames"] = obj{"type": "string"}
		case 3:
			if _, ok := at["additionalProperties"]; !ok {
				at["additionalProperties"] = true
			}
		case 4:
			if _, ok := at["items"]; !ok {
				at["items"] = obj{}
			}
		case 5:
			if at["type"] == nil {
				at["type"] = []any{"null", "boolean", "object", "array", "string", "number"}
			}
		case 6:
			if at["type"] == "integer" && at["minimum"] == nil {
				at["minimum"], at["maximum"] = -9007199254740991, 9007199254740991
			} else {
				at["minProperties"] = 0
			}
		default:
			inner := clone(at).(obj)
			replaceIn(at, obj{"not": obj{"not": inner}})
		}
		return "tautology", h
	case 8: // an optional property given a schema on an open object
		if at["additionalProperties"] == nil && at["type"] == "object" {
			ps, _ := at["properties"].(obj)
			if ps == nil {
				ps = obj{}
				at["properties"] = ps
			}
			if _, ok := ps["c"]; !ok {
				ps["c"] = obj{"type": "integer"}
			}
		}
		return "optional-property-added", h
	case 5: // a union moved into a single-branch anyOf
		for _, kind := range []string{"oneOf", "anyOf"} {
			if l, ok := at[kind]; ok {
				delete(at, kind)
				at["anyOf"] = []any{obj{kind: l}}
				return "tautology-wrap", h
			}
		}
		return "tautology-wrap", h
	default: // any random change
		return "random", g.mutateAny(h)
	}
}

func (g *propGen) mutateAny(h obj) obj {
	locs := subschemas(h)
	at := locs[g.r.Intn(len(locs))]
	switch g.r.Intn(5) {
	case 0:
		replaceIn(at, g.schema(2))
	case 1:
		at["enum"] = []any{"a", 1}
	case 2:
		at["minimum"] = 1
	case 3:
		for _, k := range []string{"anyOf", "oneOf"} {
			if l, ok := at[k].([]any); ok && len(l) > 1 {
				at[k] = l[1:]
				return h
			}
		}
		at["not"] = g.leaf()
	default:
		for _, k := range []string{"anyOf", "oneOf"} {
			if l, ok := at[k]; ok {
				delete(at, k)
				at[map[string]string{"anyOf": "oneOf", "oneOf": "anyOf"}[k]] = l
				return h
			}
		}
		at["maxItems"] = 0
	}
	return h
}

// instance makes a value that s probably accepts, with random deviations.
// separate runs the validator on instances drawn from base and head
// and on the fixed ones, and returns the first valid only under base
// (lost) and the first valid only under head (gained): the witnesses a
// comparison should find, "" where there is none.
func (g *propGen) separate(base, head obj, bs, hs *jsonschema.Schema) (lost, gained string) {
	var insts []any
	for k := 0; k < 24; k++ {
		insts = append(insts, g.instance(base, 3), g.instance(head, 3))
	}
	insts = append(insts, fixedInstances()...)
	for _, v := range insts {
		vb, vh := bs.Validate(v) == nil, hs.Validate(v) == nil
		if vb && !vh && lost == "" {
			lost = mustJSON(v)
		}
		if vh && !vb && gained == "" {
			gained = mustJSON(v)
		}
	}
	return lost, gained
}

func (g *propGen) instance(s obj, depth int) any {
	return toInstance(g.value(s, depth))
}

func (g *propGen) value(s obj, depth int) any {
	if g.r.Intn(8) == 0 || depth < 0 {
		return g.anyValue()
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if l, ok := s[k].([]any); ok && len(l) > 0 {
			a := g.value(asObj(l[g.r.Intn(len(l))]), depth-1)
			if g.r.Intn(3) == 0 {
				// merge two branches' objects to reach overlaps
				b := g.value(asObj(l[g.r.Intn(len(l))]), depth-1)
				if ma, ok := a.(obj); ok {
					if mb, ok := b.(obj); ok {
						for k, v := range mb {
							ma[k] = v
						}
					}
				}
			}
			return a
		}
	}
	if n, ok := s["not"].(obj); ok {
		if nn, ok := n["not"].(obj); ok {
			return g.value(nn, depth)
		}
	}
	if e, ok := s["enum"].([]any); ok {
		return e[g.r.Intn(len(e))]
	}
	t, _ := s["type"].(string)
	switch t {
	case "string":
		return g.pick("", "a", "ab", "abc", "abcde").(string)
	case "integer":
		return g.pick(0, 1, 2, -1).(int)
	case "number":
		return g.pick(0, 1, 2.5, -1)
	case "boolean":
		return g.r.Intn(2) == 0
	case "null":
		return nil
	case "array":
		var out []any
		it := asObj(s["items"])
		for i := 0; i < g.r.Intn(3); i++ {
			out = append(out, g.value(it, depth-1))
		}
		if out == nil {
			out = []any{}
		}
		return out
	case "object", "":
		if t == "" && g.r.Intn(3) == 0 {
			return g.anyValue()
		}
		out := obj{}
		ps, _ := s["properties"].(obj)
		for _, k := range slices.Sorted(maps.Keys(ps)) {
			if g.r.Intn(3) > 0 {
				out[k] = g.value(asObj(ps[k]), depth-1)
			}
		}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if r, ok := r.(string); ok {
					if _, ok := out[r]; !ok {
						out[r] = g.anyValue()
					}
				}
			}
		}
		if g.r.Intn(4) == 0 {
			out[g.pick("x", "id", "type", "name", "value", "a", "b").(string)] = g.pick(1, "v", nil)
		}
		return out
	}
	return g.anyValue()
}

// asObj reads a generated subschema; a boolean schema or anything else
// reads as {} (instances for it are random anyway).
func asObj(v any) obj {
	if o, ok := v.(obj); ok {
		return o
	}
	return obj{}
}

func (g *propGen) anyValue() any {
	return g.pick(nil, true, 0, 1, 2.5, "", "a", "abc", []any{}, []any{"a"}, obj{}, obj{"a": 1}, obj{"id": 1}, obj{"name": 1, "value": 2}, obj{"a": "x", "b": "y"})
}

// TestRandomSchemasAgainstValidator runs the validator check over the
// broader generator of random_test.go (refs, patterns, formats, nullable,
// not), whose mutations have no known class. Disagreements there are
// logged with their rate rather than failed on: they mark the classes the
// engine still judges by convention (see the test's log).
func TestRandomSchemasAgainstValidator(t *testing.T) {
	n := caseCount(600, 100)
	g := schemaGen{rand.New(rand.NewSource(*propertySeed))}
	pg := &propGen{r: rand.New(rand.NewSource(*propertySeed + 1))}
	total, witnessed, missed, logged := 0, 0, 0, 0
	for i := 0; i < n; i++ {
		a := g.doc()
		b := g.mutate(a, 0).(map[string]any)
		ab, _ := json.Marshal(a)
		bb, _ := json.Marshal(b)
		as, bs := tryCompile(ab), tryCompile(bb)
		if as == nil || bs == nil {
			continue // not a valid schema (the generator does not promise one)
		}
		lost, gained := pg.separate(a, b, as, bs)
		for _, d := range []struct {
			dir     Direction
			witness string
		}{{Input, lost}, {Output, gained}} {
			total++
			if d.witness == "" {
				continue
			}
			witnessed++
			got := Compare(ab, bb, d.dir, Options{})
			flagged := false
			for _, c := range got {
				flagged = flagged || unprovenRule(c.Rule)
			}
			if !flagged {
				missed++
				if logged < 10 {
					logged++
					t.Logf("%s: value %s valid under one side only, no risky finding\nbase %s\nhead %s\n%s", d.dir, d.witness, ab, bb, messages(got))
				}
			}
		}
	}
	t.Logf("random_test generator: %d comparisons, %d with a witness, %d disagree with the validator (%.2f%%)", total, witnessed, missed, 100*float64(missed)/float64(max(total, 1)))
	if missed > 0 {
		t.Errorf("%d comparisons disagree with the validator", missed)
	}
}
