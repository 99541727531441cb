package canonjson

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Decode parses JSON into the values encoding/json produces with
// UseNumber (map[string]any, []any, string, json.Number, bool, nil),
// without reflection. A repeated member name keeps its last value, as
// encoding/json does.
func Decode(data []byte) (any, error) {
	s := NewScanner(data)
	s.SkipSpace()
	v, err := s.decode(0)
	if err != nil {
		return nil, err
	}
	if err := s.End(); err != nil {
		return nil, err
	}
	return v, nil
}

func (s *Scanner) decode(depth int) (any, error) {
	if err := CheckDepth(depth); err != nil {
		return nil, err
	}
	switch c := s.Peek(); {
	case c == '{':
		m := map[string]any{}
		err := s.EachMember(func(name string) error {
			v, err := s.decode(depth + 1)
			m[name] = v
			return err
		})
		if err != nil {
			return nil, err
		}
		return m, nil
	case c == '[':
		a := []any{}
		err := s.EachElement(func(int) error {
			v, err := s.decode(depth + 1)
			a = append(a, v)
			return err
		})
		if err != nil {
			return nil, err
		}
		return a, nil
	case c == '"':
		return s.String()
	case c == 't':
		return true, s.Literal("true")
	case c == 'f':
		return false, s.Literal("false")
	case c == 'n':
		return nil, s.Literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		lit, err := s.Number()
		if err != nil {
			return nil, err
		}
		return json.Number(lit), nil
	}
	return nil, s.SkipScalar()
}

// Canonical is a value already in canonical form; AppendValue writes it
// as it is.
type Canonical []byte

// CanonicalizeValue renders a JSON value held in Go values (maps,
// slices, strings, float64 or json.Number, int, int64, bool, nil, a
// json.RawMessage or a Canonical) in canonical form.
func CanonicalizeValue(v any) ([]byte, error) {
	return AppendValue(nil, v, 0)
}

// AppendValue appends the canonical form of v, which sits at the given
// depth of the document being written (0 for a whole document), so that a
// document rendered piece by piece keeps the one nesting limit.
func AppendValue(dst []byte, v any, depth int) ([]byte, error) {
	if err := CheckDepth(depth); err != nil {
		return nil, err
	}
	var err error
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case string:
		return AppendString(dst, x), nil
	case json.Number:
		return AppendNumber(dst, []byte(x))
	case float64:
		n, err := Number(strconv.FormatFloat(x, 'g', -1, 64))
		if err != nil {
			return nil, err
		}
		return append(dst, n...), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case Canonical:
		return append(dst, x...), nil
	case json.RawMessage:
		inner, err := Decode(x)
		if err != nil {
			return nil, err
		}
		return AppendValue(dst, inner, depth)
	case map[string]any:
		return AppendObject(dst, x, depth, nil, appendMember)
	case []any:
		start := len(dst)
		dst = append(dst, '[')
		spans := make([][2]int, 0, len(x))
		prim := true
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			st := len(dst)
			if dst, err = AppendValue(dst, e, depth+1); err != nil {
				return nil, err
			}
			spans = append(spans, [2]int{st, len(dst)})
			prim = prim && primitive(e)
		}
		if prim {
			dst = SortElements(dst, start, spans)
		}
		return append(dst, ']'), nil
	}
	return nil, fmt.Errorf("canonicalize: unsupported Go type %T", v)
}

func appendMember(dst []byte, _ string, v any, depth int) ([]byte, error) {
	return AppendValue(dst, v, depth)
}

// AppendObject appends the object m, which sits at the given depth, with
// its keys in canonical order; keys keep rejects are left out (nil keeps
// all). Each member's value is written by value, at depth+1, so that a
// caller can render some members its own way and keep the one form.
func AppendObject(dst []byte, m map[string]any, depth int, keep func(key string) bool,
	value func(dst []byte, key string, v any, depth int) ([]byte, error)) ([]byte, error) {
	if err := CheckDepth(depth); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if keep == nil || keep(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(AppendString(dst, k), ':')
		if dst, err = value(dst, k, m[k], depth+1); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// primitive reports whether a Go value renders as a JSON primitive. A
// Canonical value is judged by its first byte.
func primitive(v any) bool {
	switch x := v.(type) {
	case map[string]any, []any, json.RawMessage:
		return false
	case Canonical:
		return len(x) > 0 && x[0] != '{' && x[0] != '['
	}
	return true
}
