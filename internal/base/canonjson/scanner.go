package canonjson

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of any JSON value the project reads: the
// top-level value is at depth 0, and a value nested deeper than MaxDepth
// is refused.
const MaxDepth = 512

// ErrTooDeep is returned for input nested deeper than MaxDepth.
var ErrTooDeep = fmt.Errorf("JSON nested deeper than %d levels", MaxDepth)

// CheckDepth returns ErrTooDeep when depth is beyond MaxDepth.
func CheckDepth(depth int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	return nil
}

// A Scanner reads one JSON document held in memory, value by value. It
// checks the grammar as it goes; its errors name the byte offset. The
// zero value is not usable: call NewScanner.
type Scanner struct {
	data []byte
	// Pos is the offset of the next byte to read.
	Pos int
}

// NewScanner returns a Scanner at the start of data.
func NewScanner(data []byte) *Scanner { return &Scanner{data: data} }

// Fail returns a syntax error at the current offset.
func (s *Scanner) Fail(what string) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", s.Pos, what)
}

// SkipSpace moves past insignificant whitespace.
func (s *Scanner) SkipSpace() {
	for s.Pos < len(s.data) {
		switch s.data[s.Pos] {
		case ' ', '\t', '\n', '\r':
			s.Pos++
		default:
			return
		}
	}
}

// Peek returns the next byte, or 0 at the end.
func (s *Scanner) Peek() byte {
	if s.Pos >= len(s.data) {
		return 0
	}
	return s.data[s.Pos]
}

// End checks that only whitespace is left.
func (s *Scanner) End() error {
	s.SkipSpace()
	if s.Pos != len(s.data) {
		return s.Fail("unexpected data after the value")
	}
	return nil
}

// Literal reads true, false or null, whichever word is given.
func (s *Scanner) Literal(word string) error {
	if !bytes.HasPrefix(s.data[s.Pos:], []byte(word)) {
		return s.Fail("bad literal")
	}
	s.Pos += len(word)
	return nil
}

// Number reads a number and returns its text as written.
func (s *Scanner) Number() ([]byte, error) {
	start := s.Pos
	if s.Pos < len(s.data) && s.data[s.Pos] == '-' {
		s.Pos++
	}
	intStart := s.Pos
	if s.digits() == 0 {
		return nil, s.Fail("bad number")
	}
	if s.data[intStart] == '0' && s.Pos-intStart > 1 {
		return nil, s.Fail("leading zero in number")
	}
	if s.Pos < len(s.data) && s.data[s.Pos] == '.' {
		s.Pos++
		if s.digits() == 0 {
			return nil, s.Fail("bad fraction")
		}
	}
	if s.Pos < len(s.data) && (s.data[s.Pos] == 'e' || s.data[s.Pos] == 'E') {
		s.Pos++
		if s.Pos < len(s.data) && (s.data[s.Pos] == '+' || s.data[s.Pos] == '-') {
			s.Pos++
		}
		if s.digits() == 0 {
			return nil, s.Fail("bad exponent")
		}
	}
	return s.data[start:s.Pos], nil
}

func (s *Scanner) digits() int {
	n := 0
	for s.Pos < len(s.data) && s.data[s.Pos] >= '0' && s.data[s.Pos] <= '9' {
		s.Pos++
		n++
	}
	return n
}

// ScanString reads the string at Pos (which is '"') and returns its body
// as written; plain means the body is already canonical (no escapes,
// valid UTF-8), so it is also the decoded text. Escapes are checked.
func (s *Scanner) ScanString() (raw []byte, plain bool, err error) {
	s.Pos++ // opening quote
	start := s.Pos
	escaped, ascii := false, true
	for s.Pos < len(s.data) {
		c := s.data[s.Pos]
		switch {
		case c == '"':
			raw = s.data[start:s.Pos]
			s.Pos++
			return raw, !escaped && (ascii || utf8.Valid(raw)), nil
		case c == '\\':
			escaped = true
			if err := s.escape(); err != nil {
				return nil, false, err
			}
			continue
		case c < 0x20:
			return nil, false, s.Fail("control character in string")
		case c >= utf8.RuneSelf:
			ascii = false
		}
		s.Pos++
	}
	return nil, false, s.Fail("unterminated string")
}

