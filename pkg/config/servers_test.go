package config

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const serversSrc = `servers:
  - name: local
    command: npm run serve -- --port 0
    shell: true
    cwd: ../server
    env: {LOG_LEVEL: debug}
    protocolVersion: 2025-06-18
    require-probes: [tools/call, prompts/get]
    probes:
      - id: echo
        method: tools/call
        name: echo
        arguments: {message: "${GREETING}", times: 2}
      - id: unknown
        method: tools/call
        name: no_such_tool
        expect: rpc-error
      - id: sum
        method: tools/call
        name: get-sum
        arguments: {a: 1, b: 2}
        pin: shape
      - method: completion/complete
        ref: {type: ref/prompt, name: greet}
        argumentName: language
        argumentValue: e
  - name: remote
    url: https://mcp.example.com/mcp
    sse: true
    headers:
      Authorization: "Bearer ${MCP_TOKEN}"
      X-Team: core
    require-probes: all-advertised
  - name: split
    command: node dist/index.js --stdio
    shutdownGrace: 750ms
`

func TestParseServerOptions(t *testing.T) {
	c, err := Parse(".mcp-surface.yaml", []byte(serversSrc))
	if err != nil {
		t.Fatal(err)
	}
	want := []Server{
		{
			Name: "local", Command: []string{"npm run serve -- --port 0"}, Shell: true, Cwd: "../server",
			Env: map[string]string{"LOG_LEVEL": "debug"}, ProtocolVersion: "2025-06-18",
			RequireProbes: []string{"tools/call", "prompts/get"},
			Probes: []Probe{
				{ID: "echo", Method: "tools/call", Name: "echo", Arguments: json.RawMessage(`{"message":"${GREETING}","times":2}`)},
				{ID: "unknown", Method: "tools/call", Name: "no_such_tool", Expect: ExpectRPCError},
				{ID: "sum", Method: "tools/call", Name: "get-sum", Arguments: json.RawMessage(`{"a":1,"b":2}`), Pin: PinShape},
				{ID: "completion/complete", Method: "completion/complete", Ref: json.RawMessage(`{"name":"greet","type":"ref/prompt"}`), ArgumentName: "language", ArgumentValue: "e"},
			},
			Line: 2,
		},
		{
			Name: "remote", URL: "https://mcp.example.com/mcp", SSE: true,
			Headers:       map[string]string{"Authorization": "Bearer ${MCP_TOKEN}", "X-Team": "core"},
			RequireProbes: []string{RequireAllAdvertised},
			Line:          27,
		},
		{Name: "split", Command: []string{"node", "dist/index.js", "--stdio"}, ShutdownGrace: 750 * time.Millisecond, Line: 34},
	}
	if d := cmp.Diff(want, c.Servers); d != "" {
		t.Errorf("servers (-want +got):\n%s", d)
	}
}

func TestParseServerOptionErrors(t *testing.T) {
	const head = "servers:\n  - name: a\n"
	checkParseErrors(t, []parseErrorCase{
		{"headers with command", head + "    command: run\n    headers: {X-A: b}\n",
			`.mcp-surface.yaml:4: headers applies only to a server with a url`},
		{"sse with command", head + "    command: run\n    sse: true\n",
			`.mcp-surface.yaml:4: sse applies only to a server with a url`},
		{"cwd with url", head + "    url: http://x\n    cwd: srv\n",
			`.mcp-surface.yaml:4: cwd applies only to a server with a command`},
		{"shell with url", head + "    url: http://x\n    shell: true\n",
			`.mcp-surface.yaml:4: shell applies only to a server with a command`},
		{"sse not a bool", head + "    url: http://x\n    sse: yes please\n",
			`.mcp-surface.yaml:4: sse must be true or false, not "yes please"`},
		{"headers not a mapping", head + "    url: http://x\n    headers: [a]\n",
			`.mcp-surface.yaml:4: headers must be a mapping of header names to values`},
		{"bad header name", head + "    url: http://x\n    headers:\n      \"Bad Name\": x\n",
			`.mcp-surface.yaml:5: header name "Bad Name" is not a valid HTTP header name`},
		{"shutdownGrace with url", head + "    url: http://x\n    shutdownGrace: 1s\n",
			`.mcp-surface.yaml:4: shutdownGrace applies only to a server with a command`},
		{"shutdownGrace not a duration", head + "    command: run\n    shutdownGrace: 500\n",
			`.mcp-surface.yaml:4: shutdownGrace "500": use a positive duration such as 500ms or 2s`},
		{"bad protocol version", head + "    command: run\n    protocolVersion: 2025-06-19\n",
			`.mcp-surface.yaml:4: protocolVersion "2025-06-19": use one of 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 (did you mean "2025-06-18"?)`},
		{"bad require-probes", head + "    command: run\n    require-probes: [tools/call, tool/call]\n",
			`.mcp-surface.yaml:4: require-probes: unknown entry "tool/call": use tools/call, prompts/get, resources/read, completion/complete, all-advertised (did you mean "tools/call"?)`},
		{"repeated require-probes", head + "    command: run\n    require-probes: [tools/call, tools/call]\n",
			`.mcp-surface.yaml:4: require-probes: "tools/call" repeated`},
		{"require-probes mapping", head + "    command: run\n    require-probes: {a: b}\n",
			`.mcp-surface.yaml:4: require-probes must be a list of tools/call, prompts/get, resources/read, completion/complete, all-advertised`},
		{"bad expect", head + "    command: run\n    probes:\n      - method: tools/call\n        name: x\n        expect: error\n",
			`.mcp-surface.yaml:7: expect "error": use ok, is-error, rpc-error`},
		{"is-error on a prompt", head + "    command: run\n    probes:\n      - method: prompts/get\n        name: x\n        expect: is-error\n",
			`.mcp-surface.yaml:5: expect: is-error applies to tools/call only (other methods answer ok or rpc-error)`},
		{"bad pin", head + "    command: run\n    probes:\n      - method: tools/call\n        name: x\n        pin: value\n",
			`.mcp-surface.yaml:7: pin "value": the only pin is "shape"`},
	})
}
