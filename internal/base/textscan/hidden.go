package textscan

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Hidden reports whether r is a character a reviewer does not see but a
// model reads: a control (C0 other than tab, line feed and carriage return,
// DEL, C1; the terminal escapes ESC and CSI included), a format character
// (zero-width space and joiners, bidirectional embeddings, overrides and
// isolates, BOM, soft hyphen, every code point of the tag block), the line
// and paragraph separators, a variation selector, a private-use character,
// or a blank filler (Hangul fillers, braille blank, Khmer inherent vowels,
// the combining grapheme joiner, the Mongolian vowel separator).
//
// This is the one definition: the detectors report these characters and
// the renderers escape exactly these (plus the line breaks and tabs they
// keep out of one-line output, which are layout, not hidden).
func Hidden(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20, r >= 0x7F && r <= 0x9F:
		return true
	case r < 0xA0:
		return false
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0xE0000 && r <= 0xE007F:
		return true
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5, r == 0x180E,
		r == 0x2800, r == 0x3164, r == 0xFFA0:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Co, unicode.Variation_Selector)
}

// IsEscape reports whether r starts a terminal escape sequence (ESC, or
// the C1 control sequence introducer). Both are hidden; the lint names them
// separately because they can also repaint what a terminal shows.
func IsEscape(r rune) bool { return r == 0x1B || r == 0x9B }

// Rune is one hidden character found in text: the code point and its byte
// offset.
type Rune struct {
	R  rune
	At int
}

// HiddenRunes returns the hidden characters of s in order, except those a
// legitimate sequence needs, which a reviewer sees as part of a visible
// character:
//
//   - a zero-width joiner between two emoji (family and profession
//     sequences);
//   - a zero-width non-joiner after a letter of a script that writes one
//     (Persian, the Indic scripts) or after a combining mark;
//   - a variation selector 1-16 after a character other than ASCII (an
//     emoji presentation selector), or before a combining keycap;
//   - a Mongolian free variation selector after a Mongolian letter;
//   - tag characters that continue an emoji tag sequence (U+1F3F4 and the
//     tags of a subdivision flag).
//
// Escapes (IsEscape) are included.
func HiddenRunes(s string) []Rune {
	var out []Rune
	var prev rune
	inFlag := false
	for i, r := range s {
		// Not RuneLen: an invalid byte decodes as U+FFFD but is one byte.
		_, size := utf8.DecodeRuneInString(s[i:])
		// A tag continues a flag after U+1F3F4 or after a tag that is not
		// the cancel tag closing the sequence.
		inFlag = (prev == 0x1F3F4 || inFlag && prev >= 0xE0020 && prev < 0xE007F) && r >= 0xE0020 && r <= 0xE007F
		if Hidden(r) && !needed(prev, r, s[i+size:], inFlag) {
			out = append(out, Rune{R: r, At: i})
		}
		prev = r
	}
	return out
}

// needed reports whether the hidden rune r, after prev and before rest,
// belongs to a legitimate sequence (see HiddenRunes).
func needed(prev, r rune, rest string, inFlag bool) bool {
	switch {
	case r == 0x200D:
		next, _ := utf8.DecodeRuneInString(rest)
		return emojiish(prev) && emojiish(next)
	case r == 0x200C:
		return prev > 0x7F && unicode.IsLetter(prev) || unicode.In(prev, unicode.Mn, unicode.Mc)
	case r >= 0xFE00 && r <= 0xFE0F:
		if next, _ := utf8.DecodeRuneInString(rest); next == 0x20E3 {
			return true // keycap: 1, #, * + VS16 + U+20E3
		}
		return prev >= 0x80 && !(prev >= 0xFE00 && prev <= 0xFE0F)
	case r >= 0x180B && r <= 0x180F && r != 0x180E:
		return prev >= 0x1820 && prev <= 0x18AA
	case r >= 0xE0020 && r <= 0xE007F:
		return inFlag
	}
	return false
}

// emojiish is false for U+FFFD, which is a symbol but also what an
// invalid byte and the end of the text decode as.
func emojiish(r rune) bool {
	return r != utf8.RuneError && unicode.Is(unicode.So, r) || r >= 0x1F3FB && r <= 0x1F3FF || r >= 0xFE00 && r <= 0xFE0F || r == 0x2640 || r == 0x2642
}

// TagText returns the ASCII text that the tag characters among rs spell
// (tag characters mirror printable ASCII at U+E0020 to U+E007E), at most
// max runes of it (max <= 0: all).
func TagText(rs []Rune, max int) string {
	var b []byte
	for _, h := range rs {
		if h.R >= 0xE0020 && h.R <= 0xE007E {
			if max > 0 && len(b) >= max {
				break
			}
			b = append(b, byte(h.R-0xE0000))
		}
	}
	return string(b)
}

// names are the hidden code points most often used, for messages.
var names = map[rune]string{
	0x00AD: "SOFT HYPHEN", 0x034F: "COMBINING GRAPHEME JOINER", 0x061C: "ARABIC LETTER MARK", 0x180E: "MONGOLIAN VOWEL SEPARATOR",
	0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK",
	0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2028: "LINE SEPARATOR", 0x2029: "PARAGRAPH SEPARATOR",
	0x2060: "WORD JOINER", 0x2061: "FUNCTION APPLICATION", 0x2062: "INVISIBLE TIMES", 0x2063: "INVISIBLE SEPARATOR", 0x2064: "INVISIBLE PLUS",
	0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
	0x2800: "BRAILLE PATTERN BLANK", 0x115F: "HANGUL CHOSEONG FILLER", 0x1160: "HANGUL JUNGSEONG FILLER",
	0x3164: "HANGUL FILLER", 0xFEFF: "ZERO WIDTH NO-BREAK SPACE", 0xFFA0: "HALFWIDTH HANGUL FILLER",
}

// Label names a code point in a message: "U+200B ZERO WIDTH SPACE",
// "U+E0041 TAG", "U+FE0F VARIATION SELECTOR", or just "U+0007".
func Label(r rune) string {
	s := fmt.Sprintf("U+%04X", r)
	if n, ok := names[r]; ok {
		return s + " " + n
	}
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return s + " TAG"
	case unicode.Is(unicode.Variation_Selector, r):
		return s + " VARIATION SELECTOR"
	}
	return s
}
