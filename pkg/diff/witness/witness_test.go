package witness

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// The pair: a required suffix narrows (the shortest name the old
// pattern matches is a witness), and dropping it is a proven inclusion.
func TestPatternDifferenceSuffix(t *testing.T) {
	const plain, suffixed = `^[a-zA-Z0-9_.-]+$`, `^[a-zA-Z0-9_.-]+\.(png|svg|gif)$`
	s, found, proven := PatternDifference(plain, suffixed, 10000)
	if !found || proven || s != "a" {
		t.Errorf("narrowing: %q found=%v proven=%v, want \"a\" found", s, found, proven)
	}
	if !regexp.MustCompile(plain).MatchString(s) || regexp.MustCompile(suffixed).MatchString(s) {
		t.Errorf("%q does not tell the patterns apart", s)
	}
	if s, found, proven := PatternDifference(suffixed, plain, 10000); found || !proven {
		t.Errorf("widening: %q found=%v proven=%v, want proven", s, found, proven)
	}
}

func TestPatternDifferenceCases(t *testing.T) {
	for _, c := range []struct {
		acc, rej      string
		want          string
		found, proven bool
	}{
		{`^[0-9]+$`, `^\d{3}$`, "0", true, false},
		{`^\d{3}$`, `^[0-9]+$`, "", false, true},
		{`abc`, `b`, "", false, true},             // unanchored: a superstring of abc contains b
		{`b`, `abc`, "b", true, false},            //
		{`^a`, `a$`, "ax", true, false},           // anchors at the ends of the text
		{`.`, `^\s*$`, "a", true, false},          // ECMA's \s
		{`^\s$`, `^ $`, "\u00a0", true, false},    //
		{`^[^\n]$`, `^.$`, "\u2028", true, false}, // ECMA's . excludes the line separators
		{`^.$`, `^[^\n]$`, "", false, true},
		{`^(?=a)`, `a`, "", false, false}, // lookahead: not RE2
		{`\bx`, `x`, "", false, false},    // word boundaries are not modelled
		{`^[a-z]{2,}$`, `^[a-z]+$`, "", false, true},
	} {
		s, found, proven := PatternDifference(c.acc, c.rej, 20000)
		if s != c.want || found != c.found || proven != c.proven {
			t.Errorf("PatternDifference(%q, %q) = %q %v %v, want %q %v %v", c.acc, c.rej, s, found, proven, c.want, c.found, c.proven)
		}
	}
}

// A pattern only ECMA-262 can read never decides a witness: Check says the
// answer cannot be trusted, and Find gives none.
func TestUntrustedPattern(t *testing.T) {
	base := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	head := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","pattern":"^(?!x)"}}}`)
	p := NewPair(base, head, schemadiff.Input, Options{})
	if _, _, err := p.Check(json.RawMessage(`{"a":"x"}`)); err == nil {
		t.Error("Check trusted a lookahead evaluated by RE2")
	}
	for _, c := range schemadiff.Compare(base, head, schemadiff.Input, schemadiff.Options{}) {
		if w, ok := p.Find(c); ok {
			t.Errorf("%s: witness %s from a pattern RE2 cannot read", c.Rule, w.Value)
		}
	}
	if b, h, err := p.Check(json.RawMessage(`{}`)); err != nil || !b || !h {
		t.Errorf("Check({}) = %v %v %v: the pattern was not consulted", b, h, err)
	}
}

// findAll runs Find on every change of a pair.
func findAll(t *testing.T, base, head string, dir schemadiff.Direction, opts Options) map[string]string {
	t.Helper()
	p := NewPair(json.RawMessage(base), json.RawMessage(head), dir, opts)
	out := map[string]string{}
	for _, c := range schemadiff.Compare(json.RawMessage(base), json.RawMessage(head), dir, schemadiff.Options{Dialect: opts.Dialect}) {
		w, ok := p.Find(c)
		if !ok {
			out[c.Rule] = ""
			continue
		}
		b, h, err := p.Check(w.Value)
		wantBase := dir == schemadiff.Input
		if err != nil || b != wantBase || h == wantBase || (w.Accepts == finding.SideBase) != wantBase {
			t.Errorf("%s: witness %s does not check: %v %v %v", c.Rule, w.Value, b, h, err)
		}
		out[c.Rule] = string(w.Value)
	}
	return out
}

func TestFind(t *testing.T) {
	for _, c := range []struct {
		name, base, head string
		dir              schemadiff.Direction
		dialect          string
		want             map[string]string
	}{
		{
			name: "tuple items in draft-07 spelling",
			base: `{"type":"object","properties":{"p":{"type":"array","items":[{"type":"string"},{"type":"integer"}]}}}`,
			head: `{"type":"object","properties":{"p":{"type":"array","items":[{"type":"string"},{"type":"integer","maximum":3}]}}}`,
			dir:  schemadiff.Input, dialect: "draft-07",
			want: map[string]string{"input-maximum-decreased": `{"p":["",4]}`},
		},
		{
			name: "prefix items narrowed",
			base: `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}}}`,
			head: `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer","maximum":3}]}}}`,
			dir:  schemadiff.Input,
			want: map[string]string{"input-maximum-decreased": `{"p":["",4]}`},
		},
		{
			name: "output type widened",
			base: `{"type":"object","properties":{"r":{"type":"string"}},"required":["r"]}`,
			head: `{"type":"object","properties":{"r":{"type":["string","null"]}},"required":["r"]}`,
			dir:  schemadiff.Output,
			want: map[string]string{"output-became-nullable": `{"r":null}`},
		},
		{
			name: "disjoint oneOf branch: no witness",
			base: `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`,
			head: `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"object"}]}}}`,
			dir:  schemadiff.Input,
			want: map[string]string{"input-type-widened": ""},
		},
	} {
		got := findAll(t, c.base, c.head, c.dir, Options{Dialect: c.dialect})
		for rule, w := range c.want {
			if g, ok := got[rule]; !ok || g != w {
				t.Errorf("%s: %s witness %q, want %q (all: %v)", c.name, rule, g, w, got)
			}
		}
	}
}

