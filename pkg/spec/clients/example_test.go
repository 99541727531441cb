package clients_test

import (
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// Check reports each tool a client profile would reject, with the
// keyword's pointer and the documented reason.
func ExampleCheck() {
	ps, err := clients.ParseList([]string{"gemini,claude-code:github"})
	if err != nil {
		panic(err)
	}
	tools := []clients.Tool{{Name: "search", Value: map[string]any{
		"name": "search",
		"inputSchema": map[string]any{
			"type":                 "object",
			"additionalProperties": false,
			"properties":           map[string]any{"q": map[string]any{"type": "string"}},
		},
	}}}
	for _, f := range clients.Check("github-server", tools, ps) {
		fmt.Println(f.Rule, f.Subject.Name, f.Pointer)
	}
	// Output:
	// client-schema-keyword-unsupported search /inputSchema/additionalProperties
}
