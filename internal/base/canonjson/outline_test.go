package canonjson

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestNameSetIsTheLinearRule: past setLinear names the set answers
// through maps, and must say what comparing every pair says.
func TestNameSetIsTheLinearRule(t *testing.T) {
	same := func(k, raw []byte) bool {
		return bytes.Equal(k, raw) || (bytes.IndexByte(raw, '\\') >= 0 || bytes.IndexByte(k, '\\') >= 0) && Unquote(k) == Unquote(raw)
	}
	alphabet := []string{`a`, `\u0061`, `b`, "\xff", "\xfe", `\ufffd`, "\uFFFD", `\"`, `"`, `x\/y`, `x/y`, `\ud800`, `\uD800`}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var n nameSet
		var seen [][]byte
		for i := range 3 * setLinear {
			name := []byte(alphabet[r.IntN(len(alphabet))])
			if r.IntN(3) == 0 {
				name = append(name, byte('0'+i%10)) // some names unique
			}
			want := false
			for _, k := range seen {
				if same(k, name) {
					want = true
					break
				}
			}
			if got := n.add(name); got != want {
				t.Fatalf("round %d, name %d %q after %q: repeated %v, want %v", round, i, name, seen, got, want)
			}
			seen = append(seen, name)
		}
	}
}

func TestOutlineOf(t *testing.T) {
	data := []byte(` { "a" : [ 1 , {"x":[2]} ] , "b\u0062":"s", "c":[] } `)
	o, err := OutlineOf(data)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Object || o.Deep || o.Duplicate != nil || len(o.Members) != 3 {
		t.Fatalf("outline %+v", o)
	}
	span := func(s, e int) string { return string(data[s:e]) }
	a, b, c := o.Members[0], o.Members[1], o.Members[2]
	if a.Name != "a" || !a.Array || span(a.Start, a.End) != `[ 1 , {"x":[2]} ]` || len(a.Elements) != 2 ||
		span(a.Elements[0][0], a.Elements[0][1]) != "1" || span(a.Elements[1][0], a.Elements[1][1]) != `{"x":[2]}` {
		t.Errorf("member a: %+v", a)
	}
	if b.Name != "bb" || b.Array || span(b.Start, b.End) != `"s"` {
		t.Errorf("member bb: %+v", b)
	}
	if c.Name != "c" || !c.Array || len(c.Elements) != 0 {
		t.Errorf("member c: %+v", c)
	}
	if o, err := OutlineOf([]byte(`[{"a":1,"a":2}]`)); err != nil || o.Object || o.Duplicate == nil || o.Duplicate.Pointer != "/0/a" {
		t.Errorf("array with a repeated key: %+v, %v", o, err)
	}
}
