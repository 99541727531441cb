package schemadiff

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// disjointBranches are branch shapes disjoint() has a rule for, and near
// misses of them.
var disjointBranches = []string{
	`{"type":"string"}`,
	`{"type":"integer"}`,
	`{"type":"object"}`,
	`{"type":"string","maxLength":2}`,
	`{"type":"string","minLength":2}`,
	`{"type":"string","minLength":3}`,
	`{"type":"integer","maximum":0}`,
	`{"type":"integer","minimum":0}`,
	`{"type":"integer","exclusiveMinimum":0}`,
	`{"type":"number","exclusiveMaximum":1,"maximum":5}`,
	`{"type":"number","minimum":1}`,
	`{"type":"array","maxItems":1}`,
	`{"type":"array","minItems":2}`,
	`{"enum":["a","b"]}`,
	`{"enum":["b",1]}`,
	`{"const":1}`,
	`{"properties":{"kind":{"const":"a"}},"required":["kind"]}`,
	`{"properties":{"kind":{"const":"b"}},"required":["kind"]}`,
	`{"type":"object","properties":{"kind":{"const":"b"}},"required":["kind"]}`,
	`{"type":"object","properties":{"kind":{"enum":["a","c"]}},"required":["kind"]}`,
	`{"type":"object","properties":{"p":{"type":"string"}},"required":["p"],"additionalProperties":false}`,
	`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}`,
	`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`,
	`{"type":"object","properties":{"p":false}}`,
	`{"type":"object","properties":{"q":{}},"patternProperties":{"^p":{}},"additionalProperties":false}`,
	`{"type":["string","null"]}`,
	`{"type":"null"}`,
	`{"type":"object","allOf":[{"properties":{"kind":{"const":"a"}},"required":["kind"]}]}`,
	`{"anyOf":[{"type":"string"},{"type":"integer"}]}`,
	`{"oneOf":[{"type":"string"},{"type":"object"}]}`,
	`{"anyOf":[{"type":"string","minLength":3},{"type":"string","minLength":1}]}`,
	`{"anyOf":[{"type":"string","minLength":3},{"type":"integer","minimum":5}]}`,
	`{"allOf":[{"type":"object"},{"properties":{"kind":{"const":"a"}},"required":["kind"]}]}`,
	`{"allOf":[{"type":"object"},{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}`,
	`{"allOf":[{"type":["object","string"]},{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}`,
	`{"anyOf":[{"type":"null"},{"type":"object","allOf":[{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}]}`,
}

var disjointInstances = []string{
	`null`, `true`, `0`, `1`, `-1`, `0.5`, `1.5`, `5`, `7`, `1e30`,
	`""`, `"a"`, `"b"`, `"ab"`, `"abc"`, `"abcd"`,
	`[]`, `[1]`, `[1,2]`, `[1,2,3]`,
	`{}`, `{"kind":"a"}`, `{"kind":"b"}`, `{"kind":"c"}`, `{"kind":1}`,
	`{"p":"x"}`, `{"q":"x"}`, `{"p":"x","q":"y"}`, `{"q":"x","kind":"b"}`, `{"px":1,"q":"x"}`,
}

