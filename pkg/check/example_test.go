package check_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// weatherServer is a small server; v2 drops the forecast tool.
func weatherServer(version string, tools ...string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: version}, nil)
	for _, name := range tools {
		s.AddTool(&mcp.Tool{
			Name:        name,
			Description: "Weather " + name + " for a city.",
			InputSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"city": map[string]any{"type": "string"}},
				"required":   []string{"city"},
			},
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	return s
}

// Check a server against the snapshot its last release committed: the
// pipeline validates the live surface against the published schema,
// compares it with the baseline and applies the policy; deciding what
// fails is the caller's.
func ExampleRun() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// The baseline: the snapshot of the released version.
	c, err := capture.Run(ctx, capture.InProcess{Server: weatherServer("1.0.0", "current", "forecast")}, capture.Options{})
	if err != nil {
		log.Fatal(err)
	}
	released, err := manifest.Build(c)
	if err != nil {
		log.Fatal(err)
	}
	baseline := filepath.Join(dir, "mcp-surface.json")
	if err := manifest.WriteFile(baseline, released); err != nil {
		log.Fatal(err)
	}

	schemas, err := spectest.Dir() // a directory of published MCP schemas
	if err != nil {
		log.Fatal(err)
	}
	res, err := check.Run(ctx, check.Options{
		Servers:  []check.Server{{Name: "weather", InProcess: weatherServer("2.0.0", "current")}},
		Baseline: check.Baseline{File: baseline},
		// Published MCP schemas, as <dir>/<revision>/schema.json.
		SchemaOptions: spec.Options{Dir: schemas, NoDownload: true},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Findings {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s %s %s", f.Level, f.Rule, f.Subject.Name)))
	}
	fmt.Println("fails at error:", res.Fails(rules.LevelError, nil))
	// Output:
	// error tool-removed forecast
	// note context-cost-changed
	// info server-version-changed
	// fails at error: true
}
