package witness

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
)

// wideDoc is a schema of n properties of varied shapes, a $defs entry the
// properties refer to, additionalProperties false and a nested wide
// object: wide enough to be compiled per instance.
func wideDoc(n int) string {
	var ps []string
	for i := 0; i < n; i++ {
		var s string
		switch i % 5 {
		case 0:
			s = `{"type":"string","maxLength":3}`
		case 1:
			s = `{"type":"integer","minimum":2}`
		case 2:
			s = `{"$ref":"#/$defs/D"}`
		case 3:
			s = `{"$ref":"#/properties/p0"}`
		case 4:
			s = `{"type":"object","properties":{"a":{"type":"boolean"}},"additionalProperties":false}`
		}
		ps = append(ps, fmt.Sprintf(`"p%d":%s`, i, s))
	}
	return `{"type":"object","additionalProperties":false,"required":["p1"],"properties":{` + strings.Join(ps, ",") +
		`},"$defs":{"D":{"enum":["x","y"]}}}`
}

// A wide side validates every instance as the whole schema compiled at
// once does, errors at the same locations.
func TestWideSideAgreesWithWholeSchema(t *testing.T) {
	v, err := canonjson.Decode(json.RawMessage(wideDoc(2500)))
	if err != nil {
		t.Fatal(err)
	}
	w := newWideSide("base", v, "2020-12")
	if w == nil {
		t.Fatal("a 2,500-property schema is not wide")
	}
	if err := w.check(); err != nil {
		t.Fatal(err)
	}
	whole, err := compileSide("base", v, "2020-12")
	if err != nil {
		t.Fatal(err)
	}
	values := []string{`"a"`, `"abcd"`, `1`, `3`, `"x"`, `"z"`, `{"a":true}`, `{"b":1}`, `null`}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		var ms []string
		for j := 0; j < 1+r.IntN(3); j++ {
			name := fmt.Sprintf("p%d", r.IntN(2600)) // some not declared
			ms = append(ms, fmt.Sprintf("%q:%s", name, values[r.IntN(len(values))]))
		}
		inst, err := canonjson.Decode(json.RawMessage("{" + strings.Join(ms, ",") + "}"))
		if err != nil {
			continue // a repeated name
		}
		a, b := w.validate(inst), whole.validate(inst)
		if a.ok != b.ok || a.trusted != b.trusted || sortedLeaves(a.leaves) != sortedLeaves(b.leaves) {
			t.Fatalf("%v: wide %v %v, whole %v %v", ms, a.ok, a.leaves, b.ok, b.leaves)
		}
	}
}

// A wide side whose member does not conform to the metaschema is refused,
// as compiling it whole refuses it, though no instance would consult it.
func TestWideSideInvalidMember(t *testing.T) {
	doc := strings.Replace(wideDoc(2500), `"p7":{"$ref":"#/$defs/D"}`, `"p7":{"type":"strin"}`, 1)
	p := NewPair(json.RawMessage(wideDoc(2500)), json.RawMessage(doc), schemadiff.Input, Options{})
	if p.Err() == nil {
		t.Fatal("a wide schema with an invalid member compiled")
	}
}

// A search stopped by its budget says so; one that tried every candidate
// does not.
func TestSearchGaveUp(t *testing.T) {
	base := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)
	head := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1000000,"multipleOf":7}}}`)
	cs := schemadiff.Compare(base, head, schemadiff.Input, schemadiff.Options{})
	if len(cs) == 0 {
		t.Fatal("no change")
	}
	r := NewPair(base, head, schemadiff.Input, Options{Budget: 2}).Search(cs[0])
	if r.Found || r.GaveUp == "" {
		t.Errorf("budget 2: %+v, want a search that gave up", r)
	}
	none := json.RawMessage(`{"type":"object","properties":{"s":{"enum":["a","b"],"maxLength":8}}}`)
	tight := json.RawMessage(`{"type":"object","properties":{"s":{"enum":["a","b"],"maxLength":2}}}`)
	for _, c := range schemadiff.Compare(none, tight, schemadiff.Input, schemadiff.Options{}) {
		if r := NewPair(none, tight, schemadiff.Input, Options{}).Search(c); r.Found || r.GaveUp != "" {
			t.Errorf("%s: %+v, want a search that completed without a witness", c.Rule, r)
		}
	}
}

// sortedLeaves prints leaves in a fixed order (the validator visits a
// schema's properties in map order).
func sortedLeaves(ls []leaf) string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprint(l))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
