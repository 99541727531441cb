package testserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolsFileEnv names a JSON file of {"tool name": "description"}: a
// process started with it serves those tools over stdio (serverInfo name:
// the file's base name, version 1.0.0), read when it starts. A test
// changes what a server advertises by rewriting the file, without
// changing the command that starts it: the drift of the servers a lock
// pins. MaybeRunFromEnv serves it.
const ToolsFileEnv = "MCP_SURFACE_TESTSERVER_TOOLS_FILE"

// runToolsFile serves the tools of the file at path over stdio and
// returns the exit status.
func runToolsFile(path string) int {
	data, err := os.ReadFile(path)
	var tools map[string]string
	if err == nil {
		err = json.Unmarshal(data, &tools)
	}
	if err != nil {
		os.Stderr.WriteString("testserver tools file: " + err.Error() + "\n")
		return 1
	}
	s := mcp.NewServer(&mcp.Implementation{Name: filepath.Base(path), Version: "1.0.0"}, nil)
	for name, desc := range tools {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}
