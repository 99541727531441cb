// Package e2e holds the end-to-end tests: the mcp-surface binary against
// the official MCP reference servers from npm (pinned in package.json and
// installed with `npm ci --prefix e2e`), over stdio, streamable HTTP and
// SSE.
//
// When the servers are not installed and npm is on PATH, TestMain runs
// that install command once (bounded in time; npm's output is printed when
// it fails), so the repository's test command works on a fresh clone.
// Without Node.js or npm, or when the install fails, the tests skip with
// the reason; with MCP_SURFACE_E2E=required (set by .ci/run) a skip is a
// failure instead.
//
// The tests that validate get the published MCP schemas as every test
// does (internal/testkit/sharedtest) and pass them with --schema-dir.
package e2e
