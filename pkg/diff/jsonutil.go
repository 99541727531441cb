package diff

import (
	"bytes"
	"encoding/json"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
)

// object is a decoded JSON object whose members stay raw. Members of a
// canonical object are canonical themselves, so they can be compared by
// bytes and used as finding values directly.
type object map[string]json.RawMessage

// parseObject decodes raw as an object; anything else gives nil.
func parseObject(raw json.RawMessage) object {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	if o, ok := splitObject(raw); ok {
		return o
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil
	}
	return o
}

// parseArray decodes raw as an array; anything else gives nil.
func parseArray(raw json.RawMessage) []json.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	if a, ok := splitArray(raw); ok {
		return a
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil
	}
	return a
}

// splitObject is parseObject in one grammar-checking pass of the
// canonjson scanner (snapshots are canonical JSON, and a diff reads every
// item and schema object, some several times), giving exactly what
// encoding/json gives: member values as written (without the space around
// them; null stays "null"), the last of repeated names winning. ok is
// false, and the caller falls back to encoding/json, for what that pass
// does not settle alone: a member name with escapes or invalid UTF-8 (its
// decoded form is encoding/json's to say), nesting beyond
// canonjson.MaxDepth, any syntax error. The values share raw's bytes,
// capped so that an append never writes into raw.
func splitObject(raw []byte) (object, bool) {
	s := canonjson.NewScanner(raw)
	o := object{}
	ok := eachMember(s, func(name []byte) bool {
		start := s.Pos
		if skipValue(s, 1) != nil {
			return false
		}
		o[string(name)] = raw[start:s.Pos:s.Pos]
		return true
	})
	if !ok || s.End() != nil {
		return nil, false
	}
	return o, true
}

// splitArray is parseArray as splitObject is parseObject.
func splitArray(raw []byte) ([]json.RawMessage, bool) {
	s := canonjson.NewScanner(raw)
	a := []json.RawMessage{}
	err := s.EachElement(func(int) error {
		start := s.Pos
		if err := skipValue(s, 1); err != nil {
			return err
		}
		a = append(a, raw[start:s.Pos:s.Pos])
		return nil
	})
	if err != nil || s.End() != nil {
		return nil, false
	}
	return a, true
}

// eachMember walks the object at s.Pos (which is '{'), calling fn with
// each member's name as written, s at its value, which fn must consume.
// It stops with false at a syntax error, a name that is not plain (see
// canonjson.Scanner.ScanString) or when fn returns false.
func eachMember(s *canonjson.Scanner, fn func(name []byte) bool) bool {
	s.Pos++ // {
	s.SkipSpace()
	if s.Peek() == '}' {
		s.Pos++
		return true
	}
	for {
		s.SkipSpace()
		if s.Peek() != '"' {
			return false
		}
		name, plain, err := s.ScanString()
		if err != nil || !plain {
			return false
		}
		s.SkipSpace()
		if s.Peek() != ':' {
			return false
		}
		s.Pos++
		s.SkipSpace()
		if !fn(name) {
			return false
		}
		s.SkipSpace()
		switch s.Peek() {
		case ',':
			s.Pos++
		case '}':
			s.Pos++
			return true
		default:
			return false
		}
	}
}

// skipValue is canonjson.Scanner.SkipValue without decoding member names.
func skipValue(s *canonjson.Scanner, depth int) error {
	if err := canonjson.CheckDepth(depth); err != nil {
		return err
	}
	s.SkipSpace()
	switch s.Peek() {
	case '{':
		if !eachMember(s, func([]byte) bool { return skipValue(s, depth+1) == nil }) {
			return s.Fail("invalid object")
		}
		return nil
	case '[':
		return s.EachElement(func(int) error { return skipValue(s, depth+1) })
	default:
		return s.SkipScalar()
	}
}

// get returns a member; absent and JSON null both count as absent.
func (o object) get(k string) json.RawMessage {
	v := o[k]
	if isNull(v) {
		return nil
	}
	return v
}

func (o object) str(k string) (string, bool) { return stringValue(o[k]) }

func (o object) obj(k string) object { return parseObject(o[k]) }

// flag returns a member as a boolean; ok is false when it is absent or not
// a boolean.
func (o object) flag(k string) (v, ok bool) {
	switch string(o[k]) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func isNull(v json.RawMessage) bool { return len(v) == 0 || string(v) == "null" }

// stringValue decodes a JSON string.
func stringValue(v json.RawMessage) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	// A body without escapes, in valid UTF-8 and alone in v is its own
	// text (what encoding/json would decode).
	sc := canonjson.NewScanner(v)
	if body, plain, err := sc.ScanString(); err == nil && plain && sc.Pos == len(v) {
		return string(body), true
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

func rawEqual(a, b json.RawMessage) bool {
	if isNull(a) && isNull(b) {
		return true
	}
	return bytes.Equal(a, b)
}

// canon renders a Go value (string, bool, number, map, slice) canonically.
func canon(v any) json.RawMessage {
	b, err := canonjson.CanonicalizeValue(v)
	if err != nil {
		return nil
	}
	return b
}

func jsonString(s string) json.RawMessage { return canon(s) }

func jsonBool(b bool) json.RawMessage {
	if b {
		return json.RawMessage("true")
	}
	return json.RawMessage("false")
}

// ptr joins reference tokens onto a pointer, escaping each.
func ptr(base string, tokens ...string) string {
	return jsonptr.Pointer(base).Append(tokens...).String()
}

// short renders a raw value for a message, bounded.
func short(v json.RawMessage) string {
	if isNull(v) {
		return "(absent)"
	}
	s := visible(string(v))
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}

// quote renders a string for a message, bounded and with control and
// invisible characters made visible.
func quote(s string) string {
	s = visible(s)
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return `"` + s + `"`
}
