package textscan

import "testing"

// Truncate bounds runes, Clip bytes; neither splits a character.
func TestTruncateAndClip(t *testing.T) {
	truncate := func(s string, max int) string { return Truncate(s, max, "~") }
	clip := func(s string, max int) string { return Clip(s, max, "~") }
	for _, c := range []struct {
		name string
		cut  func(string, int) string
		s    string
		max  int
		want string
	}{
		{"Truncate", truncate, "abc", 0, "abc"},
		{"Truncate", truncate, "abc", 3, "abc"},
		{"Truncate", truncate, "abcd", 3, "abc~"},
		{"Truncate", truncate, "żółw", 2, "żó~"}, // runes, not bytes
		{"Truncate", truncate, "", 1, ""},
		{"Clip", clip, "abc", 3, "abc"},
		{"Clip", clip, "abcd", 3, "abc~"},
		{"Clip", clip, "żółw", 3, "ż~"}, // bytes, cut back to a rune boundary
		{"Clip", clip, "żółw", 4, "żó~"},
		{"Clip", clip, "ż", 1, "~"},
		{"Clip", clip, "", 0, ""},
	} {
		if got := c.cut(c.s, c.max); got != c.want {
			t.Errorf("%s(%q, %d) = %q, want %q", c.name, c.s, c.max, got, c.want)
		}
	}
}
