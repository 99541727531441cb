package action

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
)

// The action tests' names for gittest's: gitIn runs git in dir (a
// repository, or the directory a clone goes into) and returns its trimmed
// stdout; commitFiles writes files (nil content removes the file) and
// commits them.

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gittest.Run(t, dir, args...)
}

func commitFiles(t *testing.T, dir, msg string, files map[string][]byte) string {
	t.Helper()
	return gittest.Open(t, dir).CommitFiles(msg, files)
}
