package main

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/surfacetest"
)

// TestSurfaceSnapshot holds the server's surface against mcp-surface.json,
// the snapshot this repository's own workflow also checks the server's
// pull requests against. After an intended change:
//
//	go test ./examples/server -run TestSurfaceSnapshot -surfacetest.update
func TestSurfaceSnapshot(t *testing.T) {
	surfacetest.Check(t, newServer(newNotebook()), surfacetest.Options{
		Snapshot: "mcp-surface.json",
		// A server's own test leaves SchemaDir empty ($MCP_SURFACE_SCHEMA_DIR
		// or the schema cache); this repository's tests name theirs.
		SchemaDir: spectest.SchemaDir(t),
	})
}
