package capture

import (
	"encoding/json"
	"errors"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// One walk over a frame's top-level members serves both readers of
// frames: exchanges (parseEnvelope: the members that pair a request with
// its response) and the stdio reader (inspectLine: is the line JSON-RPC,
// and where is a list answer's item array). Values are sub-slices of the
// frame, never copies: a list page can be most of the byte budget.

// envelope is the part of a frame used to pair requests and responses.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// frameWalk is what walkFrame found. Each member keeps its last copy, as
// encoding/json would; counts says how many copies there were.
type frameWalk struct {
	envelope
	// jsonrpc is the last "jsonrpc" string; jsonrpcNotString is set when
	// any copy was not a string (encoding/json then refuses the line).
	jsonrpc          string
	jsonrpcNotString bool
	counts           map[string]int
	// items: with walkItems, the item arrays of the last object "result"
	// (itemArrays).
	items map[string][2]int
}

var errBadEnvelope = errors.New("a frame's method is neither a string nor null")

// walkFrame walks the object data holds, once. Member names match
// exactly, as JSON-RPC's do. Its error is a syntax error, a "method" or
// "error" of the wrong type, or canonjson.ErrTooDeep.
func walkFrame(data []byte, walkItems bool) (frameWalk, error) {
	w := frameWalk{counts: map[string]int{}}
	s := canonjson.NewScanner(data)
	s.SkipSpace()
	if s.Peek() != '{' {
		return w, errNotObject
	}
	raw := func() (json.RawMessage, error) {
		start := s.Pos
		if err := s.SkipValue(1); err != nil {
			return nil, err
		}
		return data[start:s.Pos:s.Pos], nil
	}
	err := s.EachMember(func(name string) error {
		w.counts[name]++
		var err error
		switch name {
		case "jsonrpc":
			if s.Peek() != '"' {
				w.jsonrpcNotString = true
				return s.SkipValue(1)
			}
			w.jsonrpc, err = s.String()
		case "id":
			w.ID, err = raw()
		case "params":
			w.Params, err = raw()
		case "result":
			if walkItems && s.Peek() == '{' {
				start := s.Pos
				if w.items, err = itemArrays(s, 1); err == nil {
					w.Result = data[start:s.Pos:s.Pos]
				}
				return err
			}
			w.items = nil
			w.Result, err = raw()
		case "method":
			w.Method = nil
			switch s.Peek() {
			case '"':
				var m string
				if m, err = s.String(); err == nil {
					w.Method = &m
				}
			case 'n':
				err = s.Literal("null")
			default:
				err = errBadEnvelope
			}
		case "error":
			var v json.RawMessage
			if v, err = raw(); err == nil {
				w.Error = nil
				err = json.Unmarshal(v, &w.Error)
			}
		default:
			err = s.SkipValue(1)
		}
		return err
	})
	if err == nil {
		err = s.End()
	}
	return w, err
}

// parseEnvelope reads a frame's envelope as encoding/json would (for
// member names written exactly). A frame nested deeper than the scanner
// goes is decoded with encoding/json instead.
func parseEnvelope(data []byte) (envelope, bool) {
	s := canonjson.NewScanner(data)
	s.SkipSpace()
	if s.Peek() == 'n' {
		return envelope{}, s.Literal("null") == nil && s.End() == nil
	}
	w, err := walkFrame(data, false)
	if errors.Is(err, canonjson.ErrTooDeep) {
		var d envelope
		return d, json.Unmarshal(data, &d) == nil
	}
	return w.envelope, err == nil
}

// lineFacts is what one pass over an incoming line found.
type lineFacts struct {
	// jsonrpc2: the line has "jsonrpc": "2.0".
	jsonrpc2 bool
	// id is the raw "id" value; nil when absent or repeated.
	id []byte
	// items holds, for each member of an object "result" named like a
	// list's item array and holding an array, that array's span in the
	// line. A name seen twice is dropped: which copy a parser keeps
	// differs, so such a line is handed on whole.
	items map[string][2]int
}

// inspectLine walks a JSON object line once. It fails on lines nested
// deeper than canonjson.MaxDepth, and on a "method" or "error" of the
// wrong type; the caller then falls back to decoding, and hands the
// line on whole.
func inspectLine(line []byte) (lineFacts, error) {
	w, err := walkFrame(line, true)
	if err != nil {
		return lineFacts{}, err
	}
	// As encoding/json reads it: the last copy counts (a repeated key is
	// reported from the recorded frame), and a copy that is not a string
	// spoils the line.
	f := lineFacts{jsonrpc2: w.jsonrpc == "2.0" && !w.jsonrpcNotString, items: w.items}
	if w.counts["id"] == 1 {
		f.id = w.ID
	}
	if w.counts["result"] > 1 {
		f.items = nil
	}
	return f, nil
}

// itemKeys is the set of ItemsKey's names.
var itemKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, k := range ItemsKey {
		keys[k] = true
	}
	return keys
}()

// itemArrays walks the result object at s.Pos (at depth) and returns the
// span of each member named like a list's item array, when that name
// occurs once and holds an array: which of two copies a parser keeps
// differs, so such a result is handed on whole.
func itemArrays(s *canonjson.Scanner, depth int) (map[string][2]int, error) {
	items := map[string][2]int{}
	counts := map[string]int{}
	err := s.EachMember(func(member string) error {
		if !itemKeys[member] {
			return s.SkipValue(depth + 1)
		}
		counts[member]++
		array := s.Peek() == '['
		start := s.Pos
		if err := s.SkipValue(depth + 1); err != nil {
			return err
		}
		if array {
			items[member] = [2]int{start, s.Pos}
		}
		return nil
	})
	for member, n := range counts {
		if n > 1 {
			delete(items, member)
		}
	}
	return items, err
}
