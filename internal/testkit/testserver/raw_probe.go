package testserver

import (
	"encoding/json"
	"strings"
)

// Raw modes for probes: results that break the protocol in ways the
// go-sdk server would not let us produce, a call that is never answered,
// and an answer too large for the capture's byte budget.
const (
	ModeProbeWrong = "probe-wrong"
	ModeProbeHang  = "probe-hang"
	ModeProbeHuge  = "probe-huge"
)

// ProbeHugeBytes is the length of the text in probe-huge's tools/call
// answer.
const ProbeHugeBytes = 8 << 20

// ProbeWrongFlakyMessage is the message of the JSON-RPC error the flaky
// tool of probe-wrong answers with.
const ProbeWrongFlakyMessage = "database unavailable"

const probeWrongTools = `{"tools":[` +
	`{"name":"echo","description":"Echo the message back.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}},` +
	`{"name":"weather","description":"Current weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}},"outputSchema":{"type":"object","properties":{"temp":{"type":"number"},"unit":{"type":"string","enum":["C","F"]}},"required":["temp","unit"]}},` +
	`{"name":"snapshot","description":"Take a screenshot.","inputSchema":{"type":"object"}},` +
	`{"name":"record","description":"Record a sound.","inputSchema":{"type":"object"}},` +
	`{"name":"link","description":"Link to a file.","inputSchema":{"type":"object"}},` +
	`{"name":"flaky","description":"Fails with a JSON-RPC error.","inputSchema":{"type":"object"}}` +
	`]}`

// probeWrongCalls are the tools/call results of probe-wrong, by tool.
var probeWrongCalls = map[string]string{
	// Right.
	"echo": `{"content":[{"type":"text","text":"hi"}]}`,
	// structuredContent breaks the outputSchema: temp is a string, unit
	// is missing.
	"weather": `{"content":[{"type":"text","text":"21"}],"structuredContent":{"temp":"21"}}`,
	// An image without mimeType.
	"snapshot": `{"content":[{"type":"image","data":"iVBORw0KGgo="}]}`,
	// Audio whose mimeType is empty.
	"record": `{"content":[{"type":"audio","data":"UklGRg==","mimeType":""}]}`,
	// A resource link without uri.
	"link": `{"content":[{"type":"resource_link","name":"readme"}]}`,
}

const probeWrongPrompts = `{"prompts":[` +
	`{"name":"greet","description":"Greet someone.","arguments":[{"name":"name","description":"Who.","required":true}]}` +
	`]}`

// The greet prompt answers with a role the schema does not allow.
const probeWrongGreet = `{"messages":[{"role":"system","content":{"type":"text","text":"You greet people."}}]}`

const (
	ProbeWrongReadmeURI = "test://wrong/readme.md"
	ProbeWrongLogoURI   = "test://wrong/logo.png"
)

const probeWrongResources = `{"resources":[` +
	`{"uri":"` + ProbeWrongReadmeURI + `","name":"readme","description":"The readme.","mimeType":"text/markdown"},` +
	`{"uri":"` + ProbeWrongLogoURI + `","name":"logo","description":"The logo.","mimeType":"image/png"}` +
	`]}`

// Reads: the readme's contents lose the listed MIME type, the logo's blob
// is not base64.
var probeWrongReads = map[string]string{
	ProbeWrongReadmeURI: `{"contents":[{"uri":"` + ProbeWrongReadmeURI + `","text":"# readme"}]}`,
	ProbeWrongLogoURI:   `{"contents":[{"uri":"` + ProbeWrongLogoURI + `","mimeType":"image/png","blob":"@@not base64@@"}]}`,
}

// probeRequest answers the requests that the probe modes treat specially;
// done is false for the ones the common loop answers.
func (s *rawServer) probeRequest(req rpcMessage) (done bool, err error) {
	id, method := req.ID, req.Method
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(req.Params, &p)
	switch s.mode {
	case ModeProbeHang:
		return method == "tools/call", nil // never answered
	case ModeProbeHuge:
		if method != "tools/call" {
			return false, nil
		}
		var b strings.Builder
		b.Grow(ProbeHugeBytes + 100)
		b.WriteString(`{"jsonrpc":"2.0","id":`)
		b.Write(id)
		b.WriteString(`,"result":{"content":[{"type":"text","text":"`)
		b.WriteString(strings.Repeat("x", ProbeHugeBytes))
		b.WriteString(`"}]}}`)
		return true, s.writeLine(method, []byte(b.String()))
	}
	// probe-wrong
	switch method {
	case "initialize":
		res := s.initializeResult(req.Params).(map[string]any)
		res["capabilities"] = json.RawMessage(`{"tools":{},"prompts":{},"resources":{}}`)
		return true, s.writeResult(id, method, res)
	case "tools/list":
		return true, s.writeResult(id, method, json.RawMessage(probeWrongTools))
	case "tools/call":
		if p.Name == "flaky" {
			return true, s.writeError(id, method, -32603, ProbeWrongFlakyMessage)
		}
		if r, ok := probeWrongCalls[p.Name]; ok {
			return true, s.writeResult(id, method, json.RawMessage(r))
		}
		// An unknown tool answered with a result instead of an error.
		b, _ := json.Marshal("unknown tool " + p.Name)
		return true, s.writeResult(id, method, json.RawMessage(`{"content":[{"type":"text","text":`+string(b)+`}],"isError":true}`))
	case "prompts/list":
		return true, s.writeResult(id, method, json.RawMessage(probeWrongPrompts))
	case "prompts/get":
		if p.Name == "greet" {
			return true, s.writeResult(id, method, json.RawMessage(probeWrongGreet))
		}
		return true, s.writeError(id, method, codeInvalidParams, "unknown prompt")
	case "resources/list":
		return true, s.writeResult(id, method, json.RawMessage(probeWrongResources))
	case "resources/templates/list":
		return true, s.writeResult(id, method, json.RawMessage(`{"resourceTemplates":[]}`))
	case "resources/read":
		if r, ok := probeWrongReads[p.URI]; ok {
			return true, s.writeResult(id, method, json.RawMessage(r))
		}
		return true, s.writeError(id, method, -32002, "resource not found")
	}
	return false, nil
}