// Two changes of one property: each witness is rejected for its own
// change, not for the other's.
func TestAttribution(t *testing.T) {
	base := `{"type":"object","properties":{"a":{"type":"integer","minimum":0},"b":{"type":"string","maxLength":9}}}`
	head := `{"type":"object","properties":{"a":{"type":"integer","minimum":2},"b":{"type":"string","maxLength":3}}}`
	got := findAll(t, base, head, schemadiff.Input, Options{})
	if got["input-minimum-increased"] != `{"a":0}` || got["input-max-length-decreased"] != `{"b":"aaaaaaaaa"}` {
		t.Errorf("witnesses %v", got)
	}
}

// The search is deterministic and bounded: the same pair gives the same
// bytes, and a budget of one validation finds nothing.
func TestDeterministicAndBounded(t *testing.T) {
	base := `{"type":"object","properties":{"m":{"type":"object","properties":{"k":{"enum":["a","b","c","d"]}},"required":["k"]}},"required":["m"]}`
	head := `{"type":"object","properties":{"m":{"type":"object","properties":{"k":{"enum":["a","d"]}},"required":["k"]}},"required":["m"]}`
	first := findAll(t, base, head, schemadiff.Input, Options{})
	for i := 0; i < 5; i++ {
		if again := findAll(t, base, head, schemadiff.Input, Options{}); again["input-enum-value-removed"] != first["input-enum-value-removed"] {
			t.Fatalf("run %d: %v, first %v", i, again, first)
		}
	}
	if first["input-enum-value-removed"] == "" {
		t.Errorf("no witness: %v", first)
	}
	if got := findAll(t, base, head, schemadiff.Input, Options{Budget: 1}); got["input-enum-value-removed"] != "" {
		t.Errorf("budget 1 found %v", got)
	}
}

// A schema that does not compile (an external $ref) gives no witness and
// Check says why.
func TestNoCompileNoWitness(t *testing.T) {
	base := json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.invalid/s.json"}}}`)
	head := json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.invalid/s.json"}},"required":["a"]}`)
	p := NewPair(base, head, schemadiff.Input, Options{})
	if _, _, err := p.Check(json.RawMessage(`{}`)); err == nil {
		t.Error("Check compiled an external reference")
	}
	for _, c := range schemadiff.Compare(base, head, schemadiff.Input, schemadiff.Options{}) {
		if w, ok := p.Find(c); ok {
			t.Errorf("%s: witness %s", c.Rule, w.Value)
		}
	}
}

// Shapes of real upgrades the search once missed: a maxLength of ten
// thousand added to a prompt (a witness one character longer), and
// additionalProperties given a schema on headers that took anything (an
// extra header of another type).
func TestFindRealUpgradeShapes(t *testing.T) {
	got := findAll(t,
		`{"type":"object","properties":{"prompt":{"type":"string"}},"required":["prompt"]}`,
		`{"type":"object","properties":{"prompt":{"type":"string","maxLength":10000}},"required":["prompt"]}`,
		schemadiff.Input, Options{})
	var w struct{ Prompt string }
	if err := json.Unmarshal([]byte(got["input-max-length-decreased"]), &w); err != nil || len(w.Prompt) != 10001 {
		t.Errorf("maxLength 10000 added: witness of %d characters (%v), want 10001; all: %d rules", len(w.Prompt), err, len(got))
	}
	got = findAll(t,
		`{"type":"object","properties":{"url":{"type":"string"},"webhook":{"type":"object","properties":{"url":{"type":"string"},"headers":{"type":"object"}},"required":["url"]}},"required":["url"]}`,
		`{"type":"object","properties":{"url":{"type":"string"},"webhook":{"type":"object","properties":{"url":{"type":"string"},"headers":{"type":"object","additionalProperties":{"type":"string"}}},"required":["url"]}},"required":["url"]}`,
		schemadiff.Input, Options{})
	if w := got["input-additional-properties-schema-narrowed"]; w == "" {
		t.Errorf("headers narrowed to strings: no witness; all: %v", got)
	}
}

// A tuple's witness is the instance the validator judged: its items in
// their order (canonical form would sort an array of primitives, and
// {"g":[0,""]} would be written as {"g":["",0]}, which the accepting side
// rejects).
func TestTupleWitnessKeepsOrder(t *testing.T) {
	base := json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"g":{"additionalItems":{"type":"integer"},"items":[{"type":"string"}],"type":"array"}},"type":"object"}`)
	head := json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"g":{"additionalItems":{"type":"string"},"items":[{"type":"integer"}],"type":"array"}},"type":"object"}`)
	for _, dir := range []schemadiff.Direction{schemadiff.Input, schemadiff.Output} {
		p := NewPair(base, head, dir, Options{})
		n := 0
		for _, c := range schemadiff.Compare(base, head, dir, schemadiff.Options{}) {
			w, ok := p.Find(c)
			if !ok {
				continue
			}
			n++
			b, h, err := NewPair(base, head, dir, Options{}).Check(w.Value)
			if err != nil || b != (w.Accepts == finding.SideBase) || h != (w.Accepts == finding.SideHead) {
				t.Errorf("%v %s: witness %s accepts=%s; base valid %v, head valid %v (%v)", dir, c.Rule, w.Value, w.Accepts, b, h, err)
			}
		}
		if n != 2 {
			t.Errorf("%v: %d witnesses, want 2 (both item types changed)", dir, n)
		}
	}
}
