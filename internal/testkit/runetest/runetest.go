// Package runetest walks the whole of Unicode for the tests that hold
// one definition against another on every code point (what the text
// detectors report against what the escapers make visible).
package runetest

import (
	"iter"
	"unicode/utf8"
)

// Scalars yields every Unicode scalar value in order: every code point
// but the surrogates, which no UTF-8 text holds.
func Scalars() iter.Seq[rune] {
	return func(yield func(rune) bool) {
		for r := rune(0); r <= utf8.MaxRune; r++ {
			if r >= 0xD800 && r <= 0xDFFF {
				continue
			}
			if !yield(r) {
				return
			}
		}
	}
}

// Detected yields every Unicode scalar value with whether detect (the
// text detectors: textscan.HiddenRunes) reports it, on the code point
// alone: the one definition the escapers are held to.
func Detected[T any](detect func(string) []T) iter.Seq2[rune, bool] {
	return func(yield func(rune, bool) bool) {
		for r := range Scalars() {
			if !yield(r, len(detect(string(r))) == 1) {
				return
			}
		}
	}
}
