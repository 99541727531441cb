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
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil
	}
	return a
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
