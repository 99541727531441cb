package spec_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// The example server's committed snapshot, checked against the published
// schema of its revision (and linted).
func ExampleValidateManifest() {
	m, err := manifest.ReadFile("../../examples/server/mcp-surface.json")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := spectest.Dir() // a directory of published MCP schemas
	if err != nil {
		log.Fatal(err)
	}
	schemas, err := spec.Load(context.Background(), spec.Options{Dir: dir, NoDownload: true}, m.ProtocolVersion)
	if err != nil {
		log.Fatal(err)
	}
	findings, err := spec.ValidateManifest(m, schemas)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range findings {
		fmt.Println(f.Level, f.Rule, f.Subject, f.Pointer)
	}
	// Output:
	// note description-missing resource notes://logo.png /description
}
