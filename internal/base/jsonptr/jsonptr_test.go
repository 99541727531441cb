package jsonptr

import (
	"fmt"
	"slices"
	"testing"
)

func TestPointer(t *testing.T) {
	p := New("a/b", "c~d").AppendIndex(2).Append("")
	if p != "/a~1b/c~0d/2/" {
		t.Fatalf("built %q", p)
	}
	if got := p.Tokens(); !slices.Equal(got, []string{"a/b", "c~d", "2", ""}) {
		t.Errorf("tokens %q", got)
	}
	if Unescape("~01") != "~1" || Escape("~1") != "~01" {
		t.Error("~01 does not round-trip")
	}
	if Root.Tokens() != nil || New().String() != "" {
		t.Error("the root has tokens")
	}
	for _, bad := range []string{"a", "/~", "/~2"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if _, err := Parse("/x~0~1"); err != nil {
		t.Error(err)
	}
}

func TestLookup(t *testing.T) {
	doc := map[string]any{"a": []any{"x", map[string]any{"b/c": 1.0}}}
	for _, c := range []struct {
		toks []string
		want any
		ok   bool
	}{
		{nil, doc, true},
		{[]string{"a", "0"}, "x", true},
		{[]string{"a", "1", "b/c"}, 1.0, true},
		{[]string{"a", "2"}, nil, false},
		{[]string{"a", "-1"}, nil, false},
		{[]string{"a", "x"}, nil, false},
		{[]string{"z"}, nil, false},
		{[]string{"a", "0", "q"}, nil, false},
	} {
		got, ok := Lookup(doc, c.toks)
		if ok != c.ok || (ok && fmt.Sprint(got) != fmt.Sprint(c.want)) {
			t.Errorf("Lookup(%q) = %v, %v; want %v, %v", c.toks, got, ok, c.want, c.ok)
		}
	}
}
