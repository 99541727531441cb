package sharedtest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
)

// FillFunc makes sure cacheDir holds every published MCP revision as
// <cacheDir>/<revision>/schema.json, verified, downloading with client
// what is missing: spec.Fetch for each revision. It is passed in because
// the spec package's own tests use this package too.
type FillFunc func(ctx context.Context, cacheDir string, client *http.Client) error

var (
	mcpOnce sync.Once
	mcpDir  string
	mcpErr  error
)

// MCPSchemaDir returns a directory laid out as <dir>/<revision>/schema.json
// holding the published MCP schemas: $MCP_SURFACE_TEST_DATA/mcp-schema,
// else the product's schema cache, filled by fill when it lacks a
// revision. The files are checked against their pinned digests when the
// spec package loads them. The lookup runs once per test binary; an error
// is an *UnavailableError, for Require.
func MCPSchemaDir(fill FillFunc) (string, error) {
	mcpOnce.Do(func() { mcpDir, mcpErr = findMCPSchemas(fill) })
	return mcpDir, mcpErr
}

func findMCPSchemas(fill FillFunc) (string, error) {
	ue := &UnavailableError{What: "the published MCP schemas"}
	root, rootErr := cacheRoot()
	cache := filepath.Join(root, "schemas")
	if rootErr != nil {
		cache = "the user cache directory"
	}
	ue.Fix = fixText(fmt.Sprintf("or run `mcp-surface schemas fetch` where the network is reachable (it fills %s), or run the tests once with network", cache))
	return lookup(ue, rootErr, func(data string) (string, error) {
		dir := filepath.Join(data, "mcp-schema")
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("%s has no mcp-schema directory", data)
		}
		return dir, nil
	}, func() (string, bool) {
		ctx, cancel := Context()
		defer cancel()
		if err := fill(ctx, cache, Client()); err != nil {
			ue.Tried = append(ue.Tried, fmt.Sprintf("the cache %s, then the published location: %v", cache, err))
			return "", false
		}
		return cache, true
	})
}
