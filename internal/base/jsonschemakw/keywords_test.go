package jsonschemakw

import "testing"

// The table and the predicates agree, and no keyword is both a schema
// holder and an assertion or documentation.
func TestKeywords(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Subschemas {
		if seen[k.Name] {
			t.Errorf("%s listed twice", k.Name)
		}
		seen[k.Name] = true
		if k.Form == NoSchema {
			t.Errorf("%s holds no schema", k.Name)
		}
		if !HoldsOne(k.Name) && !HoldsList(k.Name) && !HoldsMap(k.Name) {
			t.Errorf("%s: no form", k.Name)
		}
		if Assertion(k.Name) || Doc(k.Name) || Reference(k.Name) {
			t.Errorf("%s is also an assertion, a documentation or a reference keyword", k.Name)
		}
		if Applicator(k.Name) == k.Definitions {
			t.Errorf("%s: applicator and definitions disagree", k.Name)
		}
	}
	if !HoldsOne("items") || !HoldsList("items") || FormOf("enum") != NoSchema {
		t.Error("items is one or a list; enum holds no schema")
	}
}
