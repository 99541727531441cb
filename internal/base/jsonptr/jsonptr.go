package jsonptr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A Pointer is a JSON Pointer in its escaped text form: "" for the whole
// document, otherwise "/" before each reference token, with "~" written
// as "~0" and "/" as "~1".
type Pointer string

// Root is the pointer to the whole document.
const Root Pointer = ""

// New returns the pointer made of the given (unescaped) tokens.
func New(tokens ...string) Pointer { return Root.Append(tokens...) }

// Parse checks that s is a well-formed pointer: empty, or starting with
// "/" and with every "~" followed by "0" or "1".
func Parse(s string) (Pointer, error) {
	if s != "" && s[0] != '/' {
		return "", fmt.Errorf("json pointer %q: %w", s, errNoSlash)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return "", fmt.Errorf("json pointer %q: %w", s, errBadTilde)
		}
	}
	return Pointer(s), nil
}

var (
	errNoSlash  = errors.New("does not start with /")
	errBadTilde = errors.New("~ not followed by 0 or 1")
)

// String returns the pointer's text.
func (p Pointer) String() string { return string(p) }

// Append returns p with the given (unescaped) tokens added.
func (p Pointer) Append(tokens ...string) Pointer {
	n := len(p)
	for _, t := range tokens {
		n += 1 + len(t) + 2
	}
	b := make([]byte, 0, n)
	b = append(b, p...)
	for _, t := range tokens {
		b = append(b, '/')
		b = appendEscaped(b, t)
	}
	return Pointer(b)
}

// AppendIndex returns p with an array index added.
func (p Pointer) AppendIndex(i int) Pointer {
	return Pointer(strconv.AppendInt(append([]byte(p), '/'), int64(i), 10))
}

// Tokens returns the unescaped reference tokens; nil for the root.
func (p Pointer) Tokens() []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(string(p), "/"), "/")
	for i, t := range parts {
		parts[i] = Unescape(t)
	}
	return parts
}

// Escape escapes one reference token.
func Escape(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return string(appendEscaped(make([]byte, 0, len(token)+4), token))
}

// appendEscaped appends the escaped form of one reference token.
func appendEscaped(dst []byte, token string) []byte {
	for i := 0; i < len(token); i++ {
		switch c := token[i]; c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Unescape undoes Escape on one reference token ("~1" first, so that
// "~01" reads as "~1").
func Unescape(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
}

// Lookup resolves tokens in a decoded JSON value (objects as
// map[string]any, arrays as []any): the value they name, and whether
// there is one.
func Lookup(v any, tokens []string) (any, bool) {
	for _, tok := range tokens {
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[tok]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}
