// Package locate anchors findings to lines of the repository, so that
// annotations and SARIF results point at something a reviewer can open.
//
// A finding about a tool, prompt, resource or resource template is placed,
// in order of preference:
//
//  1. on the line of the repository's source that defines the item: the
//     tracked source files are searched for the item's name (or URI) as a
//     string literal quoted with ", ' or `, and for Python functions
//     decorated as MCP tools or prompts; a literal counts only when the
//     lines around it look like an MCP registration (registerTool,
//     server.tool(, @mcp.tool, AddTool, mcp.Tool{Name: ...}, add_tool,
//     name: ...), and files under test or documentation directories are
//     preferred less. When the best candidates tie, the answer is
//     ambiguous and the source is not used;
//  2. on the item's line in the committed snapshot file (the line of the
//     deepest member of the finding's JSON Pointer that exists there, else
//     the item's "name"/"uri"/"uriTemplate" line, else the section's line);
//  3. on line 1 of the snapshot file, or of Options.Fallback when there is
//     no snapshot, or of DefaultSnapshot as a last resort (Source
//     "fallback"), because GitHub code scanning rejects a whole SARIF file
//     when one result has no location.
//
// Server-level findings (capabilities, instructions, protocol version)
// are placed in the snapshot only.
//
// The search is bounded and deterministic: files are visited in sorted
// order; vendored and generated trees (vendor/, node_modules/, dist/, ...),
// binary files (a NUL byte near the start), symbolic links, files larger
// than Options.MaxFileBytes and everything past Options.MaxTotalBytes are
// skipped. The list of files comes from the caller (GitFiles runs
// `git ls-files -z`), so only tracked files are read and tests can pass
// their own list.
package locate
