// Package capturetest builds, from a fixture's frames, the capture the
// recorder would have made of them, for the tests of the packages that
// judge captures (pkg/spec, pkg/probe); and captures testserver's servers
// in process and snapshots them, for the tests that need a real capture.
package capturetest

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// FromFrames builds a Capture the way the recorder does: frames in
// order, requests paired with responses by id, list pages and the
// handshake taken from the exchanges.
func FromFrames(t testing.TB, frames []capture.Frame) *capture.Capture {
	t.Helper()
	c := &capture.Capture{Target: "fixture", Transport: "stdio", Frames: frames}
	pending := map[string]int{}
	for _, f := range frames {
		var e struct {
			ID     json.RawMessage   `json:"id"`
			Method *string           `json:"method"`
			Params json.RawMessage   `json:"params"`
			Result json.RawMessage   `json:"result"`
			Error  *capture.RPCError `json:"error"`
		}
		if json.Unmarshal(f.Data, &e) != nil {
			continue
		}
		id := string(e.ID)
		switch {
		case f.Dir == capture.Sent && e.Method != nil && id != "":
			pending[id] = len(c.Exchanges)
			c.Exchanges = append(c.Exchanges, capture.Exchange{Method: *e.Method, Params: e.Params, RequestFrame: f.Seq, ResponseFrame: -1})
		case f.Dir == capture.Received && e.Method == nil && id != "":
			i, ok := pending[id]
			if !ok {
				continue
			}
			delete(pending, id)
			c.Exchanges[i].ResponseFrame = f.Seq
			c.Exchanges[i].Result = e.Result
			c.Exchanges[i].Error = e.Error
		}
	}
	index := map[string]int{}
	for _, x := range c.Exchanges {
		switch x.Method {
		case capture.HandshakeInitialize, capture.HandshakeDiscover:
			if x.Result != nil && c.HandshakeResult == nil {
				c.Handshake = x.Method
				c.HandshakeResult = x.Result
				var r struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				_ = json.Unmarshal(x.Result, &r)
				c.ProtocolVersion = r.ProtocolVersion
				var p struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				_ = json.Unmarshal(x.Params, &p)
				c.RequestedVersion = p.ProtocolVersion
			}
		case capture.MethodToolsList, capture.MethodPromptsList, capture.MethodResourcesList, capture.MethodResourceTemplatesList:
			if x.Result == nil {
				continue
			}
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(x.Params, &p)
			c.Pages = append(c.Pages, capture.Page{Method: x.Method, Index: index[x.Method], Cursor: p.Cursor, Result: x.Result, Frame: x.ResponseFrame})
			index[x.Method]++
		}
	}
	return c
}

// ParseFrames reads the frames section of a fixture: "> {json}" (sent) and "< {json}" (received) lines;
// "<raw " keeps the rest of the line verbatim (for frames that are not
// JSON objects).
func ParseFrames(t testing.TB, data []byte) []capture.Frame {
	t.Helper()
	var out []capture.Frame
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var dir capture.Direction
		switch line[0] {
		case '>':
			dir = capture.Sent
		case '<':
			dir = capture.Received
		default:
			t.Fatalf("frame line must start with > or <: %q", line)
		}
		body := strings.TrimSpace(line[1:])
		if !json.Valid([]byte(body)) && dir == capture.Sent {
			t.Fatalf("sent frame is not JSON: %q", line)
		}
		out = append(out, capture.Frame{Seq: len(out), Dir: dir, Data: json.RawMessage(body)})
	}
	return out
}
