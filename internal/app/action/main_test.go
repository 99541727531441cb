package action

import (
	"os"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// TestMain lets tests re-execute this test binary as a stdio MCP test
// server (the repositories' server scripts run it as ACTION_TEST_SERVER).
func TestMain(m *testing.M) {
	testserver.MaybeRunFromEnv()
	os.Exit(m.Run())
}
