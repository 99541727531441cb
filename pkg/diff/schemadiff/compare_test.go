package schemadiff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChangeContents(t *testing.T) {
	base := `{"type":"object","properties":{"path":{"type":"string","description":"Where."},"mode":{"enum":["r","w"]}},"required":["mode"]}`
	head := `{"type":"object","properties":{"path":{"type":"string","description":"Where to read."},"mode":{"enum":["r"]}},"required":["mode","path"]}`
	got := Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{})
	want := []Change{
		{Rule: "input-enum-value-removed", BasePointer: "/properties/mode/enum/1", HeadPointer: "/properties/mode/enum",
			Before: json.RawMessage(`"w"`), Message: `"mode": enum value "w" removed`},
		{Rule: "input-property-became-required", BasePointer: "/properties/path", HeadPointer: "/properties/path",
			Before: json.RawMessage(`false`), After: json.RawMessage(`true`), Message: `property "path" became required`},
		{Rule: "input-property-description-changed", BasePointer: "/properties/path/description", HeadPointer: "/properties/path/description",
			Before: json.RawMessage(`"Where."`), After: json.RawMessage(`"Where to read."`), Message: `"path": description changed`},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// nested builds {"properties":{"a":{"properties":{"a":...{"maxLength":n}}}}}.
func nested(depth, n int) string {
	s := fmt.Sprintf(`{"type":"string","maxLength":%d}`, n)
	for i := 0; i < depth; i++ {
		s = `{"type":"object","properties":{"a":` + s + `}}`
	}
	return s
}

func TestMaxDepth(t *testing.T) {
	base, head := nested(10, 5), nested(10, 3)
	got := Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{})
	if len(got) != 1 || got[0].Rule != "input-max-length-decreased" {
		t.Fatalf("default depth: %v", messages(got))
	}
	got = Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{MaxDepth: 4})
	if len(got) != 1 || got[0].Rule != "input-schema-undecidable" || !strings.Contains(got[0].Message, "deeper than 4") {
		t.Fatalf("MaxDepth 4: %v", messages(got))
	}
}

func TestBudget(t *testing.T) {
	base, head := nested(10, 5), nested(10, 3)
	got := Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{Budget: 3})
	if len(got) != 1 || got[0].Rule != "input-schema-undecidable" || !strings.Contains(got[0].Message, "budget") {
		t.Fatalf("budget: %v", messages(got))
	}
}

func TestDialectRefSiblings(t *testing.T) {
	base := `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s","maxLength":9}}}`
	head := `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s","maxLength":5}}}`
	got := Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{})
	if len(got) != 1 || got[0].Rule != "input-max-length-decreased" {
		t.Errorf("2020-12: siblings of $ref apply: %v", messages(got))
	}
	got = Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{Dialect: "draft-07"})
	if len(got) != 1 || got[0].Rule != "input-schema-equivalent-rewrite" {
		t.Errorf("draft-07: siblings of $ref are ignored: %v", messages(got))
	}
	withSchema := `{"$schema":"http://json-schema.org/draft-07/schema#",` + head[1:]
	got = Compare(json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#",`+base[1:]), json.RawMessage(withSchema), Input, Options{})
	if len(got) != 1 || got[0].Rule != "input-schema-equivalent-rewrite" {
		t.Errorf("$schema draft-07 wins over the default: %v", messages(got))
	}
}

func TestMutualRecursion(t *testing.T) {
	doc := func(leaf string) string {
		return `{"$defs":{"a":{"type":"object","properties":{"b":{"$ref":"#/$defs/b"},"v":` + leaf + `}},` +
			`"b":{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}}}},"$ref":"#/$defs/a"}`
	}
	got := Compare(json.RawMessage(doc(`{"type":"string"}`)), json.RawMessage(doc(`{"type":"integer"}`)), Output, Options{})
	if len(got) != 1 || got[0].Rule != "output-type-changed" || got[0].BasePointer != "/$defs/a/properties/v/type" {
		t.Fatalf("got %v", messages(got))
	}
}

