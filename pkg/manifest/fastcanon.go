package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// canonParser is a single-pass JSON parser that writes canonical output
// directly, so that canonicalizing does not build a generic Go value tree.
// Object members are canonicalized into a scratch buffer and then emitted
// in key order; primitive-only arrays likewise in element order.
type canonParser struct {
	data []byte
	pos  int
	// Per-depth scratch space reused across objects, so that nested
	// objects do not allocate a buffer each.
	scratch [][]byte
	members [][]member
}

var errSyntax = errors.New("invalid JSON")

func (p *canonParser) fail(what string) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", p.pos, what)
}

func (p *canonParser) skipWS() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// canonicalizeFast is Canonicalize without an intermediate value tree.
func canonicalizeFast(data []byte) ([]byte, error) {
	p := &canonParser{data: data}
	out := make([]byte, 0, len(data))
	p.skipWS()
	out, _, err := p.value(out, 0)
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.pos != len(p.data) {
		return nil, p.fail("unexpected data after the value")
	}
	return out, nil
}

// value appends the canonical form of the next value; prim reports whether
// it was a primitive (not an object or array).
func (p *canonParser) value(out []byte, depth int) ([]byte, bool, error) {
	if depth > maxDepth {
		return nil, false, fmt.Errorf("JSON nested deeper than %d levels", maxDepth)
	}
	if p.pos >= len(p.data) {
		return nil, false, p.fail("unexpected end")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		out, err := p.object(out, depth)
		return out, false, err
	case c == '[':
		out, err := p.array(out, depth)
		return out, false, err
	case c == '"':
		out, err := p.str(out)
		return out, true, err
	case c == 't':
		return p.lit(out, "true")
	case c == 'f':
		return p.lit(out, "false")
	case c == 'n':
		return p.lit(out, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		out, err := p.number(out)
		return out, true, err
	}
	return nil, false, p.fail(fmt.Sprintf("unexpected character %q", p.data[p.pos]))
}

func (p *canonParser) lit(out []byte, word string) ([]byte, bool, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, false, p.fail("bad literal")
	}
	p.pos += len(word)
	return append(out, word...), true, nil
}

func (p *canonParser) number(out []byte) ([]byte, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if digits() == 0 {
		return nil, p.fail("bad number")
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		return nil, p.fail("leading zero in number")
	}
	simple := true
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		simple = false
		if digits() == 0 {
			return nil, p.fail("bad fraction")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		simple = false
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("bad exponent")
		}
	}
	lit := p.data[start:p.pos]
	if simple && p.pos-intStart <= 21 && !(len(lit) == 2 && lit[0] == '-' && lit[1] == '0') {
		return append(out, lit...), nil
	}
	n, err := canonicalNumber(string(lit))
	if err != nil {
		return nil, err
	}
	return append(out, n...), nil
}

// scanString reads the string at p.pos and returns its body; plain means
// the body is already canonical (no escapes, valid UTF-8).
func (p *canonParser) scanString() (raw []byte, plain bool, err error) {
	p.pos++ // opening quote
	start := p.pos
	escaped, ascii := false, true
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			raw = p.data[start:p.pos]
			p.pos++
			return raw, !escaped && (ascii || utf8.Valid(raw)), nil
		case c == '\\':
			escaped = true
			p.pos += 2
			continue
		case c < 0x20:
			return nil, false, p.fail("control character in string")
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.pos++
	}
	return nil, false, p.fail("unterminated string")
}

// decodeString reads the string at p.pos; invalid UTF-8 becomes U+FFFD
// byte by byte, as encoding/json does.
func (p *canonParser) decodeString() (string, error) {
	raw, plain, err := p.scanString()
	if err != nil {
		return "", err
	}
	if plain {
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

// str appends a canonical string: a plain body is copied as is.
func (p *canonParser) str(out []byte) ([]byte, error) {
	raw, plain, err := p.scanString()
	if err != nil {
		return nil, err
	}
	if plain {
		out = append(out, '"')
		out = append(out, raw...)
		return append(out, '"'), nil
	}
	s, err := unquote(raw)
	if err != nil {
		return nil, p.fail(err.Error())
	}
	b := bytes.NewBuffer(out)
	writeString(b, s)
	return b.Bytes(), nil
}

// eachMember walks the object at p.pos: for each member it reads the name
// and the colon and calls fn, which must consume the value.
func (p *canonParser) eachMember(fn func(name string) error) error {
	p.pos++ // {
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return nil
	}
	for {
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.fail("expected a member name")
		}
		name, err := p.decodeString()
		if err != nil {
			return err
		}
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.fail("expected ':'")
		}
		p.pos++
		p.skipWS()
		if err := fn(name); err != nil {
			return err
		}
		if done, err := p.next('}'); done || err != nil {
			return err
		}
	}
}

// eachElement walks the array at p.pos, calling fn for each element, which
// must consume it.
func (p *canonParser) eachElement(fn func(i int) error) error {
	p.pos++ // [
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return nil
	}
	for i := 0; ; i++ {
		p.skipWS()
		if err := fn(i); err != nil {
			return err
		}
		if done, err := p.next(']'); done || err != nil {
			return err
		}
	}
}

