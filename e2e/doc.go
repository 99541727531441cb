// Package e2e holds the end-to-end tests: the mcp-surface binary against
// the official MCP reference servers from npm (pinned in package.json and
// installed with `npm ci --prefix e2e`), over stdio, streamable HTTP and
// SSE.
//
// Without Node.js or the installed packages the tests skip with a message
// that says how to install them; with MCP_SURFACE_E2E=required (set by
// .ci/run) a skip is a failure instead.
package e2e
