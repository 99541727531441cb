package guard

import (
	"bytes"
	"errors"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
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
// with offsets into data, in the order written, checking its grammar.
func objectMembers(data []byte, s span) ([]member, error) {
	sc := canonjson.NewScanner(data[:s.End])
	sc.Pos = s.Start
	sc.SkipSpace()
	if sc.Peek() != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	prevEnd := sc.Pos + 1
	err := sc.EachMember(func(name string) error {
		start := sc.Pos
		end, err := skip(data[:s.End], start)
		if err != nil {
			return err
		}
		sc.Pos = end
		out = append(out, member{Key: name, From: prevEnd, Value: span{start, sc.Pos}})
		prevEnd = sc.Pos
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// arrayElements returns the spans of the elements of the JSON array at
// data[s.Start:s.End], as offsets into data, checking its grammar.
func arrayElements(data []byte, s span) ([]span, error) {
	sc := canonjson.NewScanner(data[:s.End])
	sc.Pos = s.Start
	sc.SkipSpace()
	if sc.Peek() != '[' {
		return nil, errors.New("not a JSON array")
	}
	var out []span
	err := sc.EachElement(func(int) error {
		start := sc.Pos
		end, err := skip(data[:s.End], start)
		if err != nil {
			return err
		}
		sc.Pos = end
		out = append(out, span{start, sc.Pos})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// skip returns the end of the value at data[pos:], reading only its
// structure (strings, brackets, nesting) and not the grammar of every
// scalar: what the guard forwards as it came needs no more, and every
// item it compares is read whole by the canonical form.
func skip(data []byte, pos int) (int, error) {
	depth := 0
	for i := pos; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if i >= len(data) {
				return 0, errors.New("unterminated string")
			}
			if depth == 0 {
				return i + 1, nil
			}
		case '{', '[':
			depth++
			if depth > canonjson.MaxDepth {
				return 0, canonjson.ErrTooDeep
			}
		case '}', ']':
			if depth == 0 { // the closer after a scalar
				if i == pos {
					return 0, errors.New("expected a value")
				}
				return i, nil
			}
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		case ',', ' ', '\t', '\r', '\n', ':':
			if depth == 0 {
				if i == pos {
					return 0, errors.New("expected a value")
				}
				return i, nil
			}
		}
	}
	if depth == 0 && len(data) > pos {
		return len(data), nil
	}
	return 0, errors.New("unexpected end of the message")
}

// header is what the session reads of every message: its id (raw) and
// method, and its members.
type header struct {
	ID      []byte
	Method  string
	Members []member
}

// readHeader reads a message's top-level members; ok is false for what
// is not a JSON object.
func readHeader(msg []byte) (h header, ok bool) {
	ms, err := objectMembers(msg, span{0, len(msg)})
	if err != nil {
		return h, false
	}
	h.Members = ms
	if id, found := find(ms, "id"); found {
		h.ID = msg[id.Value.Start:id.Value.End]
	}
	if m, found := find(ms, "method"); found && msg[m.Value.Start] == '"' {
		sc := canonjson.NewScanner(msg[:m.Value.End])
		sc.Pos = m.Value.Start
		h.Method, _ = sc.String()
	}
	return h, true
}

// find returns the member of a key (the last one, as a JSON decoder
// keeps it).
func find(ms []member, key string) (member, bool) {
	if i := findAt(ms, key); i >= 0 {
		return ms[i], true
	}
	return member{}, false
}

// findAt is the index in ms of the member find returns, -1 for none.
func findAt(ms []member, key string) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Key == key {
			return i
		}
	}
	return -1
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
