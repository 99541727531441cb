// Package testserver provides MCP servers for the tests of the capture code:
// well-behaved servers built with the go-sdk, and misbehaving ones served by a
// small raw JSON-RPC loop that controls every byte.
//
// # Running a mode
//
// In-process: [New] returns a go-sdk *mcp.Server for an SDK mode (connect it
// with mcp.NewInMemoryTransports), [Handler] serves an SDK mode over
// streamable HTTP or legacy SSE, and [RunStdio] serves any mode over the given
// streams.
//
// As a process: set MCP_SURFACE_TESTSERVER to a mode ([EnvFor] builds the
// entry) and run a binary that calls [MaybeRunFromEnv] first. A test package
// re-executes its own test binary this way:
//
//	func TestMain(m *testing.M) {
//		testserver.MaybeRunFromEnv()
//		os.Exit(m.Run())
//	}
//
//	cmd := exec.Command(os.Args[0])
//	cmd.Env = append(os.Environ(), testserver.EnvFor("full"))
//
// Or build ./internal/testkit/testserver/cmd/testserver and run `testserver MODE`
// (stdio), `testserver -http 127.0.0.1:0 [-sse | -stateless] MODE` (HTTP; prints the URL on
// stdout), or `testserver -list`. The process exits 0 on a clean EOF of stdin.
//
// # SDK modes
//
// All SDK modes report serverInfo {name: "mcp-surface-testserver",
// title: "mcp-surface test server", version: "1.0.0"}. The go-sdk sorts every
// list by its key (tool and prompt name, resource URI, template URI template)
// and pages it with opaque cursors; a list whose length is a multiple of the
// page size has no trailing empty page. Counts are "items (pages)":
//
//	mode        page size  tools      prompts  resources  templates
//	full        4          25 (7)     6 (2)    8 (2)      5 (2)
//	shuffled-N  4          25 (7)     6 (2)    8 (2)      5 (2)
//	tools-only  2          5 (3)      -        -          -
//	big         100        5000 (50)  -        -          -
//	probes      1000       8 (1)      3 (1)    3 (1)      1 (1)
//	rug-pull    2          4 (2)      1 (1)    1 (1)      0 (1)
//
// full models a project tracker. Capabilities: completions, logging,
// prompts{listChanged}, resources{listChanged, subscribe},
// tools{listChanged}; it has instructions. Of its 25 tools, 24 have
// annotations, 13 a title, 7 an outputSchema (and return structuredContent),
// 4 a _meta and 1 icons; input schemas use required, enum, default, const,
// numeric and length bounds, pattern, format, nested objects, arrays,
// additionalProperties and one $defs/$ref. Its 6 prompts have 11 arguments,
// 5 of them required (one prompt has none). Of its 8 static resources, 2 are
// binary (image/png, application/octet-stream) and 6 text; 2 carry
// annotations. Every tool, prompt, resource and template can be called or
// read.
//
// shuffled-N (N any integer, e.g. shuffled-1, shuffled-42) is exactly the
// full surface, registered in an N-dependent order and with the object keys
// of every input and output schema emitted in an N-dependent order (the
// go-sdk passes json.RawMessage schemas through byte for byte). Two seeds give
// the same surface after canonicalization but different bytes on the wire.
//
// tools-only serves 5 of full's tools (close_issue, create_issue, get_issue,
// ping, search_issues) and advertises only {"tools":{"listChanged":true}}.
//
// big serves tools tool_0000 ... tool_4999, all with the same small input
// schema, and advertises only tools; for benchmarks.
//
// probes is for the probe tests: every call answers with a result the
// spec gate accepts. Capabilities: completions, logging, prompts,
// resources, tools; it has instructions. Tools: echo {message} (text),
// add {a, b} and weather {city} (outputSchema and structuredContent),
// chart (image/png), speak (audio/wav), find_file (a resource_link to the
// readme), attach (the readme as an embedded resource), fail (a result
// with isError: true and the text ProbesFailMessage). Prompts: greet
// (name required, language), show_logo (an image message), with_readme
// (an embedded resource message). Resources: readme.md (text/markdown),
// logo.png (image/png, blob), notes.txt (text/plain), under
// test://probes/; template test://probes/items/{id} (application/json).
// Completions: greet's language (de, en, fr) and the template's id (1, 2,
// 3), filtered by prefix.
//
// rug-pull changes under its client, for the guard's tests: tools read_file,
// search_files (its description has a typo) and two test hooks; calling
// rug_pull turns read_file's description into an instruction naming
// ~/.ssh/id_rsa (RugPullDescription), calling fix_typo fixes the typo; each
// sends notifications/tools/list_changed. It has instructions, a prompt
// (summarize) and a resource (file:///project/README.md).
//
// Served over stdio, the SDK modes hold back stdin's EOF until every request
// read so far is answered (at most 5 s), so `printf ... | testserver full`
// works; the go-sdk alone drops unanswered requests at EOF.
//
// # Raw (misbehaving) modes
//
// Stdio only. Unless a mode says otherwise: initialize is answered with the
// request's protocolVersion if it is 2024-11-05, 2025-03-26, 2025-06-18 or
// 2025-11-25 and "2025-11-25" otherwise, capabilities {"tools":{}} and
// serverInfo {name: "testserver-MODE", version: "1.0.0"}; server/discover
// gets error -32601 (so go-sdk clients fall back to initialize); ping gets
// {}; tools/call gets a text "ok"; notifications and responses are ignored;
// unknown methods get -32601 and unparsable lines -32700; EOF on stdin ends
// the mode with status 0. The "lite" tools list is one page of 2 tools, echo
// and add.
//
//	crash-handshake  on initialize, writes CrashHandshakeStderr (4 lines, the
//	                 first "fatal: config file missing") to stderr and exits 3.
//	hang             never writes anything; keeps reading stdin, and after EOF
//	                 keeps running. SIGTERM kills it (default disposition).
//	hang-lists       answers initialize (and ping) but never tools/list.
//	ignore-sigterm   lite tools; ignores SIGTERM and keeps running after EOF;
//	                 at startup re-executes itself in mode sleeper (same
//	                 process group, stdin/stderr on /dev/null), waits until
//	                 the child ignores SIGTERM, then writes "child-pid=N" to
//	                 stderr before reading stdin. Only SIGKILL to the group
//	                 ends both.
//	stdout-log       lite tools; writes "Server listening on stdio" on stdout
//	                 before anything else and "debug: handling METHOD" before
//	                 every response.
//	invalid-json     answers tools/list with the truncated line
//	                 {"jsonrpc":"2.0","id":ID,"result":{"tools":[{"name":"a"
//	huge             tools/list: one page of 20000 tools (tool_00000 ...),
//	                 each with a 1000-byte description: one line of ~22 MB.
//	repeat-cursor    every tools/list page: one tool "echo" and
//	                 nextCursor "page-2", whatever the cursor.
//	endless-pages    page k (cursor "" for k=0, then "ck") has one tool
//	                 tool_k and nextCursor "c(k+1)", forever; other cursors
//	                 get -32602.
//	duplicate-name   one page of 2 tools both named "search" (different
//	                 descriptions and schemas).
//	sdk-reject       one page of 3 tools: get_time (valid); string_schema with
//	                 inputSchema {"type":"string"} (the go-sdk client accepts
//	                 it, the MCP schema does not); bad_annotations whose
//	                 annotations.readOnlyHint is the string "yes", which makes
//	                 go-sdk's ClientSession.ListTools fail to decode the page.
//	paged-raw        capabilities tools, prompts, resources. tools/list: 5
//	                 tools in 3 pages (alpha, bravo | charlie, delta | echo)
//	                 with opaque cursors PagedRawCursor2, PagedRawCursor3,
//	                 each page with result-level _meta {"com.example/page":k};
//	                 charlie has an unknown field "x-vendor", echo an
//	                 outputSchema. prompts/list: 2 (1 page); resources/list: 2
//	                 (1 page); resources/templates/list: 1 (1 page).
//	sleeper          ignores SIGTERM, writes "sleeper ready" on stdout and
//	                 sleeps; reads nothing.
//	probe-wrong      capabilities tools, prompts, resources; answers every
//	                 probe wrongly but one. tools/list: echo (right: text
//	                 "hi"), weather (outputSchema {temp number, unit}; its
//	                 structuredContent {"temp":"21"} breaks it), snapshot
//	                 (an image without mimeType), record (audio with
//	                 mimeType ""), link (a resource_link without uri),
//	                 flaky (JSON-RPC error -32603 ProbeWrongFlakyMessage: a
//	                 tool failure that should be an isError result); an
//	                 unlisted tool gets an isError result instead of a
//	                 JSON-RPC error. prompts/list: greet, whose messages
//	                 have role "system". resources/list: readme.md
//	                 (text/markdown, read without mimeType) and logo.png
//	                 (image/png, read with a blob that is not base64) under
//	                 test://wrong/; no templates.
//	probe-hang       lite tools; tools/call is never answered.
//	probe-huge       lite tools; tools/call answers with one text block of
//	                 ProbeHugeBytes (8 MiB).
//	detached-helper  lite tools, exits on EOF; at startup re-executes itself
//	                 in mode daemon as its child in a new session (setsid,
//	                 like Node's detached spawn or Python's
//	                 start_new_session), with the server's own stdout and
//	                 stderr, waits until it ignores SIGTERM and writes
//	                 "helper-pid=N" to stderr. The helper writes nothing and
//	                 keeps both pipes open.
//	daemonized-helper  the same, but the helper is started by a middle
//	                 process (mode daemon-launcher) that exits at once, so
//	                 it is an orphan by the time a client shuts down.
//	quiet-daemon     as daemonized-helper, with the helper's stdio on
//	                 /dev/null: it holds nothing open, it only survives.
//	daemon, daemon-launcher  the helper and the middle process; not meant to
//	                 be run directly.
//	hostile-stderr   on initialize, writes workflow commands (ForgedError,
//	                 ForgedMask, ForgedStop, ForgedOld, one after a bare \r)
//	                 and ForgedANSI to stderr and exits HostileExitCode (4).
//	invalid-json-cr  answers tools/list with a truncated line whose tool
//	                 name holds a \r, ForgedError and ForgedANSI.
//	hostile-noise    lite tools; writes ForgedError, ForgedOld and ForgedANSI
//	                 on stdout at startup, and "  "+ForgedStop and ForgedANSI
//	                 before every answer.
//	hostile-names    tools/list: tools named ForgedOld, ForgedError and
//	                 "x"+ForgedANSI, descriptions with commands and escapes.
//	slow-start       never answers initialize; exits 0 when stdin closes.
//	bad-version      answers initialize with protocolVersion 1999-01-01.
//	bad-initialize   answers initialize with "capabilities": "none", which
//	                 the go-sdk client cannot decode; exits 0 on EOF.
//	json-log         lite tools; writes JSONLogLine (a log line with method,
//	                 id, error and result members but no "jsonrpc") on stdout
//	                 at startup and before every answer.
//	batch-reply      lite tools, tools/list answered inside a JSON array.
//	bad-utf8         tools/list: one tool whose description holds the bytes
//	                 0xff 0xfe.
//	duplicate-key    tools/list: one tool object with "name" twice
//	                 (safe_read, then delete_everything) and "type" twice in
//	                 its inputSchema.
//	capability-unimplemented  lite tools; capabilities tools, prompts,
//	                 resources, but prompts/list, resources/list and
//	                 resources/templates/list get -32601 (a capability
//	                 advertised and never implemented).
//	subscribe-unimplemented   lite tools; capabilities tools and resources
//	                 {subscribe: true}; resources/list: readme
//	                 (file:///readme.md), no templates; resources/subscribe
//	                 gets -32601.
//	unidentified-resource  lite tools; capabilities tools and resources;
//	                 resources/list: [{}] (an item with no uri and no name),
//	                 no templates.
//	newest-only      lite tools; initialize is always answered with
//	                 2025-11-25, whatever the request asks for (an older
//	                 revision is refused by answering with another one).
//	list-failed      capabilities tools, prompts, resources; tools/list gets
//	                 -32603 (backend unreachable); prompts, resources and
//	                 templates as paged-raw.
//	list-failed-page capabilities tools; tools/list page 1 as paged-raw's
//	                 (alpha, bravo, nextCursor), page 2 gets -32603 with a
//	                 terminal escape in its message.
//
// With MCP_SURFACE_TESTSERVER_PID_FILE set, a raw mode writes its pid to
// that file at startup.
//
// The modes that hang forever (hang and ignore-sigterm after EOF, sleeper,
// daemon) give up after [MaxHang] (10 minutes) so that a forgotten process cannot
// outlive a CI run by much.
//
// # What the go-sdk client (v1.8.0) does with them
//
// Checked by this package's tests: ListTools fails on sdk-reject (decoding
// error naming readOnlyHint); the 16 MiB default line limit of the SDK's stdio
// transports (IOTransport, CommandTransport) rejects huge unless MaxLineLength
// is -1; on invalid-json the client's streaming decoder waits for the rest of
// the object, so only a deadline ends ListTools; stdout-log's banner makes
// Connect fail ("invalid character 'S'"); duplicate names are passed through.
package testserver
