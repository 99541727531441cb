package canonjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a canonical JSON string: quote, backslash and
// control characters escaped (\n, \r, \t, \b, \f by name, the others as
// \u00XX), nothing else; invalid UTF-8 becomes U+FFFD byte by byte.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Unquote decodes the body of a JSON string that ScanString accepted.
// A lone surrogate escape and each invalid UTF-8 byte become U+FFFD, as
// encoding/json decodes them.
func Unquote(raw []byte) string {
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				b = append(b, c)
				i++
				continue
			}
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\ufffd"...)
			} else {
				b = append(b, raw[i:i+size]...)
			}
			i += size
			continue
		}
		if i+1 >= len(raw) {
			break
		}
		if e := raw[i+1]; e != 'u' {
			b = append(b, unescape(e))
			i += 2
			continue
		}
		r, ok := hex4(raw, i+2)
		if !ok {
			return string(b)
		}
		i += 6
		if utf16.IsSurrogate(r) {
			if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if r2, ok2 := hex4(raw, i+2); ok2 {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						b = utf8.AppendRune(b, d)
						i += 6
						continue
					}
				}
			}
			r = utf8.RuneError
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// unescape is the byte a one-character escape stands for: \b \f \n \r
// \t, and '"', '\\' and '/' for themselves.
func unescape(e byte) byte {
	switch e {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return e
}

func hex4(raw []byte, at int) (rune, bool) {
	if at+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range raw[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