func TestEmptyAndInvalid(t *testing.T) {
	// An empty input is the empty schema.
	if got := Compare(nil, json.RawMessage(` {} `), Input, Options{}); got != nil {
		t.Errorf("nil vs {}: %v", messages(got))
	}
	if got := Compare(nil, nil, Input, Options{}); got != nil {
		t.Errorf("nil vs nil: %v", got)
	}
	got := Compare(json.RawMessage(`{"type":"object"}`), json.RawMessage(`{"type":`), Output, Options{})
	if len(got) != 1 || got[0].Rule != "output-schema-undecidable" || !strings.Contains(got[0].Message, "head schema is not valid JSON") {
		t.Errorf("invalid head: %v", messages(got))
	}
}

// Unknown keywords, however deep, are never dropped.
func TestUnknownKeywordFailsClosed(t *testing.T) {
	base := `{"properties":{"a":{"type":"string","x-format":"slug"}}}`
	head := `{"properties":{"a":{"type":"string","x-format":"email"}}}`
	for _, dir := range []Direction{Input, Output} {
		got := Compare(json.RawMessage(base), json.RawMessage(head), dir, Options{})
		if len(got) != 1 || !strings.HasSuffix(got[0].Rule, "-schema-undecidable") || got[0].BasePointer != "/properties/a/x-format" {
			t.Errorf("%s: %v", dir, messages(got))
		}
	}
}

// Compare shares nothing between calls: run the fixtures concurrently (the
// race detector checks it).
func TestConcurrentCompare(t *testing.T) {
	fxs := loadFixtures(t)
	want := make([]string, len(fxs))
	for i, fx := range fxs {
		want[i] = render(Compare(fx.base, fx.head, Input, fx.opts)) + render(Compare(fx.base, fx.head, Output, fx.opts))
	}
	done := make(chan string, 4)
	for w := 0; w < 4; w++ {
		go func() {
			for i, fx := range fxs {
				if got := render(Compare(fx.base, fx.head, Input, fx.opts)) + render(Compare(fx.base, fx.head, Output, fx.opts)); got != want[i] {
					done <- fx.Path
					return
				}
			}
			done <- ""
		}()
	}
	for w := 0; w < 4; w++ {
		if p := <-done; p != "" {
			t.Errorf("%s: concurrent result differs", p)
		}
	}
}

// Messages name a branch by its index as written, the index its pointer
// ends in, also where a null branch before it was folded out of the list.
func TestBranchMessagesNameTheWrittenIndex(t *testing.T) {
	base := `{"anyOf":[{"type":"null"},{"type":"string","description":"s"},{"type":"object","properties":{"a":{"type":"string"}}}]}`
	head := `{"anyOf":[{"type":"null"},{"type":"object","properties":{"a":{"type":"string"}}},{"type":"string","description":"S"},{"type":"integer","minimum":1}]}`
	got := Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{})
	want := map[string]string{
		"input-property-description-changed": `"anyOf[2]": description changed`,
		"input-any-of-branch-added":          "anyOf branch 3 added",
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", messages(got))
	}
	for _, c := range got {
		if c.Message != want[c.Rule] {
			t.Errorf("%s %s: message %q, want %q", c.Rule, c.HeadPointer, c.Message, want[c.Rule])
		}
	}
}

// An added oneOf branch that may overlap names the branches it may
// overlap, by their written index, and points at itself.
func TestOverlappingBranchAddedNamesTheBranches(t *testing.T) {
	base := `{"oneOf":[{"type":"null"},{"type":"string"},{"type":"object"},{"type":"integer"}]}`
	head := `{"oneOf":[{"type":"null"},{"type":"string"},{"type":"object"},{"type":"integer"},{"type":["string","integer"],"minLength":2}]}`
	got := Compare(json.RawMessage(base), json.RawMessage(head), Input, Options{})
	if len(got) != 1 || got[0].Rule != "input-one-of-branch-added" || got[0].HeadPointer != "/oneOf/4" ||
		got[0].Message != "oneOf branch 4 added; it may overlap branches 1 and 3, and values matching two branches are rejected" {
		t.Fatalf("got %v", messages(got))
	}
}