// next consumes the ',' between two members or elements, or the closer.
func (p *canonParser) next(closer byte) (done bool, err error) {
	p.skipWS()
	if p.pos >= len(p.data) {
		return true, p.fail("unterminated object or array")
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case closer:
		p.pos++
		return true, nil
	}
	return true, p.fail(fmt.Sprintf("expected ',' or %q", closer))
}

// unquote decodes the body of a JSON string.
func unquote(raw []byte) (string, error) {
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", errors.New("bad escape")
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			b = append(b, raw[i+1])
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return "", errors.New("bad \\u escape")
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok2 := hex4(raw, i+2); ok2 && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						b = utf8.AppendRune(b, d)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
			continue
		default:
			return "", errors.New("bad escape")
		}
		i += 2
	}
	return string(b), nil
}

func hex4(raw []byte, at int) (rune, bool) {
	if at+4 > len(raw) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(raw[at:at+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

type member struct {
	key   string // decoded
	start int    // span of "key":value in scratch
	end   int
}

func (p *canonParser) object(out []byte, depth int) ([]byte, error) {
	for len(p.scratch) <= depth {
		p.scratch = append(p.scratch, nil)
		p.members = append(p.members, nil)
	}
	scratch := p.scratch[depth][:0]
	members := p.members[depth][:0]
	defer func() {
		p.scratch[depth] = scratch[:0]
		p.members[depth] = members[:0]
	}()
	err := p.eachMember(func(name string) error {
		st := len(scratch)
		b := bytes.NewBuffer(scratch)
		writeString(b, name)
		scratch = append(b.Bytes(), ':')
		var err error
		scratch, _, err = p.value(scratch, depth+1)
		members = append(members, member{key: name, start: st, end: len(scratch)})
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(members, func(a, b member) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	out = append(out, '{')
	first := true
	for i, m := range members {
		// A repeated name keeps its last value, as encoding/json does.
		if i+1 < len(members) && members[i+1].key == m.key {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, scratch[m.start:m.end]...)
	}
	return append(out, '}'), nil
}
func (p *canonParser) array(out []byte, depth int) ([]byte, error) {
	start := len(out)
	out = append(out, '[')
	var spans [][2]int
	allPrim := true
	err := p.eachElement(func(i int) error {
		if i > 0 {
			out = append(out, ',')
		}
		st := len(out)
		var prim bool
		var err error
		out, prim, err = p.value(out, depth+1)
		allPrim = allPrim && prim
		spans = append(spans, [2]int{st, len(out)})
		return err
	})
	if err != nil {
		return nil, err
	}
	if allPrim && len(spans) > 1 {
		elems := make([][]byte, len(spans))
		for i, s := range spans {
			elems[i] = slices.Clone(out[s[0]:s[1]])
		}
		slices.SortFunc(elems, bytes.Compare)
		out = append(out[:start], '[')
		for i, e := range elems {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, e...)
		}
	}
	return append(out, ']'), nil
}

// skipValue advances past one JSON value, checking its structure (strings
// and numbers loosely: they are checked again when items are
// canonicalized).
func (p *canonParser) skipValue(depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("JSON nested deeper than %d levels", maxDepth)
	}
	p.skipWS()
	if p.pos >= len(p.data) {
		return p.fail("unexpected end")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.eachMember(func(string) error { return p.skipValue(depth + 1) })
	case c == '[':
		return p.eachElement(func(int) error { return p.skipValue(depth + 1) })
	case c == '"':
		_, _, err := p.scanString()
		return err
	case c == 't':
		_, _, err := p.lit(nil, "true")
		return err
	case c == 'f':
		_, _, err := p.lit(nil, "false")
		return err
	case c == 'n':
		_, _, err := p.lit(nil, "null")
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := p.number(nil)
		return err
	}
	return p.fail(fmt.Sprintf("unexpected character %q", p.data[p.pos]))
}

// splitItems returns the raw elements of the array under key in a result
// object, without decoding anything else; nil when the key is absent or
// null.
func splitItems(result []byte, key string) ([]json.RawMessage, error) {
	p := &canonParser{data: result}
	p.skipWS()
	if p.pos >= len(p.data) || p.data[p.pos] != '{' {
		return nil, errors.New("result is not a JSON object")
	}
	var items []json.RawMessage
	found := false
	err := p.eachMember(func(name string) error {
		if name != key {
			return p.skipValue(1)
		}
		// A repeated key keeps its last value, as encoding/json does.
		found, items = true, nil
		switch {
		case p.pos < len(p.data) && p.data[p.pos] == 'n':
			found = false
			_, _, err := p.lit(nil, "null")
			return err
		case p.pos >= len(p.data) || p.data[p.pos] != '[':
			return fmt.Errorf("%q is not an array", key)
		}
		return p.eachElement(func(int) error {
			start := p.pos
			if err := p.skipValue(2); err != nil {
				return err
			}
			items = append(items, json.RawMessage(p.data[start:p.pos]))
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.pos != len(p.data) {
		return nil, p.fail("unexpected data after the result")
	}
	if !found {
		return nil, nil
	}
	return items, nil
}
