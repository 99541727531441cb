package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// span is a byte range [Start, End) of a message.
type span struct{ Start, End int }

// member is one member of a JSON object as written: from the end of what
// came before it (the opening brace, or the previous value) to the end of
// its value, so that cutting [From, End) of any member but the first
// removes it with its comma.
type member struct {
	Key   string
	From  int
	Value span
}

// objectMembers returns the members of the JSON object at data[s.Start:s.End]
// with offsets into data, in the order written.
func objectMembers(data []byte, s span) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data[s.Start:s.End]))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		from := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		v, err := valueSpan(dec, data[s.Start:s.End])
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", key, err)
		}
		out = append(out, member{Key: key, From: s.Start + from, Value: span{s.Start + v.Start, s.Start + v.End}})
	}
	return out, nil
}

// arrayElements returns the spans of the elements of the JSON array at
// data[s.Start:s.End], as offsets into data.
func arrayElements(data []byte, s span) ([]span, error) {
	dec := json.NewDecoder(bytes.NewReader(data[s.Start:s.End]))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, errors.New("not a JSON array")
	}
	var out []span
	for dec.More() {
		v, err := valueSpan(dec, data[s.Start:s.End])
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", len(out), err)
		}
		out = append(out, span{s.Start + v.Start, s.Start + v.End})
	}
	return out, nil
}

// valueSpan reads the next value of dec, which reads data, and returns
// where it is in data.
func valueSpan(dec *json.Decoder, data []byte) (span, error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return span{}, err
	}
	end := int(dec.InputOffset())
	start := end - len(raw)
	if start < 0 || !bytes.Equal(data[start:end], raw) {
		return span{}, errors.New("value not found where it was read")
	}
	return span{start, end}, nil
}

// find returns the member of a key (the last one, as a JSON decoder
// keeps it).
func find(ms []member, key string) (member, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Key == key {
			return ms[i], true
		}
	}
	return member{}, false
}

// withoutMember is data with a member of the object whose members are ms
// cut out, commas kept right.
func withoutMember(data []byte, ms []member, i int) []byte {
	out := make([]byte, 0, len(data))
	if i > 0 {
		out = append(out, data[:ms[i].From]...)
		return append(out, data[ms[i].Value.End:]...)
	}
	// The first member: cut it, and the comma after it when another
	// member follows.
	out = append(out, data[:ms[0].From]...)
	rest := data[ms[0].Value.End:]
	if len(ms) > 1 {
		rest = bytes.TrimLeft(rest[bytes.IndexByte(rest, ',')+1:], " \t\r\n")
	}
	return append(out, rest...)
}

// withElements is data with the array at arr replaced by the elements
// keep (spans of data), each written as it was, separated by commas.
func withElements(data []byte, arr span, keep []span) []byte {
	out := make([]byte, 0, len(data))
	out = append(out, data[:arr.Start]...)
	out = append(out, '[')
	for i, s := range keep {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, data[s.Start:s.End]...)
	}
	out = append(out, ']')
	return append(out, data[arr.End:]...)
}
