package action

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// TestMain lets tests re-execute this test binary as a stdio MCP test
// server (the repositories' server scripts run it as ACTION_TEST_SERVER).
// Schemas come from the shared directory (each step names it): their
// published location is a server that answers 404, so that no test
// reaches the network. It is set once, before the tests, which run in
// parallel.
func TestMain(m *testing.M) {
	testserver.MaybeRunFromEnv()
	dead := httptest.NewServer(http.NotFoundHandler())
	schemaBaseURL = dead.URL
	code := m.Run()
	dead.Close()
	os.Exit(code)
}
