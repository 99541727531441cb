// Package spectest finds the published MCP schemas for the tests of every
// package that validates (all but pkg/spec's own, which cannot import it):
// sharedtest's lookup, with the product's own pinned download (spec.Fetch)
// to fill the cache when it lacks a revision.
package spectest

import (
	"context"
	"net/http"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// Dir is a directory laid out as <dir>/<revision>/schema.json holding
// every published revision (sharedtest.MCPSchemaDir); its error is an
// *sharedtest.UnavailableError.
func Dir() (string, error) { return sharedtest.MCPSchemaDir(fill) }

// SchemaDir is Dir for a test: when the schemas cannot be found, the test
// fails and says how to provide them (sharedtest.Require).
func SchemaDir(t testing.TB) string {
	t.Helper()
	dir, err := Dir()
	sharedtest.Require(t, err)
	return dir
}

func fill(ctx context.Context, dir string, client *http.Client) error {
	for _, rev := range spec.RevisionNames() {
		if _, err := spec.Fetch(ctx, spec.Options{CacheDir: dir, HTTPClient: client}, rev); err != nil {
			return err
		}
	}
	return nil
}
