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

func TestClip(t *testing.T) {
	for _, c := range []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc~"},
		{"żółw", 3, "ż~"}, // bytes, cut back to a rune boundary
		{"żółw", 4, "żó~"},
		{"ż", 1, "~"},
		{"", 0, ""},
	} {
		if got := Clip(c.s, c.max, "~"); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
	}
}
