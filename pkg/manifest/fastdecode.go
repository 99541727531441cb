package manifest

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// decodeFast parses JSON into the values encoding/json produces with
// UseNumber (map[string]any, []any, string, json.Number, bool, nil),
// without reflection. A repeated member name keeps its last value, as
// encoding/json does.
func decodeFast(data []byte) (any, error) {
	p := &canonParser{data: data}
	p.skipWS()
	v, err := p.decodeValue(0)
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.pos != len(p.data) {
		return nil, p.fail("unexpected data after the value")
	}
	return v, nil
}

func (p *canonParser) decodeValue(depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", maxDepth)
	}
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		m := map[string]any{}
		err := p.eachMember(func(name string) error {
			v, err := p.decodeValue(depth + 1)
			m[name] = v
			return err
		})
		if err != nil {
			return nil, err
		}
		return m, nil
	case c == '[':
		a := []any{}
		err := p.eachElement(func(int) error {
			v, err := p.decodeValue(depth + 1)
			a = append(a, v)
			return err
		})
		if err != nil {
			return nil, err
		}
		return a, nil
	case c == '"':
		return p.decodeString()
	case c == 't':
		_, _, err := p.lit(nil, "true")
		return true, err
	case c == 'f':
		_, _, err := p.lit(nil, "false")
		return false, err
	case c == 'n':
		_, _, err := p.lit(nil, "null")
		return nil, err
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		if _, err := p.number(nil); err != nil {
			return nil, err
		}
		return json.Number(p.data[start:p.pos]), nil
	}
	return nil, p.fail(fmt.Sprintf("unexpected character %q", p.data[p.pos]))
}

// replaceInvalid replaces each invalid UTF-8 byte with U+FFFD, as
// encoding/json does.
func replaceInvalid(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}
