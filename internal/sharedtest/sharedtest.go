// Package sharedtest finds, for tests, the repository root and the shared
// data beside it (../shared: the published MCP schemas and the SARIF
// schema), which tests read in place and the project never copies.
package sharedtest

import (
	"errors"
	"os"
	"path/filepath"
)

// SchemaDirEnv names a directory of published MCP schemas that replaces
// ../shared/mcp-schema (CI sets it).
const SchemaDirEnv = "MCP_SURFACE_SCHEMA_DIR"

// RepoRoot is the directory holding go.mod, found from the working
// directory (a test's package directory) upwards.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// SchemaDir is $MCP_SURFACE_SCHEMA_DIR, else ../shared/mcp-schema beside
// the repository root.
func SchemaDir() (string, error) {
	if d := os.Getenv(SchemaDirEnv); d != "" {
		return d, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "..", "shared", "mcp-schema"), nil
}
