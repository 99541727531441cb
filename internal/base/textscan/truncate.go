package textscan

import "unicode/utf8"

// Truncate cuts s to at most max runes (max <= 0: no limit), ending with
// mark when it cut. Every bound on a text shown to a reader counts runes,
// so that a cut never splits a character.
func Truncate(s string, max int, mark string) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + mark
		}
		n++
	}
	return s
}

// Clip cuts s to at most max bytes, at a rune boundary, ending with mark
// when it cut: for bounds on size rather than on what a reader sees.
func Clip(s string, max int, mark string) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}
