package capture

import (
	"bytes"
	"fmt"

	"github.com/mcp-surface/mcp-surface/internal/canonjson"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkjson "github.com/segmentio/encoding/json"
)

// A list page can be far larger than anything else a server sends: a
// generated or hostile server may put its whole byte budget in one
// page. The capture keeps a page's bytes once, as its frame. The SDK,
// which the capture lets decode every answer as a real client would,
// holds a message several times over while it decodes it (its line
// reader's buffer, the JSON-RPC envelope's raw result, the buffers of
// its JSON decoder and the typed result): a single 62 MiB page peaked
// near 600 MiB. So the stdio reader hands the SDK each list answer over
// slimAbove with its item array emptied (slimListAnswer; over HTTP, the
// recording connection does the same to the decoded result, slimResult),
// and the capture decodes the items itself, one at a time, with the SDK's
// own types and its JSON decoder's settings (checkListItems): the same
// refusal, named down to the item, in the memory of one item.

// slimAbove is the size of the list answers the SDK gets without their
// items. Smaller answers reach it whole, so that it knows the tools as
// any client does (with 2026-07-28 over HTTP it sends a tool's
// x-mcp-header parameters as headers when a probe calls it); at this size
// its decoding costs tens of MiB at most. A real server's page is rarely
// a hundredth of it.
var slimAbove = 4 << 20

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

var itemKeys = map[string]bool{"tools": true, "prompts": true, "resources": true, "resourceTemplates": true}

// inspectLine walks a JSON object line once. It fails on lines nested
// deeper than canonjson.MaxDepth; the caller then falls back to
// decoding, and hands the line on whole.
func inspectLine(line []byte) (lineFacts, error) {
	var f lineFacts
	s := canonjson.NewScanner(line)
	s.SkipSpace()
	seen := map[string]int{}
	notString := false
	err := s.EachMember(func(name string) error {
		seen[name]++
		switch {
		case name == "jsonrpc":
			// As encoding/json reads it: the last copy counts (a repeated
			// key is reported from the recorded frame), and a copy that is
			// not a string spoils the line.
			if s.Peek() != '"' {
				notString = true
				return s.SkipValue(1)
			}
			v, err := s.String()
			f.jsonrpc2 = v == "2.0"
			return err
		case name == "id":
			start := s.Pos
			if err := s.SkipValue(1); err != nil {
				return err
			}
			f.id = line[start:s.Pos]
			return nil
		case name == "result" && s.Peek() == '{':
			var err error
			f.items, err = itemArrays(s, 1)
			return err
		default:
			return s.SkipValue(1)
		}
	})
	if err != nil {
		return lineFacts{}, err
	}
	if notString {
		f.jsonrpc2 = false
	}
	if seen["id"] > 1 {
		f.id = nil
	}
	if seen["result"] > 1 {
		f.items = nil
	}
	return f, nil
}

// slimListAnswer returns the line with the item array of the list
// method's result emptied, and whether there was one to empty.
func slimListAnswer(line []byte, f lineFacts, method string) ([]byte, bool) {
	span, ok := f.items[ItemsKey[method]]
	if !ok {
		return nil, false
	}
	out := make([]byte, 0, len(line)-(span[1]-span[0])+3)
	out = append(out, line[:span[0]]...)
	out = append(out, "[]"...)
	out = append(out, line[span[1]:]...)
	return append(out, '\n'), true
}

// checkListItems decodes each item of a list result the way the SDK's
// client decodes a whole result (its types, its decoder's flags), and
// returns the first refusal, naming the item. Items are at most
// canonjson.MaxDepth deep (inspectLine refused deeper lines), well
// within the SDK's own bound on a message (1000).
func checkListItems(method string, result []byte) error {
	key := ItemsKey[method]
	s := canonjson.NewScanner(result)
	s.SkipSpace()
	if s.Peek() != '{' {
		return nil
	}
	var first error
	err := s.EachMember(func(member string) error {
		if member != key || s.Peek() != '[' {
			return s.SkipValue(1)
		}
		return s.EachElement(func(i int) error {
			start := s.Pos
			if err := s.SkipValue(2); err != nil {
				return err
			}
			if first == nil {
				if err := decodeItem(method, result[start:s.Pos]); err != nil {
					first = fmt.Errorf("%s[%d]: %w", key, i, err)
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil // the SDK saw this line whole (inspectLine failed too)
	}
	return first
}

func decodeItem(method string, item []byte) error {
	switch method {
	case MethodToolsList:
		return decodeAs[mcp.Tool](item)
	case MethodPromptsList:
		return decodeAs[mcp.Prompt](item)
	case MethodResourcesList:
		return decodeAs[mcp.Resource](item)
	case MethodResourceTemplatesList:
		return decodeAs[mcp.ResourceTemplate](item)
	}
	return nil
}

// decodeAs decodes one item into a *T, as the SDK decodes each element of
// a list's []*T.
func decodeAs[T any](item []byte) error {
	var v *T
	_, err := sdkjson.Parse(item, &v, sdkjson.DontMatchCaseInsensitiveStructFields)
	return err
}

// listAnswerTo names the list method a response answers, for the stdio
// reader: it is registered when the request is written, and consumed
// by its answer.
func (r *recorder) listAnswerTo(id []byte) (string, bool) {
	if id == nil {
		return "", false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	key := string(bytes.TrimSpace(id))
	m, ok := r.lists[key]
	if ok {
		delete(r.lists, key)
	}
	return m, ok
}

// slimResult is a list result with its item array emptied, for a
// transport that decoded the message already (HTTP): the rules of
// inspectLine, applied to the result alone.
func slimResult(result []byte, method string) ([]byte, bool) {
	s := canonjson.NewScanner(result)
	s.SkipSpace()
	if s.Peek() != '{' {
		return nil, false
	}
	items, err := itemArrays(s, 0)
	if err != nil || s.End() != nil {
		return nil, false
	}
	span, ok := items[ItemsKey[method]]
	if !ok {
		return nil, false
	}
	out := make([]byte, 0, len(result)-(span[1]-span[0])+2)
	out = append(out, result[:span[0]]...)
	out = append(out, "[]"...)
	return append(out, result[span[1]:]...), true
}

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
