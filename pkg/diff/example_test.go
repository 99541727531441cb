package diff_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// notesServer is a small server whose search tool takes the given
// required parameters.
func notesServer(version string, required ...string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: version}, nil)
	props := map[string]any{}
	for _, p := range required {
		props[p] = map[string]any{"type": "string"}
	}
	s.AddTool(&mcp.Tool{
		Name:        "search",
		Description: "Search the notes by text.",
		InputSchema: map[string]any{"type": "object", "properties": props, "required": required},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	return s
}

// snapshot captures a server in-process and reduces it to its canonical
// snapshot.
func snapshot(s *mcp.Server) *manifest.Manifest {
	c, err := capture.Run(context.Background(), capture.InProcess{Server: s}, capture.Options{})
	if err != nil {
		log.Fatal(err)
	}
	m, err := manifest.Build(c)
	if err != nil {
		log.Fatal(err)
	}
	return m
}

// Capture two versions of a server, reduce each to its snapshot, and
// compare them: a new required parameter breaks every existing call.
func Example() {
	base := snapshot(notesServer("1.0.0", "query"))
	head := snapshot(notesServer("2.0.0", "query", "folder"))

	res := diff.Diff(base, head, diff.Options{})
	for _, f := range res.Findings {
		fmt.Printf("%s %s %s %s\n", f.Level, f.Rule, f.Subject.Name, f.Pointer)
	}
	fmt.Println("suggested bump:", res.SuggestedBump)
	// Output:
	// error input-required-property-added search /inputSchema/properties/folder
	// info server-version-changed  /serverInfo/version
	// suggested bump: major
}
