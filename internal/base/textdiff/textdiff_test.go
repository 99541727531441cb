package textdiff

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"same", "same", ""},
		{"Reads a file from disk.", "Reads a file from disk and uploads it.", "{+ and uploads it+}"},
		{"Deletes nothing.", "Deletes everything.", "[-nothing-]{+everything+}"},
		{"line one\nline two", "line one\nline 2", "- line two"},
	} {
		got := Diff(tc.a, tc.b)
		if tc.want == "" {
			if got != "" {
				t.Errorf("Diff(%q, %q) = %q, want empty", tc.a, tc.b, got)
			}
			continue
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("Diff(%q, %q) = %q, want it to contain %q", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestDiffIsBounded(t *testing.T) {
	a := strings.Repeat("word ", 50000)
	b := strings.Repeat("other ", 50000)
	if got := Diff(a, b); len(got) > maxDiffOutput+100 {
		t.Errorf("diff of two 250 kB texts is %d bytes", len(got))
	}
	if got := Diff(a+"\n"+a, b+"\n"+b); len(got) > maxDiffOutput+100 {
		t.Errorf("line diff is %d bytes", len(got))
	}
}

func TestWordDelta(t *testing.T) {
	if ins, del := WordDelta("read the file", "read the whole file now"); ins != 2 || del != 0 {
		t.Errorf("WordDelta = +%d -%d, want +2 -0", ins, del)
	}
}
