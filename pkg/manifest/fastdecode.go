package manifest

import (
	"bytes"
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
		p.pos++
		m := map[string]any{}
		p.skipWS()
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return m, nil
		}
		for {
			p.skipWS()
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return nil, p.fail("expected a member name")
			}
			k, err := p.decodeString()
			if err != nil {
				return nil, err
			}
			p.skipWS()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return nil, p.fail("expected ':'")
			}
			p.pos++
			p.skipWS()
			v, err := p.decodeValue(depth + 1)
			if err != nil {
				return nil, err
			}
			m[k] = v
			p.skipWS()
			if p.pos >= len(p.data) {
				return nil, p.fail("unterminated object")
			}
			if p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.data[p.pos] == '}' {
				p.pos++
				return m, nil
			}
			return nil, p.fail("expected ',' or '}'")
		}
	case c == '[':
		p.pos++
		a := []any{}
		p.skipWS()
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return a, nil
		}
		for {
			p.skipWS()
			v, err := p.decodeValue(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			p.skipWS()
			if p.pos >= len(p.data) {
				return nil, p.fail("unterminated array")
			}
			if p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.data[p.pos] == ']' {
				p.pos++
				return a, nil
			}
			return nil, p.fail("expected ',' or ']'")
		}
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

func (p *canonParser) decodeString() (string, error) {
	p.pos++
	start := p.pos
	plain := true
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			p.pos += 2
			continue
		}
		if c < 0x20 {
			return "", p.fail("control character in string")
		}
		if c >= utf8.RuneSelf {
			plain = false
		}
		p.pos++
	}
	if p.pos >= len(p.data) {
		return "", p.fail("unterminated string")
	}
	raw := p.data[start:p.pos]
	p.pos++
	if plain || (bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw)) {
		return string(raw), nil
	}
	s, err := unquote(raw)
	if err != nil {
		return "", p.fail(err.Error())
	}
	if !utf8.ValidString(s) {
		s = replaceInvalid(s)
	}
	return s, nil
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
