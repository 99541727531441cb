package capture

import (
	"bytes"
	"fmt"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
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

// slimListAnswer returns the line with the item array of the list
// method's result emptied, and a newline for the SDK's reader, and
// whether there was one to empty.
func slimListAnswer(line []byte, f lineFacts, method string) ([]byte, bool) {
	span, ok := f.items[ItemsKey[method]]
	if !ok {
		return nil, false
	}
	return append(emptied(line, span, 1), '\n'), true
}

// emptied is data with the array at span replaced by [], with room for
// extra more bytes.
func emptied(data []byte, span [2]int, extra int) []byte {
	out := make([]byte, 0, len(data)-(span[1]-span[0])+2+extra)
	out = append(out, data[:span[0]]...)
	out = append(out, "[]"...)
	return append(out, data[span[1]:]...)
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
	return emptied(result, span, 0), true
}
