package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// envelopeIssue groups frames with a problem at the same place, so a
// server that gets every frame wrong yields one finding, not thousands.
type envelopeIssue struct {
	pointer string
	first   string
	count   int
}

// envelopes checks the JSON-RPC 2.0 envelope of every frame the server
// sent: version, ids that answer a request the client sent (once), exactly
// one of result and error, and the shape of error objects.
func (k *checker) envelopes(frames []capture.Frame) {
	pending := map[string]string{} // request id → method
	var issues []*envelopeIssue
	byKey := map[string]*envelopeIssue{}
	// Problems are grouped by where they are in a frame: one finding per
	// pointer, so that fingerprints are unique and stable.
	report := func(f capture.Frame, what, pointer, msg string) {
		key := pointer
		if is, ok := byKey[key]; ok {
			is.count++
			return
		}
		is := &envelopeIssue{pointer: pointer, first: fmt.Sprintf("frame %d (%s): %s", f.Seq, what, msg), count: 1}
		byKey[key] = is
		issues = append(issues, is)
	}
	for _, f := range frames {
		msg, err := readEnvelope(f.Data)
		if f.Dir == capture.Sent {
			if err == nil {
				var method string
				if id, ok := msg["id"]; ok && json.Unmarshal(msg["method"], &method) == nil && method != "" {
					pending[idKey(id)] = method
				}
			}
			continue
		}
		if err != nil {
			if bytes.HasPrefix(bytes.TrimSpace(f.Data), []byte("[")) {
				if answers := batchAnswers(f.Data, pending); answers != "" {
					report(f, "message", "", fmt.Sprintf("the server answered %s inside a JSON-RPC batch (a JSON array); %s", answers, capture.BatchNote(k.rev.Name)))
				} else {
					report(f, "message", "", "the server sent a JSON array (a batch), which the client never requested")
				}
			} else {
				report(f, "message", "", "not a JSON object")
			}
			continue
		}
		rawID, hasID := msg["id"]
		rawMethod, isRequest := msg["method"]
		what := "message"
		var method string
		switch {
		case isRequest && json.Unmarshal(rawMethod, &method) == nil && method != "":
			if hasID {
				what = "request " + method
			} else {
				what = "notification " + method
			}
		case !isRequest && hasID:
			if m, ok := pending[idKey(rawID)]; ok {
				what = "response to " + m
			} else {
				what = "response"
			}
		}
		var version string
		if raw, ok := msg["jsonrpc"]; !ok {
			report(f, what, "/jsonrpc", `has no "jsonrpc" member; it must be "2.0"`)
		} else if json.Unmarshal(raw, &version) != nil || version != "2.0" {
			report(f, what, "/jsonrpc", fmt.Sprintf(`"jsonrpc" is %s, not "2.0"`, bounded(raw)))
		}
		if isRequest {
			if method == "" {
				report(f, what, "/method", fmt.Sprintf(`"method" is %s, not a non-empty string`, bounded(rawMethod)))
				continue
			}
			if hasID && !validRequestID(rawID) {
				report(f, what, "/id", fmt.Sprintf(`the id %s is not a string or an integer`, bounded(rawID)))
			}
			if p, ok := msg["params"]; ok && !isObject(p) {
				report(f, what, "/params", `"params" is not an object`)
			}
			continue
		}
		// A response.
		result, hasResult := msg["result"]
		rpcErr, hasError := msg["error"]
		sent := false
		if hasID {
			if _, sent = pending[idKey(rawID)]; sent {
				delete(pending, idKey(rawID))
			}
		}
		switch {
		case !hasID:
			report(f, what, "/id", `a response without "id"`)
		case isNull(rawID) && hasError:
			// A JSON-RPC error about a request whose id could not be read.
		case !sent:
			report(f, what, "/id", fmt.Sprintf("answers id %s, which the client never sent or that was already answered", bounded(rawID)))
		}
		switch {
		case hasResult && hasError:
			report(f, what, "/error", `has both "result" and "error"; exactly one is allowed`)
		case !hasResult && !hasError:
			report(f, what, "/result", `has neither "result" nor "error"`)
		case hasResult && !isObject(result):
			report(f, what, "/result", fmt.Sprintf(`"result" is %s, but MCP results are objects`, kindOfFirst(result)))
		case hasError:
			k.errorObject(f, what, rpcErr, report)
		}
	}
	for _, is := range issues {
		msg := is.first
		switch {
		case is.count == 2:
			msg += " (and 1 more frame with a problem there)"
		case is.count > 2:
			msg += fmt.Sprintf(" (and %d more frames with a problem there)", is.count-1)
		}
		k.add(rules.JsonrpcEnvelopeInvalid, server, is.pointer, msg)
	}
}

func (k *checker) errorObject(f capture.Frame, what string, raw json.RawMessage, report func(capture.Frame, string, string, string)) {
	var e map[string]json.RawMessage
	if json.Unmarshal(raw, &e) != nil {
		report(f, what, "/error", `"error" is not an object`)
		return
	}
	code, ok := e["code"]
	if !ok {
		report(f, what, "/error/code", `the error has no "code"`)
	} else if _, err := strconv.ParseInt(string(bytes.TrimSpace(code)), 10, 64); err != nil {
		report(f, what, "/error/code", fmt.Sprintf(`the error code %s is not an integer`, bounded(code)))
	}
	var s string
	if m, ok := e["message"]; !ok {
		report(f, what, "/error/message", `the error has no "message"`)
	} else if json.Unmarshal(m, &s) != nil {
		report(f, what, "/error/message", fmt.Sprintf(`the error message %s is not a string`, bounded(m)))
	}
}

// bulky members are only looked at for their kind, so they are not copied.
var bulky = map[string]bool{"result": true, "params": true}

// readEnvelope reads the members of a JSON-RPC object. The values of
// "result" and "params" are reduced to their first byte (enough to tell
// an object), since they can be megabytes long.
func readEnvelope(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not an object")
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if bulky[key] {
			var p firstByte
			if err := dec.Decode(&p); err != nil {
				return nil, err
			}
			out[key] = json.RawMessage{byte(p)}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out[key] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}

// firstByte keeps the first byte of a JSON value.
type firstByte byte

func (f *firstByte) UnmarshalJSON(b []byte) error {
	if len(b) > 0 {
		*f = firstByte(b[0])
	}
	return nil
}

// kindOfFirst names the JSON type of a value from its first byte.
func kindOfFirst(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '{':
		return "an object"
	}
	return "a number"
}

// idKey normalizes an id for matching: the JSON text, without spacing.
func idKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func validRequestID(raw json.RawMessage) bool {
	if isNull(raw) {
		return false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return true
	}
	_, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	return err == nil
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func bounded(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// batchAnswers names the requests a batch answers ("tools/list", ...),
// "" when it answers none of the pending requests.
func batchAnswers(data []byte, pending map[string]string) string {
	var batch []map[string]json.RawMessage
	if json.Unmarshal(data, &batch) != nil {
		return ""
	}
	var names []string
	for _, m := range batch {
		if _, isRequest := m["method"]; isRequest {
			continue
		}
		if method, ok := pending[idKey(m["id"])]; ok {
			delete(pending, idKey(m["id"]))
			names = append(names, method)
		}
	}
	return strings.Join(names, ", ")
}
