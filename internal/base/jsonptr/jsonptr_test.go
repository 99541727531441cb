package jsonptr

import (
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
