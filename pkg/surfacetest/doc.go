// Package surfacetest puts the whole surface guard inside `go test` for
// Go MCP servers: Check captures an in-process *mcp.Server, validates what
// it sent against the published schema of the revision it negotiated,
// compares its snapshot with the committed one through the diff engine,
// and fails the test with the message `mcp-surface snapshot --check` and
// the npm and Python helpers print: the verdict first ("2 tools break
// existing clients: testdata/mcp-surface.json is out of date"), one line
// per finding with the call that now fails, and how to rewrite the
// snapshot (at most 20 lines; past them the full report is logged).
//
//	func TestSurface(t *testing.T) {
//		surfacetest.Check(t, newServer(), surfacetest.Options{Snapshot: "testdata/mcp-surface.json"})
//	}
//
// A finding at or above Options.FailOn (error by default: a breaking
// change, a spec violation) fails the test with the findings; anything
// below only logs them. The snapshot is written, instead of compared, when
// the test runs with -surfacetest.update or with MCP_SURFACE_UPDATE=1 in
// the environment:
//
//	go test ./... -surfacetest.update    # or: MCP_SURFACE_UPDATE=1 go test ./...
//
// The flag is namespaced because a test binary has one flag set: a package
// flag called "update" would collide with the one many projects define for
// their own golden files. The variable is for `go test ./...` over several
// packages, where a flag that some package does not define is an error.
//
// The published MCP schemas come from the usual loader: Options.SchemaDir,
// else the directory named by $MCP_SURFACE_SCHEMA_DIR, else the user's
// schema cache (the one `mcp-surface schemas fetch` fills), downloading
// what is missing unless Options.NoDownload is set. Unlike the packages
// below the CLI, this one reads the environment and a command-line flag:
// it is a helper for tests, and that is how tests are told things. When no
// schema can be had, the failure says how to get them offline.
//
// Check takes a TB (the part of testing.TB it uses), so that a test of a
// test can observe failures.
package surfacetest