// disjoint must never prove two branches disjoint that an instance of the
// holder's types matches both (the validator is the judge), and must prove
// the shapes it has rules for.
func TestDisjointAgreesWithValidator(t *testing.T) {
	proved := map[string]bool{}
	instances := fixedInstancesOf(t, disjointInstances)
	for _, holder := range []string{``, `"type":"object",`} {
		for i, a := range disjointBranches {
			for j, b := range disjointBranches {
				if i >= j {
					continue
				}
				doc := newDoc([]byte(`{`+holder+`"oneOf":[`+a+`,`+b+`]}`), "2020-12")
				root := doc.res(doc.rootNode())
				if len(root.oneOf) != 2 || !disjoint(root.oneOf[0], root.oneOf[1], typeMask(root), 0) {
					continue
				}
				proved[holder+a+" "+b] = true
				both := compileForTest(t, []byte(`{`+holder+`"allOf":[`+a+`,`+b+`]}`))
				for _, x := range instances {
					if both.Validate(x) == nil {
						t.Errorf("holder {%s}: %s and %s proven disjoint, but %s matches both", holder, a, b, mustJSON(x))
					}
				}
			}
		}
	}
	for _, want := range []string{
		`"type":"object",{"properties":{"kind":{"const":"a"}},"required":["kind"]} {"properties":{"kind":{"const":"b"}},"required":["kind"]}`,
		`{"properties":{"kind":{"const":"a"}},"required":["kind"]} {"type":"object","properties":{"kind":{"const":"b"}},"required":["kind"]}`,
		`{"type":"object","properties":{"p":{"type":"string"}},"required":["p"],"additionalProperties":false} {"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`,
		`{"type":"integer","maximum":0} {"type":"integer","exclusiveMinimum":0}`,
		`{"type":"string","maxLength":2} {"type":"string","minLength":3}`,
		`{"type":"array","maxItems":1} {"type":"array","minItems":2}`,
		`{"type":"number","exclusiveMaximum":1,"maximum":5} {"type":"number","minimum":1}`,
		`{"enum":["a","b"]} {"const":1}`,
		`{"type":"object","properties":{"kind":{"const":"b"}},"required":["kind"]} {"type":"object","allOf":[{"properties":{"kind":{"const":"a"}},"required":["kind"]}]}`,
		`{"type":"object","properties":{"p":false}} {"anyOf":[{"type":"string"},{"type":"integer"}]}`,
		`{"type":"string","maxLength":2} {"anyOf":[{"type":"string","minLength":3},{"type":"integer","minimum":5}]}`,
		`{"allOf":[{"type":"object"},{"properties":{"kind":{"const":"a"}},"required":["kind"]}]} {"allOf":[{"type":"object"},{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}`,
		`{"allOf":[{"type":"object"},{"properties":{"kind":{"const":"a"}},"required":["kind"]}]} {"allOf":[{"type":["object","string"]},{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}`,
		`{"type":"object","allOf":[{"properties":{"kind":{"const":"a"}},"required":["kind"]}]} {"anyOf":[{"type":"null"},{"type":"object","allOf":[{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}]}`,
	} {
		if !proved[want] {
			t.Errorf("not proven disjoint: %s", want)
		}
	}
	for _, overlap := range []string{
		`{"properties":{"kind":{"const":"a"}},"required":["kind"]} {"properties":{"kind":{"const":"b"}},"required":["kind"]}`,
		`{"type":"integer","maximum":0} {"type":"integer","minimum":0}`,
		`{"type":"object","properties":{"p":false}} {"oneOf":[{"type":"string"},{"type":"object"}]}`,
		`{"type":"string","maxLength":2} {"anyOf":[{"type":"string","minLength":3},{"type":"string","minLength":1}]}`,
		`{"properties":{"kind":{"const":"a"}},"required":["kind"]} {"allOf":[{"type":["object","string"]},{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}`,
		`{"type":"null"} {"anyOf":[{"type":"null"},{"type":"object","allOf":[{"properties":{"kind":{"const":"b"}},"required":["kind"]}]}]}`,
		`{"type":"object","properties":{"p":{"type":"string"}},"required":["p"],"additionalProperties":false} {"type":"object","properties":{"q":{}},"patternProperties":{"^p":{}},"additionalProperties":false}`,
	} {
		if proved[overlap] {
			t.Errorf("proven disjoint although they overlap: %s", overlap)
		}
	}
}

func fixedInstancesOf(t *testing.T, src []string) []any {
	t.Helper()
	out := make([]any, 0, len(src))
	for _, s := range src {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
		if err != nil {
			t.Fatalf("instance %s: %v", s, err)
		}
		out = append(out, v)
	}
	return out
}
