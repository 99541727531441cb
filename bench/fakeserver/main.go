// Command fakeserver is an instant stdio MCP server for the capture
// benchmark: it answers at once and exits as soon as its stdin closes, so
// that timing a client against it measures the client's own cost (process
// start, handshake, list requests, shutdown) with the server's time
// reduced to almost nothing.
//
// Its surface is shaped like server-everything's: 13 tools, 4 prompts,
// 7 resources and 2 resource templates, one page each. Like
// server-everything it does not know server/discover (it answers
// -32601), so a client requesting 2026-07-28 falls back to initialize.
//
// -startup D makes it wait D before it reads its stdin: a server that
// takes time to start without using the CPU (waiting on a database, a
// network, a lock), for the check benchmark, which measures how well a
// check overlaps captures rather than how fast the CPU runs them.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"params"`
}

func main() {
	startup := flag.Duration("startup", 0, "wait this long before reading stdin")
	flag.Parse()
	time.Sleep(*startup)
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriter(os.Stdout)
	results := map[string]any{
		"tools/list":               map[string]any{"tools": items(13, tool)},
		"prompts/list":             map[string]any{"prompts": items(4, prompt)},
		"resources/list":           map[string]any{"resources": items(7, resource)},
		"resources/templates/list": map[string]any{"resourceTemplates": items(2, template)},
	}
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var r request
			if json.Unmarshal(line, &r) == nil && r.ID != nil && r.Method != "" {
				reply := map[string]any{"jsonrpc": "2.0", "id": r.ID}
				switch r.Method {
				case "initialize":
					v := r.Params.ProtocolVersion
					if v == "" || v > "2025-11-25" {
						v = "2025-11-25"
					}
					reply["result"] = map[string]any{
						"protocolVersion": v,
						"capabilities": map[string]any{
							"tools": map[string]any{"listChanged": true}, "prompts": map[string]any{"listChanged": true},
							"resources": map[string]any{"subscribe": true, "listChanged": true}, "logging": map[string]any{},
						},
						"serverInfo":   map[string]any{"name": "fakeserver", "version": "1.0.0"},
						"instructions": "A server that answers at once, for benchmarks.",
					}
				default:
					if res, ok := results[r.Method]; ok {
						reply["result"] = res
					} else {
						reply["error"] = map[string]any{"code": -32601, "message": "Method not found"}
					}
				}
				b, _ := json.Marshal(reply)
				out.Write(append(b, '\n'))
				out.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}

func items(n int, f func(i int) map[string]any) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func tool(i int) map[string]any {
	return map[string]any{
		"name":        fmt.Sprintf("tool-%d", i),
		"title":       fmt.Sprintf("Tool %d", i),
		"description": "Does one thing with its input and returns the result as text content.",
		"inputSchema": map[string]any{
			"$schema": "http://json-schema.org/draft-07/schema#",
			"type":    "object",
			"properties": map[string]any{
				"message": map[string]any{"type": "string", "description": "Text to process"},
				"count":   map[string]any{"type": "integer", "minimum": 1, "maximum": 100, "default": 1},
				"mode":    map[string]any{"type": "string", "enum": []string{"fast", "slow", "exact"}},
			},
			"required": []string{"message"},
		},
		"annotations": map[string]any{"readOnlyHint": true, "openWorldHint": false},
	}
}

func prompt(i int) map[string]any {
	return map[string]any{
		"name": fmt.Sprintf("prompt-%d", i), "title": fmt.Sprintf("Prompt %d", i),
		"description": "A prompt with one argument",
		"arguments":   []map[string]any{{"name": "topic", "description": "What to talk about", "required": i%2 == 0}},
	}
}

func resource(i int) map[string]any {
	return map[string]any{
		"uri": fmt.Sprintf("demo://resource/static/%d.md", i), "name": fmt.Sprintf("%d.md", i),
		"mimeType": "text/markdown", "description": "A static markdown document",
	}
}

func template(i int) map[string]any {
	return map[string]any{
		"name": fmt.Sprintf("Dynamic resource %d", i), "uriTemplate": fmt.Sprintf("demo://resource/dynamic/%d/{id}", i),
		"mimeType": "text/plain", "description": "A resource generated from its id",
	}
}
