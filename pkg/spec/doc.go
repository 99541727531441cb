// Package spec is the spec gate: it checks what a server put on the wire
// against the published MCP schema of the revision the session actually
// negotiated, and lints the surface.
//
// It owns three things.
//
// The published schemas (revision.go, source.go, schema.go). Every known
// revision is pinned to its published location (a commit of the
// specification repository) and to the SHA-256 of its schema.json. A
// schema is looked for in a directory the user names, then in a local
// cache, then downloaded from its pinned location; a file whose digest is
// not the pinned one is refused, wherever it comes from, and a revision
// that no source has is an error, never a silent skip. Downloads are
// cached atomically. Each verified file is parsed and compiled once per
// process (keyed by its digest) and is safe for concurrent use; a
// definition is validated by compiling a reference to it
// (<url>#/definitions/X up to 2025-06-18, <url>#/$defs/X from 2025-11-25)
// within the one loaded resource. Formats are annotations in every
// revision (the draft-07 files would otherwise assert "uri", and the
// "byte" format is unknown to validators): a finding must not depend on
// the dialect a revision happened to be written in.
//
// Validation (Validate for a capture, ValidateManifest for a snapshot).
// Every result a capture recorded is validated: the handshake
// (InitializeResult, or DiscoverResult for server/discover), every page
// of every list, and probe results (tools/call, prompts/get,
// resources/read, completion/complete). Validator locations become JSON
// Pointers relative to the item that holds them, and the finding names
// that item (tool, prompt, resource, resource template) or the server.
// Each tool's inputSchema and outputSchema must itself be a valid JSON
// Schema in its dialect: its "$schema", else 2020-12 from 2025-11-25 on
// (the spec's default) and draft-07 before (those revisions said nothing;
// their own schema files and the SDKs' generated schemas are draft-07).
// Structured results of probes are checked against the tool's
// outputSchema, and probe results further (probe.go): content blocks for
// the fields their type needs that the schema cannot express (a real MIME
// type on images and audio, base64 data, a uri on resource links, text or
// blob in resource contents), resource contents against the MIME type the
// listing declared, and which channel an error came back on: a listed
// tool's own failure belongs in a result with isError (not a JSON-RPC
// error other than the protocol's own codes), a call to an unlisted tool
// in a JSON-RPC error (every revision's CallToolResult says so; 2026-07-28
// names -32602), invalid arguments either way. ValidateProbes reports only
// what the probes' answers caused, for `mcp-surface probe`. The JSON-RPC
// envelope of every frame the server sent is
// checked, and the capture's diagnostics (stdout noise, SDK rejections,
// failing lists, handshake fallback) become findings. Fields that the
// negotiated revision does not define but another revision does are found
// by comparing the published schemas' definitions, not from a hand list.
//
// Lint: tool names, repeated identities, missing descriptions, "required"
// naming undefined properties, and model-visible text carrying hidden
// characters, terminal escapes or instructions aimed at the model. The text
// checks are internal/base/textscan's, the same the diff and the renderers use:
// its precise built-in patterns, plus the patterns configured in
// .mcp-surface.yaml (LintOptions, through ValidateWith and
// ValidateManifestWith). A schema nested deeper than the text walk goes is
// reported where the walk stopped, never passed as clean.
//
// Every finding is made with finding.New from a rule of pkg/rules whose row
// names pkg/spec as its producer (rules.ProducedBy lists them), carries the negotiated revision, and
// the result is sorted with finding.Sort. Nothing here reads the
// environment, the clock or the process's streams: the CLI resolves the
// schema directory and the cache and passes them in Options.
package spec