// escape checks the escape sequence at Pos and moves past it.
func (s *Scanner) escape() error {
	if s.Pos+1 >= len(s.data) {
		return s.Fail("unterminated string")
	}
	switch s.data[s.Pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.Pos += 2
		return nil
	case 'u':
		if _, ok := hex4(s.data, s.Pos+2); !ok {
			return s.Fail("bad \\u escape")
		}
		s.Pos += 6
		return nil
	}
	return s.Fail("bad escape")
}

// String reads the string at Pos and returns its decoded text.
func (s *Scanner) String() (string, error) {
	raw, plain, err := s.ScanString()
	if err != nil {
		return "", err
	}
	if plain {
		return string(raw), nil
	}
	return Unquote(raw), nil
}

// EachMember walks the object at Pos: for each member it reads the name
// and the colon and calls fn, which must consume the value.
func (s *Scanner) EachMember(fn func(name string) error) error {
	s.Pos++ // {
	s.SkipSpace()
	if s.Pos < len(s.data) && s.data[s.Pos] == '}' {
		s.Pos++
		return nil
	}
	for {
		s.SkipSpace()
		if s.Pos >= len(s.data) || s.data[s.Pos] != '"' {
			return s.Fail("expected a member name")
		}
		name, err := s.String()
		if err != nil {
			return err
		}
		s.SkipSpace()
		if s.Pos >= len(s.data) || s.data[s.Pos] != ':' {
			return s.Fail("expected ':'")
		}
		s.Pos++
		s.SkipSpace()
		if err := fn(name); err != nil {
			return err
		}
		if done, err := s.next('}'); done || err != nil {
			return err
		}
	}
}

// EachElement walks the array at Pos, calling fn for each element, which
// must consume it.
func (s *Scanner) EachElement(fn func(i int) error) error {
	s.Pos++ // [
	s.SkipSpace()
	if s.Pos < len(s.data) && s.data[s.Pos] == ']' {
		s.Pos++
		return nil
	}
	for i := 0; ; i++ {
		s.SkipSpace()
		if err := fn(i); err != nil {
			return err
		}
		if done, err := s.next(']'); done || err != nil {
			return err
		}
	}
}

// next consumes the ',' between two members or elements, or the closer.
func (s *Scanner) next(closer byte) (done bool, err error) {
	s.SkipSpace()
	if s.Pos >= len(s.data) {
		return true, s.Fail("unterminated object or array")
	}
	switch s.data[s.Pos] {
	case ',':
		s.Pos++
		return false, nil
	case closer:
		s.Pos++
		return true, nil
	}
	return true, s.Fail(fmt.Sprintf("expected ',' or %q", closer))
}

// SkipValue moves past one value at the given depth, checking its
// grammar and its nesting.
func (s *Scanner) SkipValue(depth int) error {
	if err := CheckDepth(depth); err != nil {
		return err
	}
	s.SkipSpace()
	switch c := s.Peek(); {
	case c == '{':
		return s.EachMember(func(string) error { return s.SkipValue(depth + 1) })
	case c == '[':
		return s.EachElement(func(int) error { return s.SkipValue(depth + 1) })
	default:
		return s.SkipScalar()
	}
}

// SkipScalar moves past a string, number or literal at Pos.
func (s *Scanner) SkipScalar() error {
	if s.Pos >= len(s.data) {
		return s.Fail("unexpected end")
	}
	switch c := s.data[s.Pos]; {
	case c == '"':
		_, _, err := s.ScanString()
		return err
	case c == 't':
		return s.Literal("true")
	case c == 'f':
		return s.Literal("false")
	case c == 'n':
		return s.Literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := s.Number()
		return err
	}
	return s.Fail(fmt.Sprintf("unexpected character %q", s.data[s.Pos]))
}
