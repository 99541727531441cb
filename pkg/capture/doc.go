// Package capture records what an MCP client really receives from a server.
//
// It starts or connects to a server (a stdio command, a streamable HTTP or
// legacy SSE URL, or an in-process *mcp.Server), performs the handshake for a
// requested protocol revision, reads every list the server advertises to its
// last page, and keeps every JSON-RPC frame in both directions as raw bytes.
//
// Results are taken from the recorded frames, never from the SDK's decoded
// structs: the SDK turns schemas into maps, may drop what it cannot decode
// and may answer lists from a cache. When the SDK rejects a result, the raw
// bytes are still kept and the rejection is reported as a Diagnostic.
//
// Every loop over server data is bounded (pages, bytes, time) and every child
// process is reaped: see Limits and the stdio shutdown sequence in stdio.go.
// Shutdown is bounded too (Limits.ShutdownGrace), even when a process the
// server started holds its pipes; on Linux, descendants that left the
// server's process group are killed and named in a diagnostic, and
// AdoptOrphans (opt-in, process-wide) lets captures find daemons orphaned
// before shutdown as well, each attributed to its own server even while
// several captures run at once (every server starts as a subreaper of its
// own, see escape_linux.go). Options.DeferShutdown lets Run return before
// the reap, so that a caller's work overlaps the shutdown; it then waits
// with Capture.Wait or WaitShutdowns before it exits. A program that adopts
// orphans also gets a watchdog on Linux (watchdog_linux.go): a process that
// kills its servers' groups when the program dies without stopping them
// (SIGKILL included); elsewhere, a server of a program killed outright ends
// when it sees its stdin close.
//
// A capture holds what the server sent once: page results and exchanges
// share the bytes of the frames they were read from.
//
// Over HTTP, configured headers are sent to the configured origin only, and
// a redirect to another origin is refused with a RedirectError.
package capture
