package action

import (
	"os"
	"os/exec"
	"path/filepath"
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

// newOrigin is an empty repository in a directory of its own, the origin
// a workspace clones (cloneOf); the test is skipped without git.
func newOrigin(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	origin := filepath.Join(t.TempDir(), "origin")
	if err := os.MkdirAll(origin, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, origin, "init", "-q")
	return origin
}

// cloneOf clones origin into a new workspace and returns its path.
func cloneOf(t *testing.T, origin string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	gitIn(t, filepath.Dir(ws), "clone", "-q", "file://"+origin, ws)
	return ws
}
