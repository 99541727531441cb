package textscan

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// VisibleMode says how Visible shows what it makes visible.
type VisibleMode int

const (
	// Escapes writes hidden characters as escapes (\u202e, \U000e0041,
	// \e, \x80 for a byte that is not UTF-8) and line breaks and tabs as
	// \n, \r, \t: text for one line of a log, a terminal or a report.
	Escapes VisibleMode = iota
	// EscapesKeepLines is Escapes keeping newlines and tabs as they are:
	// text for a code block.
	EscapesKeepLines
	// CodePoints writes each hidden character (and each byte that is not
	// UTF-8, as U+FFFD) as <U+XXXX>, keeping tab, newline and carriage
	// return: the form finding messages and acknowledgements quote.
	CodePoints
)

// Visible returns s with every hidden character (Hidden) made visible in
// the given mode. Plain text comes back unchanged. It is the one escaper
// of hidden characters: the renderers, the diff's messages and the
// acknowledgements all call it.
func Visible(s string, mode VisibleMode) string {
	if mode == CodePoints {
		return codePoints(s)
	}
	keepLines := mode == EscapesKeepLines
	if plainASCII(s, keepLines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n' || r == '\r' || r == '\t' || Hidden(r):
			escapeRune(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// plainASCII reports whether s is ASCII without controls (newline and tab
// allowed when keepLines), the common case Visible returns as it is.
func plainASCII(s string, keepLines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return false // checked rune by rune
		}
		if c < 0x20 || c == 0x7f {
			if keepLines && (c == '\n' || c == '\t') {
				continue
			}
			return false
		}
	}
	return true
}

// escapeRune writes the escape of a hidden rune.
func escapeRune(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	case 0x1b:
		b.WriteString(`\e`)
	default:
		if r > 0xffff {
			fmt.Fprintf(b, `\U%08x`, r)
		} else {
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
}

func codePoints(s string) string {
	clean := true
	for _, r := range s {
		if Hidden(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if Hidden(r) || r == utf8.RuneError {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
