package textscan

import "testing"

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 0, "abc"},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc~"},
		{"żółw", 2, "żó~"}, // runes, not bytes: no character is split
		{"", 1, ""},
	} {
		if got := Truncate(c.s, c.max, "~"); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
	}
}
