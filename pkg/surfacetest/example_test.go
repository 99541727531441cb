package surfacetest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/surfacetest"
)

// printTB stands in for the *testing.T of a real test: it prints the
// first line of what Check reports, with the temporary directory as DIR.
type printTB struct{ dir string }

func (printTB) Helper()                             {}
func (p printTB) Logf(format string, args ...any)   { p.print("log:", format, args) }
func (p printTB) Errorf(format string, args ...any) { p.print("FAIL:", format, args) }
func (p printTB) Fatalf(format string, args ...any) { p.print("FATAL:", format, args) }

func (p printTB) print(what, format string, args []any) {
	line, _, _ := strings.Cut(fmt.Sprintf(format, args...), "\n")
	fmt.Println(what, strings.ReplaceAll(line, p.dir, "DIR"))
}

func weather(tools ...string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	for _, name := range tools {
		s.AddTool(&mcp.Tool{Name: name, Description: "Weather " + name + " for a city.", InputSchema: map[string]any{
			"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []string{"city"},
		}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	return s
}

// In a server's own test, Check is one line:
//
//	func TestSurface(t *testing.T) {
//		surfacetest.Check(t, newServer(), surfacetest.Options{Snapshot: "testdata/mcp-surface.json"})
//	}
//
// Here a stand-in for *testing.T shows what it reports: the snapshot is
// written once (go test -surfacetest.update), the same server then passes,
// and a server that drops a tool fails with the findings.
func ExampleCheck() {
	dir, _ := os.MkdirTemp("", "surfacetest")
	defer os.RemoveAll(dir)
	o := surfacetest.Options{
		Snapshot: filepath.Join(dir, "testdata", "mcp-surface.json"),
		// Leave SchemaDir empty in your tests: $MCP_SURFACE_SCHEMA_DIR
		// or the schema cache is used.
		SchemaDir: exampleSchemaDir(), NoDownload: true,
	}

	write := o
	write.Update = true
	surfacetest.Check(printTB{dir}, weather("current", "forecast"), write)
	surfacetest.Check(printTB{dir}, weather("current", "forecast"), o)
	surfacetest.Check(printTB{dir}, weather("current"), o)
	// Output:
	// log: surfacetest: wrote DIR/testdata/mcp-surface.json (2 tools, 0 prompts, 0 resources, 0 resource templates); review and commit it
	// FAIL: 1 tool breaks existing clients: DIR/testdata/mcp-surface.json is out of date
}

// exampleSchemaDir is where this repository's tests find the published
// schemas.
func exampleSchemaDir() string {
	d, err := spectest.Dir()
	if err != nil {
		panic(err)
	}
	return d
}
