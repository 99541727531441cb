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
